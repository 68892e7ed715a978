"""benchmarks/arx_benchmark.py's side of the ARX driver (../shared/arx-bench): the names it passes, how it reads the
answer and compares the optima, and its errors. No Java: the driver itself is replaced where a test needs it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import arx_benchmark as ab  # noqa: E402

ADULT = ab.DATASETS["adult"]


def row(levels: list[int], score: float, suppressed: int, arx: ab.ArxRun | None, engine: str = "duckdb") -> ab.Row:
    return ab.Row("adult", engine, 5, 0.05, "loss", times=[0.2, 0.3, 0.4], levels=levels, metric_value=score,
                  suppressed_rows=suppressed, arx=arx)


def test_the_driver_is_given_its_own_names_for_the_configuration() -> None:
    assert ab.arx_command(ADULT, 5, 0.05, "dm_star", "-", 10, 7)[1:] == [
        "adult8", "5", "0.05", "dm_star", "none", "10", "7"]
    assert ab.arx_command(ab.DATASETS["fars"], 10, 0.01, "loss", "equal0.2", 0, 1)[1:] == [
        "farsint", "10", "0.01", "loss", "equal0.2", "0", "1"]
    assert ab.ARX_BENCH == REPO.parent / "shared" / "arx-bench" / "arx-bench"


def test_what_the_driver_lacks_is_not_applicable_with_the_reason() -> None:
    assert ab.arx_unsupported(ADULT, "loss", "distinct3") is None
    assert ab.arx_unsupported(ab.DATASETS["ss13acs"], "loss", "-") == "n/a: the ARX driver has no SS13ACS setup"
    assert ab.arx_unsupported(ADULT, "loss", "entropy3") == "n/a: the ARX driver has no entropy3 model"
    na = ab.run_arx(ADULT, 5, 0.05, "loss", "hierarchical0.2", 1, 1)  # answered without starting the driver
    assert na.note == "n/a: the ARX driver has no hierarchical0.2 model" and na.median_ms is None
    cells = ab.cells(row([0] * 8, 0.1, 0, na))
    assert cells[ab.COLUMNS.index("ARX median ms")] == "n/a" and cells[ab.COLUMNS.index("x ARX")] == "-"
    assert cells[ab.COLUMNS.index("optimum vs ARX")] == na.note


def test_the_answer_is_read_in_the_dataset_qi_order_and_must_name_its_qis() -> None:
    levels = dict(zip(reversed(ADULT.qis), range(8), strict=True))
    arx = ab.parse_arx(ADULT, {"median_ms": 30.5, "runs_ms": [31.0, 30.5, 29.0], "levels": levels, "loss": 0.5,
                               "checked": 122, "suppressed": 0})
    assert arx.levels == [7, 6, 5, 4, 3, 2, 1, 0] and arx.checked == 122 and arx.median_ms == 30.5
    with pytest.raises(ValueError, match="not ADULT's"):
        ab.parse_arx(ADULT, {"median_ms": 1, "runs_ms": [1], "levels": {"age": 1}, "checked": 1})


def test_the_optima_are_compared_by_levels_suppressed_rows_and_score() -> None:
    arx = ab.ArxRun(times_ms=[100.0, 150.0], median_ms=125.0, checked=447, levels=[3, 2, 0, 1, 0, 0, 0, 1],
                    score=0.17012279194738156, suppressed=1346)
    same = row([3, 2, 0, 1, 0, 0, 0, 1], 0.17012279198666302, 1346, arx)  # ARX's doubles vs sqlanon's exact value
    assert ab.optimum_vs_arx(same) == "same"
    assert ab.optimum_vs_arx(row([3, 2, 0, 1, 0, 0, 1, 0], 0.17012279198666302, 1300, arx)) == (
        "tie: ARX levels 3,2,0,1,0,0,0,1; suppressed 1346")
    assert ab.optimum_vs_arx(row([3, 2, 0, 1, 0, 0, 0, 1], 0.2, 1346, arx)) == "DIFFERS: ARX score 0.170123"
    assert same.ratio == pytest.approx(300 / 125)
    cells = ab.cells(same)
    assert cells[ab.COLUMNS.index("ARX median ms"):ab.COLUMNS.index("x ARX") + 1] == [
        "125.0", "100.0", "150.0", "2", "447", "2.40x"]
    assert ab.optimum_vs_arx(row([0] * 8, 0.1, 0, None)) == "-"  # --no-arx


def test_the_geometric_mean_of_the_ratios_is_taken_per_engine() -> None:
    arx = ab.ArxRun(times_ms=[100.0], median_ms=100.0, levels=[0] * 8, score=0.1, suppressed=0)
    rows = [row([0] * 8, 0.1, 0, arx), row([0] * 8, 0.1, 0, ab.ArxRun(median_ms=400.0, times_ms=[400.0])),
            row([0] * 8, 0.1, 0, arx, engine="postgres"), row([0] * 8, 0.1, 0, ab.ArxRun(note="n/a: x"))]
    means = ab.ratio_means(rows)
    assert means == {("duckdb", "warm"): [pytest.approx(3.0), pytest.approx(0.75)],
                     ("postgres", "warm"): [pytest.approx(3.0)]}


@pytest.mark.parametrize("order", ab.ORDERS)
def test_arx_and_sqlanon_alternate_per_configuration(order: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    arx = ab.ArxRun(times_ms=[1.0], median_ms=1.0)

    def fake_arx(*args: object) -> ab.ArxRun:
        calls.append("arx")
        return arx

    def fake_sqlanon(runs: list[object], timed: int, warmup: int) -> list[ab.Row]:
        calls.append("sqlanon")
        return [ab.Row("adult", engine, 5, 0.05, "loss", times=[0.1]) for engine in ("duckdb", "postgres")]

    monkeypatch.setattr(ab, "run_arx", fake_arx)
    monkeypatch.setattr(ab, "run_interleaved", fake_sqlanon)
    monkeypatch.setattr(ab, "WarmRuns", lambda *args: None)
    args = argparse.Namespace(no_arx=False, order=order, cold=False, engines=["duckdb", "postgres"], runs=1,
                              warmup=0, history=False, arx_warmups=0, arx_runs=1)
    rows = ab.run_configuration(args, ADULT, 5, 0.05, "loss", "-", None, None)
    assert calls == (["arx", "sqlanon"] if order == "arx-first" else ["sqlanon", "arx"])
    assert [r.arx for r in rows] == [arx, arx]  # one ARX run per configuration, beside each engine's row

    calls.clear()
    args.no_arx = True
    assert [r.arx for r in ab.run_configuration(args, ADULT, 5, 0.05, "loss", "-", None, None)] == [None, None]
    assert calls == ["sqlanon"]


def test_a_missing_driver_or_java_is_an_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(ab, "ARX_BENCH", tmp_path / "arx-bench")
    assert f"ARX driver not found at {tmp_path / 'arx-bench'}" in (ab.missing_arx() or "")
    (tmp_path / "arx-bench").write_text("#!/bin/sh\n")
    (tmp_path / "arx-bench").chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert ab.missing_arx() == (f"java not found on PATH: {tmp_path / 'arx-bench'} needs Java 17 "
                                "(--no-arx runs sqlanon alone)")
    monkeypatch.setattr(ab, "missing_inputs", lambda datasets: None)
    assert ab.main(["--quick"]) == 2
    assert f"error: java not found on PATH: {tmp_path / 'arx-bench'}" in capsys.readouterr().err


def test_arx_options_default_to_ten_warmups_and_the_sqlanon_run_count() -> None:
    args = ab.parse_args(["--runs", "3"])
    assert (args.arx_warmups, args.arx_runs, args.order, args.no_arx) == (10, 3, "arx-first", False)
    assert ab.parse_args(["--arx-runs", "7", "--no-arx"]).arx_runs == 7
