"""Report polish: the loss legend explains level 0's loss, NULL examples only for columns with NULLs, every
y-axis label of the lattice picture, a compact picture for large lattices, and sensitive attributes without a
privacy model measured and warned about."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

import sqlanon
from sqlanon.report import render_html
from tests.helpers import REPO, Engine, make_people, people_config, write_config
from tests.unit.report.test_report_html import _base_report, _marks, _svg_block, _with_lattice, small_report

pytestmark = pytest.mark.spark

# -- the loss legend ---------------------------------------------------------------------------------------------


def _loss_note(html: str) -> str:
    section = re.search(r'<section id="loss">(.*?)</section>', html, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", section).split())


def test_loss_legend_explains_the_loss_of_level_0() -> None:
    report = small_report()  # 123 of 20,000 records suppressed
    note = _loss_note(render_html(report))
    assert "0 = value kept as it is, 1 = fully generalized" in note
    assert "Suppressed records count as fully generalized in every attribute" in note
    assert "level 0 still shows a loss of 0.00615 (the 123 suppressed of 20,000 records)" in note

    report["rows"]["suppressed"] = 0
    note = _loss_note(render_html(report))
    assert "Suppressed records count as fully generalized" in note and "still shows" not in note


# -- the lattice picture ------------------------------------------------------------------------------------------


def adult_shaped_report() -> dict[str, Any]:
    """ADULT's lattice (heights 5,4,3,3,2,2,2,3: 4,320 nodes over 17 heights), mostly inferred and pruned."""
    heights, optimum = [5, 4, 3, 3, 2, 2, 2, 3], (3, 2, 0, 1, 0, 0, 0, 1)
    report = _base_report([f"q{i}" for i in range(8)], heights, list(optimum))
    states = {}
    for i, levels in enumerate(itertools.product(*(range(h) for h in heights))):
        above = all(x >= o for x, o in zip(levels, optimum, strict=True))
        if levels == optimum:
            states[levels] = "optimum"
        elif i % 50 == 0:
            states[levels] = "feasible" if above else "infeasible"
        else:
            states[levels] = ("pruned" if sum(levels) > 9 else "inferred_feasible") if above \
                else "inferred_infeasible"
    return _with_lattice(report, states)


def _labels(lattice: str) -> list[tuple[int, float]]:
    """(height, y) of the y-axis labels."""
    return [(int(text), float(y)) for y, text in
            re.findall(r'<text x="52" y="([\d.]+)" text-anchor="end" font-size="11">(\d+)</text>', lattice)]


@pytest.mark.parametrize("make", ["small", "adult-shaped"])
def test_lattice_labels_every_height(make: str) -> None:
    report = small_report() if make == "small" else adult_shaped_report()
    lattice = _svg_block(render_html(report), "lattice-svg")
    labels = _labels(lattice)
    top = sum(h - 1 for h in report["search"]["heights"])
    assert [h for h, _ in labels] == list(range(top, -1, -1))
    gaps = [b - a for (_, a), (_, b) in itertools.pairwise(labels)]
    assert min(gaps) >= 12  # 11 px text: none overlaps its neighbour


def test_large_lattice_report_is_small() -> None:
    """ADULT's lattice made an 862 KB report (a <rect> and a tooltip per node); nodes decided without SQL are now
    a square each in one path per state, while evaluated nodes keep their own mark and tooltip."""
    report = adult_shaped_report()
    html = render_html(report)
    lattice = _svg_block(html, "lattice-svg")
    assert len(html.encode()) < 200_000, len(html.encode())
    assert _marks(lattice) == 4320
    evaluated = sum(1 for n in report["search"]["nodes"] if n["state"] in ("feasible", "infeasible"))
    assert len(re.findall(r"<rect\b[^>]*><title>\(", lattice)) == evaluated  # each with its own tooltip
    for state in ("inferred_feasible", "inferred_infeasible", "pruned"):
        path = re.search(rf'<path d="([^"]+)"[^>]*data-state="{state}" data-nodes="(\d+)"><title>([^<]+)</title>',
                         lattice)
        assert path, state
        squares, count, title = path.group(1).count("z"), int(path.group(2)), path.group(3)
        assert squares == count == sum(1 for n in report["search"]["nodes"] if n["state"] == state)
        assert f"{count:,} nodes" in title


def test_squares_in_a_path_sit_where_their_rects_would() -> None:
    """The relative moves of a state's path land every square exactly on its node's position."""
    from sqlanon.report import lattice_svg

    centres = [(100.25, 20.0), (104.95, 20.0), (300.0, 40.3), (12.0, 7.0)]
    path = lattice_svg._squares("pruned", centres, 3.5)
    d = re.search(r'd="([^"]+)"', path).group(1)
    x = y = 0.0
    corners = []
    for command, dx, dy in re.findall(r"([Mm])(-?[\d.]+) (-?[\d.]+)", d):
        x, y = (float(dx), float(dy)) if command == "M" else (x + float(dx), y + float(dy))
        corners.append((round(x, 1), round(y, 1)))
    for (x, y), (cx, cy) in zip(corners, centres, strict=True):
        assert abs(x - (cx - 1.75)) <= 0.051 and abs(y - (cy - 1.75)) <= 0.051


# -- end to end: NULL examples, sensitive attributes without a model ---------------------------------------------


def _report(engine: Engine, tmp_path: Path, data: dict[str, Any], *, dry_run: bool = False) -> tuple[dict, str]:
    config = write_config(tmp_path / "c.yaml", data)
    json_path, html_path = tmp_path / "r.json", tmp_path / "r.html"
    sqlanon.anonymize(config, report=[json_path, html_path], dry_run=dry_run)
    return json.loads(json_path.read_text(encoding="utf-8")), html_path.read_text(encoding="utf-8")


def test_null_examples_only_for_columns_with_nulls(engine: Engine, tmp_path: Path) -> None:
    """sex has NULLs, grp has none; both stay at level 0 (max_level), where the hierarchies' NULL row maps NULL
    to NULL. Only sex's examples show it."""
    engine.create_table("t", {"age": "INTEGER", "sex": "VARCHAR", "grp": "VARCHAR"},
                        [(20 + i % 30, None if i % 10 == 0 else "FM"[i % 2], "ab"[i % 3 % 2]) for i in range(90)])

    def config(output: str, null_handling: str) -> dict[str, Any]:
        return {
            "source": {"url": engine.url, "table": "t"}, "output": {"table": output},
            "attributes": {
                "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
                "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}},
                        "max_level": 0},
                "grp": {"role": "quasi_identifier", "hierarchy": {"inline": {"a": ["*"], "b": ["*"]}},
                        "max_level": 0},
            },
            "privacy": {"k": 2, "suppression_limit": 0.5, "null_handling": null_handling},
        }

    report, html = _report(engine, tmp_path, config("t_out", "extended"))
    examples = {a["name"]: a["examples"] for a in report["attributes"]}
    assert examples["sex"] == [["F", "F"], ["M", "M"], [None, None]]
    assert examples["grp"] == [["a", "a"], ["b", "b"]]  # no [None, None]: grp has no NULL
    assert all(len(e) <= 5 for e in examples.values())

    # Basic match removes the rows with NULLs before the search: no NULL example for sex either.
    report, _ = _report(engine, tmp_path, config("t_basic", "basic"))
    assert all(original is not None for a in report["attributes"] for original, _ in a["examples"])


def _with_unprotected(engine: Engine) -> dict[str, Any]:
    make_people(engine)
    data = people_config(engine.url)
    data["attributes"]["name"] = {"role": "sensitive"}  # unique per row: distinct l of a class = its size
    return data


def test_sensitive_attribute_without_a_model_is_measured_and_warned_about(engine: Engine, tmp_path: Path) -> None:
    report, html = _report(engine, tmp_path, _with_unprotected(engine))
    rows = [m for m in report["models"] if m["attribute"] == "name"]
    assert [(m["parameter"], m["declared"], m["limit"], m["satisfied"]) for m in rows] == [
        ("l", False, None, None), ("alpha", False, None, None), ("t", False, None, None)]
    assert all(m["declared"] for m in report["models"] if m["attribute"] != "name")
    # The values are those `sqlanon check` measures on the written table.
    audit = sqlanon.check(engine.url, "people_out", ["age", "sex", "zip"], sensitive=["name"]).sensitive["name"]
    assert {m["parameter"]: m["worst"] for m in rows} == {
        "l": audit["distinct_l"], "alpha": pytest.approx(audit["alpha"]), "t": pytest.approx(audit["t_equal"])}
    assert rows[0]["worst"] == report["classes"]["smallest"]  # every name differs

    warning = re.search(r'<p class="warning unprotected">(.*?)</p>', html, re.S)
    assert warning, "no warning in the models section"
    text = " ".join(re.sub(r"<[^>]+>", " ", warning.group(1)).split())
    assert "name is declared sensitive, but no privacy model protects it" in text
    assert f"distinct l = {rows[0]['worst']}" in text and "alpha = " in text and "t (equal distance) = " in text
    assert "attributes.name.models" in text
    assert 'id="unprotected-summary"' in html  # and a line in the summary


def test_unprotected_attribute_on_a_dry_run_is_not_measured(duckdb_engine: Engine, tmp_path: Path) -> None:
    report, html = _report(duckdb_engine, tmp_path, _with_unprotected(duckdb_engine), dry_run=True)
    rows = [m for m in report["models"] if m["attribute"] == "name"]
    assert len(rows) == 3 and all(m["worst"] is None and m["declared"] is False for m in rows)
    assert "Not measured: no table was written." in html


def test_adult_report(shared_datasets: Path, tmp_path: Path) -> None:
    """ADULT with occupation declared sensitive and no model: distinct l = 2, alpha = 0.83, and a report well
    under 300 KB (it was 862 KB)."""
    config = tmp_path / "adult.yaml"
    text = (REPO / "benchmarks" / "configs" / "adult_k5_5pct_loss.yaml").read_text(encoding="utf-8")
    text = text.replace("../../../shared/datasets", str(shared_datasets))
    config.write_text(text.replace("occupation:     {role: insensitive}", "occupation:     {role: sensitive}"),
                      encoding="utf-8")
    html_path, json_path = tmp_path / "adult.html", tmp_path / "adult.json"
    sqlanon.anonymize(config, report=[html_path, json_path])
    assert html_path.stat().st_size < 200_000
    report = json.loads(json_path.read_text(encoding="utf-8"))
    measured = {m["parameter"]: m["worst"] for m in report["models"] if m["attribute"] == "occupation"}
    assert measured["l"] == 2 and round(measured["alpha"], 2) == 0.83
    html = html_path.read_text(encoding="utf-8")
    assert "occupation</b> is declared sensitive" in html
    lattice = _svg_block(html, "lattice-svg")
    assert [h for h, _ in _labels(lattice)] == list(range(16, -1, -1))
