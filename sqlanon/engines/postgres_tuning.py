"""The generalization method's node query tuning on PostgreSQL (``sqlanon/evaluation/tuning.py``): a node query's
cost here is mostly per row read and per aggregate, so the queries read narrow, small copies of the frequency
set and stop early."""

from __future__ import annotations

from ..evaluation.tuning import NodeQueryTuning
from .base import EngineAdapter
from .postgres import PostgresAdapter


class PostgresNodeQueryTuning(NodeQueryTuning):
    # sum(bigint) is NUMERIC here, much slower to add up than doubles.
    FLOAT_SUMS = True
    # One BIGINT key instead of up to a column per QI: hashing costs per column and row here.
    PACKED_CLASS_KEY = True
    # Rows are stored whole, and the Loss weights make a frequency set's rows 2.5 times wider than its counts
    # and codes: k-anonymity node queries read the narrow copy.
    CODE_TABLE = True
    # Every aggregate costs per row here: the Loss weights looked up per suppressed code, not summed per row.
    CODE_WEIGHTS = True
    # A check's cost is per row here: sliced checks stop reading above the suppression limit.
    SLICED_CHECKS = True
    # A query costs per row here: rolled-up code tables have fewer.
    ROLLUPS = True
    # The code table's rows are stored in part order, so a part is a range of row positions: a range scan
    # is cheaper than an index on the part, and so is building the table of ranges.
    PART_RANGES = True
    # Several checks in one statement, a grouping set each, share its scan and round trip: ADULT's checks eight
    # at a time cost 10 ms against 16.6 one by one; runs without suppression 5-25% faster (benchmarks/README.md).
    BATCHED_CHECKS = True
    # Off here: PREPARED_NODE_QUERIES (planning is a small share of a query), HASHED_COUNT_DISTINCT
    # (count(DISTINCT) sorts its input here).

    def reads_part_ranges(self, adapter: EngineAdapter) -> bool:
        # TID range scans and min(tid) came with PostgreSQL 14; row positions in write order are the heap's
        # (a session may create its tables with another access method by default).
        assert isinstance(adapter, PostgresAdapter)
        version = adapter.server_version
        return (self.PART_RANGES and version is not None and version >= 140000
                and adapter.current_setting("default_table_access_method") == "heap")
