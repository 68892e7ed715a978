"""Which slicing the code table gets (sqlanon/evaluation/slicing.py); the checks themselves are compared with the
oracle in test_node_evaluation.py."""

from __future__ import annotations

from sqlanon.evaluation import slicing


def test_candidates_slice_below_the_top_of_tall_hierarchies_with_the_most_codes_first() -> None:
    heights = [5, 2, 3, 6, 3]
    codes = [(80, 16, 8, 3, 1), (2, 1), (9, 4, 1), (900, 90, 9, 5, 10, 1), (7, 1, 1)]  # QI 4: one code below top
    radices = [81, 3, 10, 901, 8]
    # QI 1 has height 2; QI 4 a single code at level 1. QI 3 (10 codes) before QI 0 and QI 2 (3 and 4).
    assert slicing.candidates(heights, codes, radices) == ((3, 4), (2, 1), (0, 3))


def test_candidates_stop_where_the_packed_slice_key_would_overflow() -> None:
    heights = [3] * 6
    codes = [(100, 50, 1)] * 6
    radices = [2**20] * 6
    assert slicing.candidates(heights, codes, radices) == ((0, 1), (1, 1), (2, 1))  # 2^60 <= 2^62 < 2^80


def test_at_most_max_qis_candidates() -> None:
    assert len(slicing.candidates([4] * 7, [(9, 9, 9, 1)] * 7, [10] * 7)) == slicing.MAX_QIS


def test_the_shortest_even_prefix_is_chosen() -> None:
    pairs = ((4, 2), (0, 3), (2, 1))
    # Largest slice of each prefix: 60%, 20%, 10% of 1,000 rows; the second is even enough (<= 25%).
    assert slicing.choose_slicing(pairs, [600, 200, 100], 1000) == ((0, 3), (4, 2))
    assert slicing.choose_slicing(pairs, [250, 200, 100], 1000) == ((4, 2),)


def test_failing_that_the_most_even_prefix_if_it_is_even_enough() -> None:
    pairs = ((4, 2), (0, 3), (2, 1))
    assert slicing.choose_slicing(pairs, [600, 400, 450], 1000) == ((0, 3), (4, 2))
    assert slicing.choose_slicing(pairs, [900, 600, 510], 1000) == ()  # no part would be read alone
    assert slicing.choose_slicing((), [], 1000) == ()


def test_slicing_pays_on_large_tables_whose_bottom_suppresses_far_more_than_the_limit() -> None:
    rows = slicing.MIN_ROWS
    assert slicing.worth_slicing(rows, 63_441, 3_172)  # CUP k=5 5%: 20 times
    assert not slicing.worth_slicing(rows, 43_118, 5_046)  # FARS: 8.5 times
    assert not slicing.worth_slicing(rows - 1, 63_441, 3_172)
    assert slicing.worth_slicing(rows, 10, 0)  # 10 times the limit + 1
    assert not slicing.worth_slicing(rows, 9, 0)


def test_a_node_is_sliceable_at_or_below_every_slicing_level() -> None:
    assert slicing.sliceable((1, 0, 4), ((0, 1), (2, 4)))
    assert not slicing.sliceable((2, 0, 4), ((0, 1), (2, 4)))
    assert not slicing.sliceable((0, 0, 0), ())


def test_parts_are_read_by_row_positions_from_postgresql_14_on() -> None:
    """TID range scans and min(tid) came with PostgreSQL 14; an older server, or a session whose tables are not
    heap tables by default, reads parts through an index."""
    from types import SimpleNamespace

    from sqlanon.engines.duckdb import DuckDBAdapter
    from sqlanon.engines.postgres import PostgresAdapter
    from sqlanon.evaluation.tuning import tuning_for

    adapter = PostgresAdapter("postgresql://x", "postgresql://x")
    tuning = tuning_for(adapter)
    assert not tuning.reads_part_ranges(adapter)  # not connected
    method = ["heap"]
    adapter._execute = lambda sql, params: [(method[0],)]  # type: ignore[method-assign]
    for version, expected in ((130015, False), (140000, True), (180001, True)):
        adapter._con = SimpleNamespace(info=SimpleNamespace(server_version=version))
        assert tuning.reads_part_ranges(adapter) is expected, version
    method[0] = "columnar"  # tables of another access method: their row positions are not the heap's
    assert not tuning.reads_part_ranges(adapter)
    duckdb = DuckDBAdapter("duckdb:///:memory:", "duckdb:///:memory:")
    assert not tuning_for(duckdb).reads_part_ranges(duckdb)
