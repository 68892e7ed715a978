"""The run report's content on both engines: every number in it agrees with the written table and the run.

The rendering (HTML, browser) is tested in test_report_html.py; here the JSON report of real runs is checked
against independent SQL on the output table and against the run result. Also: the progress display.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

import sqlanon
from tests.helpers import Engine, make_people, people_config, write_config

pytestmark = pytest.mark.spark

SQLANON = Path(sys.executable).with_name("sqlanon")


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def diverse_config(url: str, **extra) -> dict:
    cfg = people_config(url, **extra)
    cfg["attributes"]["name"] = {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 2}},
                                                                 {"t_closeness": {"t": 0.9}}]}
    return cfg


def test_json_report_agrees_with_the_written_table(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    config = write_config(tmp_path / "report.yaml", diverse_config(engine.url))
    json_path, html_path = tmp_path / "out" / "r.json", tmp_path / "out" / "r.html"
    json_path.parent.mkdir()
    result = sqlanon.anonymize(config, report=[json_path, html_path])
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert html_path.stat().st_size > 1000
    assert report["format"] == "sqlanon-report" and report["run_id"] == result.run_id
    assert report["transformation"] == result.transformation and report["metrics"] == result.metrics

    # Classes: the histogram is that of the written table, by independent SQL.
    qis = ["age", "sex", "zip"]
    cols = ", ".join(_quoted(q) for q in qis)
    sizes = engine.execute(f'SELECT s, count(*) FROM (SELECT count(*) AS s FROM "people_out" GROUP BY {cols}) '
                           f"AS c GROUP BY s ORDER BY s")
    assert report["classes"]["size_histogram"] == [[int(s), int(c)] for s, c in sizes]
    assert sum(s * c for s, c in report["classes"]["size_histogram"]) == result.output_rows
    assert report["classes"]["smallest"] >= 3

    # Rows and suppression.
    rows = report["rows"]
    assert rows["total"] == 60 and rows["output"] == result.output_rows
    assert rows["suppressed"] == result.suppressed_rows == 60 - result.output_rows
    assert rows["suppressed"] <= rows["suppression_limit"] == 6

    # Attributes: levels, examples generalized at the chosen level, loss per attribute in [0, 1].
    by_name = {a["name"]: a for a in report["attributes"]}
    assert list(by_name) == qis
    for name in qis:
        assert by_name[name]["level"] == result.transformation[name]
        assert 0.0 <= by_name[name]["loss"] <= 1.0
        assert by_name[name]["examples"]
    if result.transformation["sex"] == 1:
        assert {g for _, g in by_name["sex"]["examples"]} == {"*"}
    if result.transformation["sex"] == 0:
        assert by_name["sex"]["loss"] == pytest.approx(rows["suppressed"] / 60)

    # Models: k and the two configured models, each with the worst class of the written table.
    models = {(m["model"], m["attribute"]): m for m in report["models"]}
    assert models[("k-anonymity", None)]["worst"] == report["classes"]["smallest"]
    distinct = models[("distinct l-diversity", "name")]
    written = engine.execute(f'SELECT min(d) FROM (SELECT count(DISTINCT "name") AS d FROM "people_out" '
                             f"GROUP BY {cols}) AS c")[0][0]
    assert distinct["worst"] == written >= 2
    assert all(m["satisfied"] for m in report["models"])
    # How close each class is to its limit: the per-class distribution, against independent SQL.
    per_class = engine.execute(f'SELECT d, count(*) FROM (SELECT count(DISTINCT "name") AS d FROM "people_out" '
                               f"GROUP BY {cols}) AS c GROUP BY d ORDER BY d")
    assert distinct["distribution"] == [[int(d), int(c)] for d, c in per_class]
    closeness = models[("t-closeness (equal)", "name")]
    assert sum(c for _, c in closeness["distribution"]) == report["classes"]["count"]
    assert max(v for v, _ in closeness["distribution"]) == pytest.approx(closeness["worst"], abs=0.005)
    assert models[("k-anonymity", None)].get("distribution") is None  # k has the class-size histogram

    # Search: every lattice node has exactly one state, the optimum is the result's node.
    search = report["search"]
    assert sum(search["counts"].values()) == search["lattice_size"] == result.lattice_size
    assert len(search["nodes"]) == result.lattice_size
    optimum = [n for n in search["nodes"] if n["state"] == "optimum"]
    assert [n["levels"] for n in optimum] == [[result.transformation[q] for q in qis]]
    evaluated = sum(search["counts"][s] for s in ("feasible", "infeasible")) + search["nodes_k_only_pruned"]
    assert evaluated in (result.nodes_evaluated, result.nodes_evaluated - 1)  # the optimum is counted apart


def test_dry_run_report_has_no_table_measures(duckdb_engine: Engine, tmp_path: Path) -> None:
    make_people(duckdb_engine)
    config = write_config(tmp_path / "report.yaml", people_config(duckdb_engine.url))
    result = sqlanon.anonymize(config, dry_run=True, report=tmp_path / "dry.json")
    report = json.loads((tmp_path / "dry.json").read_text(encoding="utf-8"))
    assert report["status"] == "dry_run" and report["classes"] is None and report["output_table"] is None
    assert report["transformation"] == result.transformation


def test_unknown_report_format_is_refused_before_the_run(duckdb_engine: Engine, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from sqlanon.cli import main

    make_people(duckdb_engine)
    config = write_config(tmp_path / "report.yaml", people_config(duckdb_engine.url))
    result = CliRunner().invoke(main, ["anonymize", str(config), "--report", str(tmp_path / "r.pdf")])
    assert result.exit_code == 2
    assert "unknown report format (use .html or .json)" in result.stderr
    assert "people_out" not in duckdb_engine.tables()


# -- progress display ------------------------------------------------------------------------------
def _run_on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """Run the console script with stdout and stderr on a pseudo-terminal; return (exit code, output)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(args, stdout=follower, stderr=follower, stdin=subprocess.DEVNULL, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    return proc.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


def _slow_env() -> dict[str, str]:
    # Hold the search for a moment after the first node, so the half-second threshold is passed for sure.
    return {**os.environ, "SQLANON_FAULT_PAUSE_IN_SEARCH": "0.8"}


def test_progress_on_a_terminal(duckdb_engine: Engine, tmp_path: Path) -> None:
    make_people(duckdb_engine)
    config = write_config(tmp_path / "p.yaml", people_config(duckdb_engine.url))
    code, output = _run_on_a_terminal([str(SQLANON), "anonymize", str(config)], _slow_env())
    assert code == 0, output
    assert "\r  nodes evaluated " in output
    line = output.split("\r  nodes evaluated ")[-1]
    assert "/" in line and "best" in line and "s " in line


@pytest.mark.parametrize("flag", ["--json", "--quiet"])
def test_no_progress_with_json_or_quiet(duckdb_engine: Engine, tmp_path: Path, flag: str) -> None:
    make_people(duckdb_engine)
    config = write_config(tmp_path / "p.yaml", people_config(duckdb_engine.url))
    code, output = _run_on_a_terminal([str(SQLANON), "anonymize", str(config), flag], _slow_env())
    assert code == 0, output
    assert "nodes evaluated " not in output.split("\n")[0] and "\r" not in output.replace("\r\n", "\n")


def test_no_progress_when_stderr_is_not_a_terminal(duckdb_engine: Engine, tmp_path: Path) -> None:
    make_people(duckdb_engine)
    config = write_config(tmp_path / "p.yaml", people_config(duckdb_engine.url))
    out = subprocess.run([str(SQLANON), "anonymize", str(config)], capture_output=True, text=True,
                         env=_slow_env(), timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stderr == "" and "\r" not in out.stdout


def test_every_measured_model_has_a_class_distribution(engine: Engine, tmp_path: Path) -> None:
    """Entropy, recursive, alpha and (k,e) on text and numeric attributes: each distribution covers every class
    and its extreme value is the worst class the report gives (within the 2-decimal rounding of ratios)."""
    make_people(engine)
    cfg = people_config(engine.url)
    cfg["attributes"]["name"] = {"role": "sensitive", "models": [
        {"entropy_l_diversity": {"l": 1.5}}, {"recursive_cl_diversity": {"c": 3, "l": 2}},
        {"alpha_k_anonymity": {"alpha": 0.9}}]}
    cfg["attributes"]["id"] = {"role": "sensitive", "models": [{"k_e_anonymity": {"e": 1}}]}
    config = write_config(tmp_path / "models.yaml", cfg)
    result = sqlanon.anonymize(config, report=tmp_path / "m.json")
    report = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert result.verified
    classes = report["classes"]["count"]
    rows = {m["model"].split(" (")[0] if m["model"].startswith("recursive") else m["model"]: m
            for m in report["models"] if m["attribute"] is not None}
    assert set(rows) == {"entropy l-diversity", "recursive", "(alpha,k)-anonymity", "(k,e)-anonymity"}
    for name, row in rows.items():
        values = [v for v, _ in row["distribution"]]
        assert sum(c for _, c in row["distribution"]) == classes, name
        extreme = max(values) if row["direction"] == "<=" else min(values)
        assert extreme == pytest.approx(row["worst"], abs=0.005), name
        assert row["satisfied"] is True, row
