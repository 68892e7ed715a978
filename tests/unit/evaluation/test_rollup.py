"""Which code tables are rolled up, and which one a node reads (sqlanon/evaluation/rollup.py); the counts from
them are compared with the oracle in test_node_evaluation.py."""

from __future__ import annotations

import pytest

from sqlanon.evaluation import rollup
from sqlanon.evaluation.rollup import RolledUp

pytestmark = pytest.mark.spark


def test_the_qis_whose_level_1_merges_most_are_rolled_up() -> None:
    heights = [6, 4, 3, 2, 1]
    codes = [(100, 20, 5, 3, 2, 1), (31, 4, 2, 1), (12, 12, 1), (2, 1), (5,)]
    # QI 1 keeps 4 of 31 codes, QI 0 20 of 100; QI 2 merges nothing, QI 4 has no level 1; QI 3 keeps 1 of 2.
    assert rollup.candidates(heights, codes, rows=36_709, records=100_937) == [1, 0]


def test_nothing_is_rolled_up_in_small_tables_or_where_rows_are_single_records() -> None:
    heights, codes = [3, 3], [(10, 2, 1), (10, 5, 1)]
    assert rollup.candidates(heights, codes, rows=rollup.MIN_ROWS - 1, records=10**6) == []
    assert rollup.candidates(heights, codes, rows=63_433, records=63_441) == []  # CUP
    assert rollup.candidates(heights, codes, rows=rollup.MIN_ROWS, records=10**6) == [0, 1]
    assert rollup.candidates(heights, codes, rows=rollup.MAX_ROWS, records=10**7) == [0, 1]
    assert rollup.candidates(heights, codes, rows=rollup.MAX_ROWS + 1, records=10**7) == []  # 10 M rows


def test_a_node_reads_the_smallest_table_it_is_above() -> None:
    a, b = RolledUp("a", (1, 0, 0), 500), RolledUp("b", (0, 1, 0), 400)
    both = RolledUp("ab", (1, 1, 0), 100)
    tables = [a, b, both]
    assert rollup.serving((2, 3, 0), tables) is both
    assert rollup.serving((2, 0, 1), tables) is a
    assert rollup.serving((0, 1, 0), tables) is b
    assert rollup.serving((0, 0, 4), tables) is None
    assert rollup.serving((1, 1, 1), []) is None


def test_a_rolled_up_table_is_counted_as_it_is_made(engine) -> None:
    """create_counted returns the rows of the new table: on PostgreSQL the count its CREATE TABLE ... AS
    reports (one statement), on DuckDB and Spark counted after it (two)."""
    from sqlanon.engines import adapter_for_url

    engine.create_table("codes", {"cnt": "INTEGER", "q0_0": "INTEGER", "q0_1": "INTEGER", "q1_0": "INTEGER"},
                        [(1, 1, 1, 1), (2, 2, 1, 1), (1, 3, 2, 1), (4, 3, 2, 2)])
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        before = adapter.statements
        rows = adapter.create_counted("roll_up_codes.sql.j2", "rolled", source="codes", heights=[2, 1],
                                      levels=[1, 0])
        assert rows == 3  # (1, 1), (2, 1), (2, 2)
        assert adapter.statements - before == (1 if engine.name == "postgres" else 2)
        rolled = adapter.quote_identifier("rolled")
        assert sorted(adapter.execute(f"SELECT cnt, q0_1, q1_0 FROM {rolled}")) == [(1, 2, 1), (3, 1, 1), (4, 2, 2)]
    finally:
        adapter.close()
