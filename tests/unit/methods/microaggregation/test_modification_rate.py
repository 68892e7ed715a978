"""The modification rate of microaggregation (seed 002's measure on seed 004's release): a grouped record's value
is modified unless its group's mean (rounded as released) equals it, a NULL released as NULL is not, and a
suppressed record counts all its cells; against a plain-Python oracle (the groups of
``tests/oracle_microaggregation.py``'s MDAV) and the written table row by row, on DuckDB and PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from sqlanon.methods.microaggregation.method import MicroaggregationMethod
from tests.helpers import Engine
from tests.oracle_microaggregation import mdav, standardize
from tests.unit.methods.microaggregation.test_microaggregation import anonymize, config

Row = tuple[int, Any, Any]  # id, q0, q1

#: Three clusters MDAV cannot split otherwise (k = 3), a part NULL in q1 (a group of its own, released NULL) and a
#: part NULL in q0 of two records (fewer than k: suppressed).
ROWS: list[Row] = [
    (0, 0, 0.0), (1, 1, 1.0), (2, 2, 2.0),              # means (1, 1): record 1 is its group's mean in both
    (3, 100, 100.0), (4, 101, 103.0), (5, 102, 100.0),  # means (101, 101): record 4's q0 is kept
    (6, 200, 200.0), (7, 200, 201.0), (8, 200, 205.0),  # q0 constant: kept in all three; q1 mean 202
    (9, 300, None), (10, 301, None), (11, 302, None),   # q0 mean 301: record 10 kept; q1 stays NULL
    (12, None, 50.0), (13, None, 51.0),                 # suppressed: 2 cells each
]


def oracle(rows: Sequence[Row], k: int, places: Sequence[int | None] = (None, None)) -> dict[str, Any]:
    """Records, suppressed records and modified cells per quasi-identifier: each pattern of NULLs is a part, a
    part of fewer than k records is suppressed, the others grouped by MDAV on their standardized non-NULL
    columns, every value released as its group's mean (rounded to ``places``)."""
    parts: dict[tuple[bool, ...], list[Row]] = {}
    for row in rows:
        parts.setdefault(tuple(v is None for v in row[1:]), []).append(row)
    suppressed, modified = 0, [0, 0]
    for pattern, part in parts.items():
        if len(part) < k:
            suppressed += len(part)
            continue
        part = sorted(part, key=lambda r: tuple(v for v in r[1:] if v is not None))  # row ids follow the values
        columns = [j for j, null in enumerate(pattern) if not null]
        grouping = mdav(standardize([[float(r[1 + j]) for j in columns] for r in part]), k)
        assert not grouping.near_tie
        for group in grouping.groups:
            for j in columns:
                mean = sum(float(part[i][1 + j]) for i in group) / len(group)
                if places[j] is not None:
                    mean = round(mean, places[j])
                modified[j] += sum(1 for i in group if float(part[i][1 + j]) != mean)
    return {"records": len(rows), "suppressed": suppressed, "modified": modified}


def row_by_row(engine: Engine, table: str, rows: Sequence[Row]) -> Fraction:
    """The rate from the written rows matched by id: a missing row counts both cells, a written value each cell
    that differs from the original as a double (NULL against NULL: the same)."""
    out = {r[0]: r[1:] for r in engine.execute(f'SELECT id, q0, q1 FROM "{table}"')}
    modified = 0
    for row_id, *values in rows:
        if row_id not in out:
            modified += 2
            continue
        modified += sum(1 for v, w in zip(values, out[row_id], strict=True)
                        if (None if v is None else float(v)) != (None if w is None else float(w)))
    return Fraction(modified, 2 * len(rows))


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every measurement (the method's ``modification``, set by ``_measure``)."""
    seen: list[Any] = []
    original = MicroaggregationMethod._measure

    def spy(self: MicroaggregationMethod) -> None:
        original(self)
        seen.append(self.modification)

    monkeypatch.setattr(MicroaggregationMethod, "_measure", spy)
    return seen


def test_rate_against_the_oracle_with_suppressed_records_and_kept_means(engine: Engine, tmp_path: Path,
                                                                        measured: list[Any]) -> None:
    engine.create_table("m", {"id": "INTEGER", "q0": "INTEGER", "q1": "DOUBLE PRECISION"}, ROWS)
    result = anonymize(engine, tmp_path, config(engine.url, "m", ["q0", "q1"], 3,
                                                privacy={"suppression_limit": 2}))
    assert result.verified is True and result.suppressed_rows == 2
    expected = oracle(ROWS, 3)
    # By hand: q0 modified in 2 + 2 + 0 + 2 kept records, q1 in 2 + 3 + 3 + 0; the two suppressed add 2 each.
    assert expected == {"records": 14, "suppressed": 2, "modified": [6, 8]}
    [modification] = measured
    assert (modification.records, modification.suppressed) == (14, result.suppressed_rows)
    assert modification.modified == {"q0": 6, "q1": 8}
    assert result.metrics["modification_rate"] == pytest.approx(18 / 28)
    assert row_by_row(engine, "m_out", ROWS) == Fraction(18, 28)
    assert result.details["modification_rate_by_attribute"] == pytest.approx({"q0": 8 / 14, "q1": 10 / 14})


def test_basic_null_handling_leaves_the_null_records_out_of_the_cells(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("m", {"id": "INTEGER", "q0": "INTEGER", "q1": "DOUBLE PRECISION"}, ROWS)
    result = anonymize(engine, tmp_path, config(engine.url, "m", ["q0", "q1"], 3,
                                                privacy={"null_handling": "basic"}))
    complete = [r for r in ROWS if None not in r]
    expected = oracle(complete, 3)
    assert expected == {"records": 9, "suppressed": 0, "modified": [4, 8]}
    assert result.rows_considered == 9 and result.suppressed_rows == 0
    assert result.metrics["modification_rate"] == pytest.approx(12 / 18)
    assert row_by_row(engine, "m_out", complete) == Fraction(12, 18)


@pytest.mark.parametrize(("places", "modified"), [(None, 6), (0, 2)])
def test_a_rounded_mean_equal_to_a_member_keeps_its_value(engine: Engine, tmp_path: Path, places: int | None,
                                                          modified: int) -> None:
    """Groups with q0 {2, 2, 3} (mean 2.33) and {10, 11, 11} (10.67): every value differs from its group's mean,
    but rounded to whole numbers the released 2 and 11 are the values of four members. q1 (means 5/3 and 53, not
    rounded) is modified in every record."""
    rows = [(i, v, w) for i, (v, w) in enumerate([(2, 0.0), (2, 1.0), (3, 4.0), (10, 50.0), (11, 52.0), (11, 57.0)])]
    engine.create_table("r", {"id": "INTEGER", "q0": "INTEGER", "q1": "DOUBLE PRECISION"}, rows)
    data = config(engine.url, "r", ["q0", "q1"], 3)
    data["attributes"]["q0"]["round"] = places
    result = anonymize(engine, tmp_path, data)
    assert oracle(rows, 3, (places, None))["modified"] == [modified, 6]
    assert result.metrics["modification_rate"] == pytest.approx((modified + 6) / 12)
    assert result.details["modification_rate_by_attribute"] == pytest.approx({"q0": modified / 6, "q1": 1.0})
    assert row_by_row(engine, "r_out", rows) == Fraction(modified + 6, 12)
