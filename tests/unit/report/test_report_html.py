"""The run report: JSON and self-contained HTML, checked as text and in a real (headless Chromium) browser.

The report dicts are built here, independent of the search code, so that these tests pin the renderer alone.
The browser tests skip when Chromium or Pillow is missing, unless SQLANON_REQUIRE_BROWSER=1 (CI) makes
that a failure: a report nobody ever looked at in a browser is not tested.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from sqlanon.errors import ConfigError
from sqlanon.report import render_html, write_report
from sqlanon.report import svg as report_svg

SECTIONS = ("summary", "generalization", "classes", "suppression", "loss", "models", "lattice", "config")
HOSTILE = "<script>alert(1)</script>"
OPTIMUM_COLOR = (0xD6, 0x27, 0x28)  # sqlanon.report.lattice_svg.OPTIMUM_COLOR
HIST_COLOR = (0x1F, 0x77, 0xB4)  # sqlanon.report.svg.HIST_COLOR
DIST_OK, DIST_BAD = report_svg.DIST_OK_COLOR, report_svg.DIST_BAD_COLOR
SCREEN = (1200, 3600)  # browser window: wide as a laptop screen, tall enough for the whole small report


# --- report dicts ---------------------------------------------------------------------------------------------


def _base_report(qis: list[str], heights: list[int], levels: list[int]) -> dict[str, Any]:
    return {
        "format": "sqlanon-report",
        "version": 1,
        "sqlanon_version": "0.1.0",
        "run_id": "a1b2c3d4e5f6",
        "generated_at": "2026-11-22T02:30:00Z",
        "status": "ok",
        "database": "postgresql+psycopg://anon:***@db.example:5432/clinic",
        "source_table": "patients",
        "output_table": "patients_k5",
        "config": {
            "source": {"url": "postgresql+psycopg://anon:***@db.example:5432/clinic", "table": "patients"},
            "output": {"table": "patients_k5", "if_exists": "replace", "suppressed_rows": "remove"},
            "privacy": {"k": 5, "suppression_limit": 0.05},
            "attributes": {q: {"role": "quasi_identifier", "hierarchy": {"csv": f"hierarchies/{q}.csv"}} for q in qis},
        },
        "transformation": dict(zip(qis, levels, strict=True)),
        "metric": "loss",
        "metrics": {"loss": 0.17, "dm_star": 123456, "aecs": 12.3, "precision": 0.4, "height": 5, "wil": 0.2},
        "attributes": [
            {
                "name": q,
                "level": level,
                "height": height,
                "max_level": height - 1,
                "loss": round(level / (height - 1), 4),
                "priority": 1.0,
                "examples": [["34", "30-39"], ["35", "30-39"], [None, "*"]],
            }
            for q, height, level in zip(qis, heights, levels, strict=True)
        ],
        "rows": {
            "total": 20000,
            "considered": 20000,
            "removed_for_null": 0,
            "suppressed": 123,
            "suppression_limit": 1000,
            "suppressed_rows_mode": "remove",
            "output": 19877,
        },
        "classes": {"count": 812, "smallest": 5, "largest": 340, "average": 24.5, "size_histogram": []},
        "models": [
            {
                "model": "k-anonymity",
                "attribute": None,
                "parameter": "k",
                "limit": 5,
                "worst": 5,
                "direction": ">=",
                "satisfied": True,
            },
            {
                "model": "distinct l-diversity",
                "attribute": "diagnosis",
                "parameter": "l",
                "limit": 3,
                "worst": 3,
                "direction": ">=",
                "satisfied": True,
                "distribution": [[3, 10], [4, 7], [5, 2]],
            },
            {
                "model": "t-closeness (equal)",
                "attribute": "diagnosis",
                "parameter": "t",
                "limit": 0.2,
                "worst": 0.18,
                "direction": "<=",
                "satisfied": True,
                "distribution": [[0.0, 2], [0.04, 5], [0.07, 9], [0.11, 6], [0.15, 3], [0.18, 1]],
            },
            {
                "model": "entropy l-diversity",
                "attribute": "diagnosis",
                "parameter": "l",
                "limit": 2.5,
                "worst": None,
                "direction": ">=",
                "satisfied": False,
                "distribution": None,
            },
        ],
        "search": {
            "strategy": "flash",
            "nodes_evaluated": 0,
            "lattice_size": 0,
            "full_lattice_size": 0,
            "seconds": 1.9,
            "statements": 180,
            "quasi_identifiers": qis,
            "heights": heights,
            "counts": {},
            "nodes": [],
        },
        "verification": {"verified": True, "smallest_class": 5, "suppressed_rows": 123},
    }


def _with_lattice(report: dict[str, Any], states: dict[tuple[int, ...], str]) -> dict[str, Any]:
    rng = random.Random(7)
    nodes = [
        {
            "levels": list(levels),
            "state": state,
            "metric": round(rng.uniform(0.1, 0.9), 4) if state in ("optimum", "feasible", "infeasible") else None,
        }
        for levels, state in states.items()
    ]
    counts = {s: 0 for s in ("optimum", "feasible", "infeasible", "inferred_feasible", "inferred_infeasible", "pruned")}
    for node in nodes:
        counts[node["state"]] += 1
    evaluated = counts["optimum"] + counts["feasible"] + counts["infeasible"]
    report["search"].update(
        nodes=nodes, counts=counts, nodes_evaluated=evaluated, lattice_size=len(nodes), full_lattice_size=len(nodes)
    )
    return report


def small_report() -> dict[str, Any]:
    """3 x 3 x 2 lattice (18 nodes) in which every state occurs; 8 distinct class sizes."""
    heights, optimum = [3, 3, 2], (1, 1, 0)
    report = _base_report(["age", "zip", "sex"], heights, list(optimum))
    states = {}
    for levels in itertools.product(*(range(h) for h in heights)):
        a, b, c = levels
        if levels == optimum:
            states[levels] = "optimum"
        elif a >= 1 and a + b + c >= 2:  # feasible region: above the optimum
            states[levels] = (
                "pruned"
                if sum(levels) >= 4
                else ("feasible" if levels in {(2, 0, 0), (1, 0, 1)} else "inferred_feasible")
            )
        else:
            states[levels] = "infeasible" if levels in {(0, 2, 1), (1, 0, 0), (0, 1, 1)} else "inferred_infeasible"
    report["classes"]["size_histogram"] = [[5, 100], [6, 80], [7, 60], [9, 40], [12, 20], [20, 8], [75, 3], [340, 1]]
    return _with_lattice(report, states)


def large_report(with_nodes: bool = True) -> dict[str, Any]:
    """5 x 5 x 4 x 5 x 10 = 5,000 nodes; 300 distinct class sizes (the histogram must bucket them)."""
    qis, heights = ["age", "zip", "sex", "admitted", "diagnosis_group"], [5, 5, 4, 5, 10]
    optimum = (2, 1, 1, 2, 3)
    report = _base_report(qis, heights, list(optimum))
    rng = random.Random(11)
    states = {}
    for levels in itertools.product(*(range(h) for h in heights)):
        above = all(x >= o for x, o in zip(levels, optimum, strict=True))
        height = sum(levels)
        if levels == optimum:
            states[levels] = "optimum"
        elif above or height > 12:
            states[levels] = "pruned" if height > 14 else rng.choice(["feasible", "inferred_feasible"])
        else:
            states[levels] = rng.choice(["infeasible", "inferred_infeasible", "inferred_infeasible"])
    report["classes"]["size_histogram"] = [[size, max(1, 4000 // size**2)] for size in range(5, 305)]
    report = _with_lattice(report, states)
    if not with_nodes:
        report["search"]["nodes"] = None
    return report


def hostile_report() -> dict[str, Any]:
    """Names and values that are markup, quotes and ampersands, everywhere the report shows user data."""
    report = small_report()
    report["source_table"] = 'pa"tients<b>'
    report["output_table"] = "out'put&co"
    report["transformation"] = {"age": 1, HOSTILE: 1, "sex": 0}
    report["search"]["quasi_identifiers"] = ["age", HOSTILE, "sex"]
    report["attributes"][1]["name"] = HOSTILE
    report["attributes"][1]["examples"] = [['"quoted" & <i>', "x' onmouseover='alert(2)"], [None, None]]
    report["models"][1]["attribute"] = HOSTILE
    report["config"]["attributes"][HOSTILE] = {"role": "quasi_identifier", "note": "</pre><script>alert(3)</script>"}
    return report


# --- unit tests on the HTML text ------------------------------------------------------------------------------


class _Elements(HTMLParser):
    """Start tags with their attributes, and ids, of an HTML document."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _elements(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Elements()
    parser.feed(html)
    return parser.tags


def _svg_block(html: str, svg_id: str) -> str:
    match = re.search(rf'<svg[^>]*\bid="{svg_id}".*?</svg>', html, re.S)
    assert match, f"no <svg id={svg_id}>"
    return match.group(0)


@pytest.fixture(scope="module")
def large() -> tuple[dict[str, Any], str]:
    """The 5,000-node report and its HTML, built once: rendering it takes a few tenths of a second."""
    report = large_report()
    return report, render_html(report)


@pytest.mark.parametrize("make", ["small", "large", "large without nodes"])
def test_every_section_and_self_contained(make: str, large: tuple[dict[str, Any], str]) -> None:
    if make == "large":
        html = large[1]
    else:
        html = render_html(small_report() if make == "small" else large_report(with_nodes=False))
    tags = _elements(html)
    ids = {attrs.get("id") for _, attrs in tags}
    assert set(SECTIONS) <= ids
    assert {"classes-svg", "suppression-svg", "loss-svg", "lattice-svg"} <= ids
    for tag, attrs in tags:
        assert tag not in ("script", "link", "img", "iframe", "object", "embed"), tag
        for name in ("src", "href", "xlink:href"):
            assert not re.match(r"\s*(https?:)?//", attrs.get(name) or "", re.I), (tag, attrs)
    assert "@import" not in html and "url(" not in html


def test_small_report_content() -> None:
    report = small_report()
    html = render_html(report)
    lattice = _svg_block(html, "lattice-svg")
    assert len(re.findall(r"<(?:circle|rect)\b", lattice)) == 18
    for state in ("optimum", "feasible", "infeasible", "inferred_feasible", "inferred_infeasible", "pruned"):
        assert f'data-state="{state}"' in lattice
    assert "optimum (1, 1, 0)" in lattice
    assert lattice.count("<line") == 33  # edges of the 3x3x2 grid: 2*3*2 + 3*2*2 + 3*3*1
    histogram = _svg_block(html, "classes-svg")
    assert len(re.findall(r"<rect\b", histogram)) == 8 and "k = 5" in histogram
    assert "age=1, zip=1, sex=0" in html
    assert 'class="badge good" id="verdict">verified<' in html
    assert ">+0.02<" in html and ">+0<" in html  # margins of t-closeness and of l-diversity
    assert "not measured" in html and "✗" in html


def test_large_lattice_is_compact_and_histogram_bucketed(large: tuple[dict[str, Any], str]) -> None:
    html = large[1]
    lattice = _svg_block(html, "lattice-svg")
    # squares evaluated in SQL, one path per state of the rest (a square per node), and the optimum
    assert _marks(lattice) == 5000 and lattice.count("<circle") == 1
    assert len(re.findall(r'<path\b[^>]*data-nodes=', lattice)) == 3  # inferred (2 states) and pruned
    assert "<line" not in lattice  # no edges for thousands of nodes
    histogram = _svg_block(html, "classes-svg")
    assert 10 <= len(re.findall(r"<rect\b", histogram)) <= 40
    assert "log-scaled" in histogram

    counts_only = large_report(with_nodes=False)
    lattice = _svg_block(render_html(counts_only), "lattice-svg")
    non_empty = sum(1 for n in counts_only["search"]["counts"].values() if n)
    assert len(re.findall(r"<rect\b", lattice)) == non_empty and "<circle" not in lattice


def _marks(lattice: str) -> int:
    """Nodes drawn in a lattice picture: one ``<circle>`` or ``<rect>`` each, or a square in a state's path."""
    paths = sum(int(n) for n in re.findall(r'<path\b[^>]*\bdata-nodes="(\d+)"', lattice))
    return len(re.findall(r"<(?:circle|rect)\b", lattice)) + paths


def _bars(block: str) -> list[tuple[str, str]]:
    """(fill, tooltip) of every bar of a chart."""
    return re.findall(r'<rect\b[^>]*\bfill="(#[0-9a-f]{6})"[^>]*><title>([^<]*)</title>', block)


def test_model_distributions() -> None:
    html = render_html(small_report())
    assert len(re.findall(r'<svg[^>]*\bid="dist-', html)) == 2  # k-anonymity has none, entropy l-diversity None
    assert "distinct l-diversity on diagnosis: classes by l</figcaption>" in html
    assert "t-closeness (equal) on diagnosis: classes by t</figcaption>" in html
    distinct = _svg_block(html, "dist-0")
    assert [fill for fill, _ in _bars(distinct)] == [DIST_OK] * 3 and DIST_BAD not in distinct
    assert "l = 3</text>" in distinct and "l 4: 7 classes (satisfy the model)" in distinct
    closeness = _svg_block(html, "dist-1")
    assert [fill for fill, _ in _bars(closeness)] == [DIST_OK] * 6 and "t = 0.2</text>" in closeness
    assert "stroke-dasharray" in closeness  # the limit marker
    assert "class" + "es that violate it" in html  # the legend


@pytest.mark.parametrize(
    ("index", "distribution", "bad"),
    [
        (1, [[1, 1], [3, 10], [4, 7], [5, 2]], "l 1: 1 class (violate the model)"),  # the masked all-'*' class
        (2, [[0.1, 4], [0.2, 3], [0.25, 1]], "t 0.25: 1 class (violate the model)"),  # 0.2 = t still satisfies
    ],
)
def test_violating_classes_get_the_bad_colour(index: int, distribution: list[list[Any]], bad: str) -> None:
    report = small_report()
    report["models"][index]["distribution"] = distribution
    bars = _bars(_svg_block(render_html(report), f"dist-{index - 1}"))
    assert len(bars) == len(distribution)
    assert [tip for fill, tip in bars if fill == DIST_BAD] == [bad]
    assert sum(fill == DIST_OK for fill, _ in bars) == len(distribution) - 1


@pytest.mark.parametrize(
    ("distribution", "limit", "direction"),
    [
        ([[v, v % 7 + 1] for v in range(1, 101)], 50, ">="),  # p or distinct l: integers
        ([[round(v / 200, 2), v % 5 + 1] for v in range(0, 200)], 0.3, "<="),  # t or alpha: floats
        ([[round(v / 200, 2), 1] for v in range(0, 200)], 2.0, ">="),  # every class violates
        ([[v * 37.5, 2] for v in range(40)], -5, ">="),  # (k,e)'s e, every class satisfies
    ],
)
def test_many_values_are_binned(distribution: list[list[Any]], limit: float, direction: str) -> None:
    bars, marker, binned = report_svg.value_bins(distribution, limit, direction)
    assert binned and 15 <= len(bars) <= 23
    total = sum(n for _, n in distribution)
    assert sum(ok + bad for _, _, ok, bad in bars) == total
    violating = sum(n for v, n in distribution if not report_svg.satisfies(v, limit, direction))
    assert sum(bad for _, _, _, bad in bars) == violating
    assert all(ok == 0 or bad == 0 for _, _, ok, bad in bars)  # the limit is a bin edge: no bin mixes the two
    bad_side = [i for i, bar in enumerate(bars) if bar[3]]
    assert all((i < marker) == (direction == ">=") for i in bad_side)

    report = small_report()
    report["models"][1].update(distribution=distribution, limit=limit, direction=direction)
    block = _svg_block(render_html(report), "dist-0")
    assert len(_bars(block)) == sum(1 for _, _, ok, bad in bars if ok + bad) and "–" in block  # ranges
    assert (DIST_BAD in block) == bool(violating) and (DIST_OK in block) == (violating < total)


def test_distribution_edge_cases() -> None:
    report = small_report()
    report["models"][0]["distribution"] = []  # empty: no chart
    report["models"][1]["distribution"] = [[None, 2], [3, 10], [4, 7]]  # a class without a value
    report["models"][2]["distribution"] = [[None, 3]]  # nothing to draw
    report["models"].append(
        {"model": "delta-presence", "attribute": None, "parameter": "delta", "limit": [0.0, 0.5], "worst": None,
         "direction": "in", "satisfied": True, "distribution": [[0.1, 3]]}
    )  # fmt: skip
    html = render_html(report)
    assert len(re.findall(r'<svg[^>]*\bid="dist-', html)) == 1
    assert len(_bars(_svg_block(html, "dist-0"))) == 2 and "2 classes without a value not shown" in html

    for model in report["models"]:
        model["distribution"] = None
    html = render_html(report)
    assert 'id="dist-' not in html and "each model&#39;s measure" not in html


def test_unverified_report_shows_the_reason() -> None:
    report = small_report()
    report.update(status="unverified", verification={"verified": False, "smallest_class": 3, "reason": "2 classes < k"})
    html = render_html(report)
    assert 'class="badge bad" id="verdict">NOT verified<' in html and "2 classes &lt; k" in html


def test_dry_run_report_without_measurements() -> None:
    """A dry run writes no table: no classes, no worst values, models not decided, no verification."""
    report = small_report()
    report.update(status="dry_run", verification=None, output_table=None, classes=None)
    report["rows"]["output"] = None
    report["search"]["strategy"] = None
    for model in report["models"]:
        model.update(worst=None, satisfied=None)
    report["models"].append(
        {"model": "delta-presence", "attribute": None, "parameter": "delta", "limit": [0.0, 0.5], "worst": None,
         "direction": "in", "satisfied": None}
    )  # fmt: skip
    html = render_html(report)
    assert 'class="badge neutral" id="verdict">not verified' in html and "not written" in html
    assert "Not measured: no output table was written." in html and 'id="classes-svg"' not in html
    assert html.count("not checked") == 5 and "delta ∈ [0, 0.5]" in html
    assert "strategy <b>" not in html


def test_hostile_names_and_values_are_escaped() -> None:
    html = render_html(hostile_report())
    assert HOSTILE not in html and "alert(3)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;quoted&#34; &amp; &lt;i&gt;" in html
    assert "onmouseover='" not in html and "x&#39; onmouseover=&#39;alert(2)" in html
    assert "pa&#34;tients&lt;b&gt;" in html and "out&#39;put&amp;co" in html
    assert "on &lt;script&gt;alert(1)&lt;/script&gt;: classes by l</figcaption>" in html  # a chart's title
    assert 'aria-label="distinct l-diversity on &lt;script&gt;' in html
    tags = _elements(html)
    assert not any(tag in ("script", "i") for tag, _ in tags)
    assert not any(name.startswith("on") for _, attrs in tags for name in attrs)


def test_json_round_trip_and_atomic_write(tmp_path: Path) -> None:
    report = hostile_report()
    write_report(report, tmp_path / "run.json")
    assert json.loads((tmp_path / "run.json").read_text(encoding="utf-8")) == json.loads(json.dumps(report))
    write_report(report, tmp_path / "run.html")
    assert (tmp_path / "run.html").read_text(encoding="utf-8") == render_html(report)
    write_report(small_report(), tmp_path / "run.html")  # replaces the existing file
    assert "patients_k5" in (tmp_path / "run.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.html", "run.json"]


def test_failed_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "run.html").mkdir()  # os.replace cannot replace a folder with a file
    with pytest.raises(OSError):
        write_report(small_report(), tmp_path / "run.html")
    assert [p.name for p in tmp_path.iterdir()] == ["run.html"]


@pytest.mark.parametrize("name", ["run.txt", "run", "run.html.gz", "run.pdf"])
def test_unknown_suffix(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    with pytest.raises(ConfigError) as error:
        write_report(small_report(), path)
    assert str(error.value) == f"--report: {path}: unknown report format (use .html or .json)"
    assert error.value.exit_code == 2
    assert list(tmp_path.iterdir()) == []


# --- browser tests --------------------------------------------------------------------------------------------


def _required_or_skip(what: str) -> None:
    if os.environ.get("SQLANON_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{what} is missing and SQLANON_REQUIRE_BROWSER=1")
    pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="module")
def chromium() -> str:
    path = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if path is None:
        _required_or_skip("chromium")
    return path


@pytest.fixture(scope="module")
def pil():
    try:
        from PIL import Image, ImageChops
    except ImportError:
        _required_or_skip("Pillow")
    return Image, ImageChops


def _open_in_browser(chromium: str, report: dict[str, Any], folder: Path) -> tuple[str, Path]:
    """Render the report to a file, open it in headless Chromium: (the DOM after parsing, a screenshot)."""
    page, png = folder / "report.html", folder / "report.png"
    write_report(report, page)
    command = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={folder / 'profile'}", "--hide-scrollbars", f"--window-size={SCREEN[0]},{SCREEN[1]}",
        f"--screenshot={png}", "--dump-dom", page.as_uri(),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=90, check=False)
    assert result.returncode == 0 and png.exists(), result.stderr[-2000:]
    return result.stdout, png


def _color_mask(pil, png: Path, target: tuple[int, int, int], tolerance: int = 6):
    """Black/white mask of the pixels within ``tolerance`` per channel of ``target`` (antialiasing)."""
    image_module, chops = pil
    with image_module.open(png) as image:
        bands = image.convert("RGB").split()
    masks = [
        band.point(lambda v, t=t: 255 if abs(v - t) <= tolerance else 0) for band, t in zip(bands, target, strict=True)
    ]
    return chops.multiply(chops.multiply(masks[0], masks[1]), masks[2])


def _assert_not_blank(pil, png: Path) -> None:
    image_module, _ = pil
    with image_module.open(png) as image:
        assert image.size == SCREEN
        colors = image.convert("RGB").getcolors(maxcolors=1 << 24)
    white = sum(n for n, rgb in colors if rgb == (255, 255, 255))
    assert len(colors) > 50 and white < 0.97 * SCREEN[0] * SCREEN[1]  # text, charts, colours: not a blank page


def test_browser_small_report(chromium: str, pil, tmp_path: Path) -> None:
    dom, png = _open_in_browser(chromium, hostile_report(), tmp_path)
    tags = _elements(dom)
    assert set(SECTIONS) <= {attrs.get("id") for _, attrs in tags}
    assert not any(tag == "script" for tag, _ in tags)  # the hostile names stayed text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom
    assert len(re.findall(r"<(?:circle|rect)\b", _svg_block(dom, "lattice-svg"))) == 18
    assert len(re.findall(r"<rect\b", _svg_block(dom, "classes-svg"))) == 8
    assert len(re.findall(r'<svg[^>]*class="gauge"', dom)) == 4
    assert len(_bars(_svg_block(dom, "dist-0"))) == 3 and len(_bars(_svg_block(dom, "dist-1"))) == 6

    _assert_not_blank(pil, png)
    bars = _color_mask(pil, png, HIST_COLOR)
    assert bars.histogram()[255] >= 5000  # the histogram's bars
    optimum = _color_mask(pil, png, OPTIMUM_COLOR)
    assert optimum.histogram()[255] >= 300
    left, top, right, bottom = optimum.getbbox()
    assert bottom - top >= 100  # the legend's swatch and, well below it, the optimum in the lattice
    distributions = _color_mask(pil, png, _rgb(DIST_OK))
    assert distributions.histogram()[255] >= 3000  # the per-model charts' bars, not only the legend's swatch
    left, top, right, bottom = distributions.getbbox()
    assert right - left >= 400 and bottom - top >= 60  # two charts side by side, bars of some height


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def test_browser_large_lattice(chromium: str, pil, tmp_path: Path, large: tuple[dict[str, Any], str]) -> None:
    report, _ = large
    dom, png = _open_in_browser(chromium, report, tmp_path)
    lattice = _svg_block(dom, "lattice-svg")
    assert _marks(lattice) == len(report["search"]["nodes"]) == 5000
    _assert_not_blank(pil, png)
    optimum = _color_mask(pil, png, OPTIMUM_COLOR)
    assert optimum.histogram()[255] >= 100
    left, top, right, bottom = optimum.getbbox()
    assert bottom - top >= 100
