"""The progress line: nodes evaluated, lattice size, best value, and the proven lower bound where the search
keeps one (top_down), as they improve."""

from __future__ import annotations

import pytest

import sqlanon
from sqlanon.console import Progress
from tests.strategies import Case, fresh

pytestmark = pytest.mark.spark


def test_the_line_shows_the_bound_once_the_search_has_one(capsys) -> None:
    progress = Progress()
    progress(3, 85_030_560, 0.9, 1.0)
    assert "nodes evaluated 3/85,030,560  best 0.9  1.0s" in capsys.readouterr().err
    progress.bound(0.125)
    progress(4, 85_030_560, 0.8, 2.0)
    assert "best 0.8  bound 0.125  2.0s" in capsys.readouterr().err
    progress(5, 10, None, 0.1)  # too early to show anything
    assert capsys.readouterr().err == ""


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[int, float | None]] = []
        self.bounds: list[float] = []

    def bound(self, value: float) -> None:
        self.bounds.append(value)

    def __call__(self, evaluated: int, size: int, best: float | None, elapsed: float) -> None:
        self.calls.append((evaluated, best))


def test_top_down_reports_its_bound_and_a_plain_callback_still_works(engine) -> None:
    rows = [{"qa": v, "qb": w, "note": None} for v, w in zip("aabbccddab", "xyxyxyxyyy", strict=True)]
    case = Case(qis=["qa", "qb"], hierarchies={"qa": {v: [p, "*"] for v, p in zip("abcd", "ppqq", strict=True)},
                                               "qb": {"x": ["*"], "y": ["*"]}},
                types={"qa": "VARCHAR", "qb": "VARCHAR"}, level_loss={"qa": None, "qb": None}, rows=rows, k=2,
                suppression_limit=0, null_handling="extended", priorities={"qa": 1.0, "qb": 1.0})
    table = fresh("src")
    case.create_table(engine, table)
    recorder = Recorder()
    result = sqlanon.anonymize(case.config(engine, table, strategy="top_down"), dry_run=True, progress=recorder)
    assert result.optimal is True and result.lower_bound == result.metrics["loss"]
    assert recorder.calls and recorder.bounds  # the bound is shown while the branch and bound runs
    assert all(b <= result.metrics["loss"] + 1e-12 for b in recorder.bounds)
    calls: list[int] = []
    sqlanon.anonymize(case.config(engine, table, strategy="top_down"), dry_run=True,
                      progress=lambda evaluated, size, best, elapsed: calls.append(evaluated))
    assert calls
