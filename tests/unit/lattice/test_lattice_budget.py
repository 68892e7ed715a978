"""No input may make sqlanon exhaust memory: lattices the optimal searches cannot hold are refused before any
search, and ``strategy: auto`` (the default) takes the heuristic there instead.

The optimal searches keep state for every lattice node (``sqlanon/lattice/budget.py``); a table with 24
quasi-identifiers (a lattice of 4.9e13 nodes, like creditcard_int) grew to 24 GB and was killed by the kernel.
"""

from __future__ import annotations

import json
import resource
import time
from pathlib import Path

import pytest

from sqlanon.lattice.budget import lattice_budget
from tests.helpers import Engine, invoke, write_config

pytestmark = pytest.mark.spark


def wide_config(url: str, qis: int, **search: object) -> dict:
    attributes = {f"q{j}": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [10, 50]}}}
                  for j in range(qis)}
    return {"source": {"url": url, "table": "wide"}, "output": {"table": "wide_out"},
            "attributes": {"id": {"role": "identifier"}, **attributes},
            "privacy": {"k": 2, "suppression_limit": 0.05}, "search": dict(search), "other_columns": "insensitive"}


@pytest.fixture
def wide(engine: Engine) -> Engine:
    columns = {"id": "INTEGER", **{f"q{j}": "INTEGER" for j in range(24)}}
    engine.create_table("wide", columns, [(i, *[(i * (j + 7)) % 100 for j in range(24)]) for i in range(200)])
    return engine


def test_a_huge_lattice_is_refused_quickly_and_without_memory(wide: Engine, tmp_path: Path) -> None:
    path = write_config(tmp_path / "c.yaml", wide_config(wide.url, 24, strategy="flash"))  # 4^24 = 2.8e14 nodes
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    result = invoke("anonymize", path)
    assert result.exit_code == 2, result.output
    # A search begun on 2.8e14 nodes would not end for days; the refusal loads the 24 hierarchies first, which
    # takes Spark about a minute on a busy machine.
    assert time.perf_counter() - started < 300
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 500, f"the refusal itself grew the process by {grown_mb:.0f} MB"
    for fragment in (str(path), "search: the lattice has 281,474,976,710,656 nodes", "search.max_lattice_nodes",
                     "fewer quasi-identifiers"):
        assert fragment in result.stderr
    assert "wide_out" not in wide.tables()


def test_validate_reports_the_lattice_and_what_the_search_will_do(wide: Engine, tmp_path: Path) -> None:
    big = invoke("validate", write_config(tmp_path / "big.yaml", wide_config(wide.url, 24, strategy="flash")), "--json")
    assert big.exit_code == 0, big.output
    plan = json.loads(big.stdout)["search"]
    assert plan["runs"] is False and plan["lattice_size"] == 4 ** 24 and "max_lattice_nodes" in plan["refusal"]
    text = invoke("validate", write_config(tmp_path / "big2.yaml", wide_config(wide.url, 24, strategy="flash")))
    assert "anonymize would refuse this lattice" in text.stdout
    small = invoke("validate", write_config(tmp_path / "small.yaml", wide_config(wide.url, 3)))
    assert small.exit_code == 0 and "search: flash over 64 nodes" in small.stdout
    assert "auto: flash, the optimal search, as the lattice of 64 nodes fits" in small.stdout
    auto = invoke("validate", write_config(tmp_path / "auto.yaml", wide_config(wide.url, 24)), "--json")
    plan = json.loads(auto.stdout)["search"]
    assert plan["runs"] is True and plan["strategy"] == "top_down" and plan["refusal"] is None
    assert "is more than search.max_lattice_nodes (1,000,000)" in plan["reason"]


def test_auto_searches_a_huge_lattice_with_the_heuristic_within_its_budget(wide: Engine, tmp_path: Path) -> None:
    """The default strategy on 2.8e14 nodes: top_down, which keeps state for the explored nodes only, stops on
    its budget, and says so (not proven optimal, with a lower bound no higher than its value)."""
    path = write_config(tmp_path / "c.yaml", wide_config(wide.url, 24, budget={"nodes": 60}))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = invoke("anonymize", path, "--json")
    assert result.exit_code == 0, result.output
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024 < 500
    out = json.loads(result.stdout)
    assert out["strategy"] == "top_down" and out["nodes_evaluated"] <= 60
    assert out["strategy_reason"].startswith("auto: top_down, a heuristic, as the lattice of 281,474,976,710,656")
    assert out["optimal"] is False and out["stopped"] == "its budget of 60 checked nodes was spent"
    assert 0 <= out["lower_bound"] <= out["metrics"]["loss"] and 0 < out["optimality_gap"] <= 1
    assert out["verified"] is True and "wide_out" in wide.tables()
    report = tmp_path / "report.html"
    text = invoke("anonymize", path, "--dry-run", "--report", str(report))
    html = report.read_text(encoding="utf-8")
    assert "Not proven optimal</b>: the search stopped because its budget of 60 checked nodes was spent" in html
    assert "or never explored" in html
    assert "NOT PROVEN OPTIMAL: the search stopped because its budget of 60 checked nodes was spent" in text.stdout


def test_the_limit_is_a_setting_and_max_level_caps_bring_a_lattice_within_it(wide: Engine, tmp_path: Path) -> None:
    data = wide_config(wide.url, 3, max_lattice_nodes=63, strategy="flash")
    expect = invoke("anonymize", write_config(tmp_path / "a.yaml", data))
    assert expect.exit_code == 2 and "more than search.max_lattice_nodes (63)" in expect.stderr
    assert "max_level" in expect.stderr
    data["attributes"]["q0"]["max_level"] = 2
    assert invoke("anonymize", write_config(tmp_path / "b.yaml", data)).exit_code == 0


def test_memory_beyond_half_of_the_machine_is_refused_whatever_the_setting() -> None:
    budget = lattice_budget(["a", "b"], (999, 999), limit=10**12, memory=512 * 1024 * 1024)
    assert not budget.fits and "half of this machine's memory" in budget.message
    assert lattice_budget(["a", "b"], (99, 99), limit=10**12, memory=512 * 1024 * 1024).fits


@pytest.mark.parametrize(("levels", "limit", "fits"), [((9, 9), 100, True), ((9, 10), 100, False), ((0,), 1, True)])
def test_the_limit_is_inclusive(levels: tuple[int, ...], limit: int, fits: bool) -> None:
    assert lattice_budget([f"a{i}" for i in range(len(levels))], levels, limit=limit, memory=1 << 40).fits is fits
