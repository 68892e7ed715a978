"""The generalization method's node query tuning on PostgreSQL (``sqlanon/evaluation/tuning.py``): a node query's
cost here is mostly per row read and per aggregate, so the queries read narrow, small copies of the frequency
set and stop early."""

from __future__ import annotations

from ..evaluation.tuning import NodeQueryTuning
from .base import EngineAdapter
from .postgres import PostgresAdapter


class PostgresNodeQueryTuning(NodeQueryTuning):
    # sum(bigint) is NUMERIC here: CUP's lowest node queries took 490 ms with it, 210 ms with doubles.
    FLOAT_SUMS = True
    # One BIGINT key instead of up to a column per QI: CUP's k-anonymity node queries ~80 -> ~70 ms.
    PACKED_CLASS_KEY = True
    # Rows are stored whole, and the Loss weights make a frequency set's rows 2.5 times wider than its counts
    # and codes: CUP's k-anonymity node queries 29 -> 24 ms on the narrow copy (25 -> 10 MB).
    CODE_TABLE = True
    # Every aggregate costs per row here: the Loss weights looked up per suppressed code, not summed per row.
    CODE_WEIGHTS = True
    # A check's cost is per row here: sliced checks stop reading above the suppression limit.
    SLICED_CHECKS = True
    # A query costs per row here: rolled-up code tables have fewer.
    ROLLUPS = True
    # The code table's rows are stored in part order, so a part is a range of row positions: CUP's sliced
    # checks 438 -> 411 ms, and the table of ranges costs 13 ms where the index on the part cost 15.
    PART_RANGES = True
    # Off here: PREPARED_NODE_QUERIES (planning is a small share of a query), HASHED_COUNT_DISTINCT
    # (count(DISTINCT) sorts its input: ADULT DM*'s summary 17 -> 32 ms).

    def reads_part_ranges(self, adapter: EngineAdapter) -> bool:
        # TID range scans and min(tid) came with PostgreSQL 14; row positions in write order are the heap's
        # (a session may create its tables with another access method by default).
        assert isinstance(adapter, PostgresAdapter)
        version = adapter.server_version
        return (self.PART_RANGES and version is not None and version >= 140000
                and adapter.current_setting("default_table_access_method") == "heap")
