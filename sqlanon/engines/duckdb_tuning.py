"""The generalization method's node query tuning on DuckDB (``sqlanon/evaluation/tuning.py``): the flags that pay
off there, and the session settings its node queries run under."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..evaluation.tuning import NodeQueryTuning
from .base import EngineAdapter
from .duckdb import ROW_GROUP_ROWS, DuckDBAdapter, string_literal

#: Optimizer passes that a k-only node query (two aggregates over one table: no join, filter, window, order
#: or limit) gains nothing from but still pays for in every plan. Left on: the column pruning (the scan reads
#: only the grouped codes) and the statistics the perfect hash aggregate takes its code ranges from. Queries
#: with privacy models join and keep every pass (they were slower without them). Names this DuckDB does not
#: know are skipped.
K_ONLY_IDLE_OPTIMIZERS = (
    "expression_rewriter", "filter_pullup", "filter_pushdown", "empty_result_pullup", "cte_filter_pusher",
    "regex_range", "in_clause", "join_order", "deliminator", "unnest_rewriter", "common_subexpressions",
    "common_aggregate", "limit_pushdown", "row_group_pruner", "top_n", "top_n_window_elimination",
    "build_side_probe_side", "duplicate_groups", "reorder_filter", "sampling_pushdown", "join_filter_pushdown",
    "extension", "materialized_cte", "aggregate_function_rewriter", "late_materialization", "cte_inlining",
    "common_subplan", "join_elimination", "window_self_join", "projection_pullup", "outer_join_simplification",
    "window_rewriter", "partitioned_execution", "partial_aggregate_pushdown", "remote_pushdown", "grouping_sets",
    "type_pushdown", "scalar_fn_pushdown", "distinct_aggregate_rewrite", "aggregate_reuse", "projection_placement",
    "redundant_order_keys",
)


class DuckDBNodeQueryTuning(NodeQueryTuning):
    # Parsing a model node query's few KB of SQL is a large share of the query here; EXECUTE of a statement
    # prepared once skips that (it still binds and optimizes with the values). k-only queries are short to
    # parse and cheaper with their own plans (see evaluator).
    PREPARED_NODE_QUERIES = True
    # count(DISTINCT) hashes its input here, so counting each level's distinct codes directly is faster.
    HASHED_COUNT_DISTINCT = True
    # Off here: PACKED_CLASS_KEY (the perfect hash aggregate already uses the columns' small code ranges),
    # CODE_WEIGHTS (DuckDB sums columns cheaply and plans the joins at a cost), SLICED_CHECKS (a check is
    # mostly fixed cost), CODE_TABLE, ROLLUPS and FLOAT_SUMS (no faster here: benchmarks/README.md), and
    # BATCHED_CHECKS: on one thread a grouping set costs about what its own statement does (0.6 against
    # 0.63 ms a node on ADULT; a UNION ALL 0.52), and the cover checks more nodes in batches (47 -> 55).

    @contextmanager
    def node_query_settings(self, adapter: EngineAdapter, rows: int | None, judged: bool) -> Iterator[None]:
        """For the search's many small queries over frequency sets of ``rows`` rows (None: unknown):

        * without compressed materialization, which narrows the group keys of every hash aggregate and widens
          them back: on frequency sets of 10^4-10^5 rows the casts cost more than they save. The frequency
          set and the write-back keep it, as it saves memory on large tables;
        * when every query is k-only (not ``judged``), without the optimizer passes those never use
          (``K_ONLY_IDLE_OPTIMIZERS``);
        * on one thread when the frequency sets fit in one row group, which one thread scans anyway: waking
          the others for each query cost more than the rest of the aggregate shares.

        A user's own ``disabled_optimizers`` is kept and a ``threads`` setting in the URL is left alone; the
        session's settings are restored afterwards."""
        assert isinstance(adapter, DuckDBAdapter)
        optimizers, threads = adapter.current_settings("disabled_optimizers", "threads")
        value = adapter.disabling_optimizers(
            str(optimizers), ["compressed_materialization", *(() if judged else K_ONLY_IDLE_OPTIMIZERS)])
        changed = {"disabled_optimizers": value} if value else {}
        if rows is not None and rows <= ROW_GROUP_ROWS and "threads" not in adapter.settings and int(threads) > 1:
            changed["threads"] = "1"
        before = {"disabled_optimizers": string_literal(str(optimizers)), "threads": str(int(threads))}
        with adapter.changed_settings(changed, before):
            yield
