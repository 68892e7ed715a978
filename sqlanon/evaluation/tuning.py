"""How the generalization method's node queries are shaped on one engine: which copies of the frequency set they
read, how they group, sum and run, and the session settings they run under.

Only the node evaluation reads a tuning (``evaluator.py``, ``frequency_set.py``, and the generalization method's
``preparation.py`` and ``method.py``, which build what the node queries read); engine adapters know nothing of it.
Each flag is a performance choice, never a change of result: every combination gives the same statistics
(``tests/unit/evaluation/test_node_evaluation.py`` draws them). The engine-specific tunings live beside their
adapters under ``sqlanon/engines/`` (the only place that knows engine names) and are found through the registry's
table of engines; an engine without one (a new adapter) gets this neutral tuning, correct everywhere: every flag
off, no settings.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from ..engines.base import EngineAdapter


class NodeQueryTuning:
    """The neutral tuning. The flags are class attributes that an engine's subclass sets; an instance is one
    adapter's (``tuning_for``), so a test may change a flag for one session."""

    #: Node queries sum counts and weights as doubles when that is provably exact (``macros/node_query.sql.j2``):
    #: faster where the exact integer sum is arbitrary-precision.
    FLOAT_SUMS: bool = False
    #: Node queries with privacy models run as one prepared statement whose levels are parameters
    #: (``EngineAdapter.execute_prepared``): worth it where parsing their long SQL is a large fixed share of a query.
    PREPARED_NODE_QUERIES: bool = False
    #: k-anonymity node queries group by one BIGINT packing the class's codes (``macros/packed.sql.j2``):
    #: faster where hashing several columns costs per column and row.
    PACKED_CLASS_KEY: bool = False
    #: k-anonymity node queries read a copy of the frequency set holding only counts and codes
    #: (``project_frequency_set.sql.j2``): faster where a scan reads whole rows, the Loss weights included.
    CODE_TABLE: bool = False
    #: The Loss weights query looks each suppressed code's weight up in a small table
    #: (``build_code_weights.sql.j2``) instead of summing a weight column per row: faster where every
    #: aggregate costs per row; an engine that sums columns cheaply may plan the joins at a cost.
    CODE_WEIGHTS: bool = False
    #: Feasibility checks read the code table part by part and stop above the suppression limit
    #: (``slicing.py``): where a check's cost is per row, not mostly fixed.
    SLICED_CHECKS: bool = False
    #: k-anonymity queries of nodes above level 0 of a QI or two read a copy of the code table rolled up to
    #: level 1 there (``rollup.py``): fewer rows, where a query costs per row.
    ROLLUPS: bool = False
    #: count(DISTINCT) hashes its input, so the summary counts each level's distinct codes directly; where it
    #: sorts the input of each one, they are counted over the code combinations of each QI instead
    #: (``summarize_frequency_set.sql.j2``).
    HASHED_COUNT_DISTINCT: bool = False
    #: A sliced check reads a part of the code table by its rows' range of positions (a range scan,
    #: ``create_part_ranges.sql.j2``, ``macros/parts.sql.j2``) instead of through an index on the part
    #: (``reads_part_ranges``).
    PART_RANGES: bool = False
    #: A search may check several independent nodes' k-anonymity in one statement, a grouping set each
    #: (``NodeEvaluator.prefetch``): where a small check's cost is mostly the statement's, not its rows'.
    BATCHED_CHECKS: bool = False

    def reads_part_ranges(self, adapter: EngineAdapter) -> bool:
        """Whether sliced checks read parts by their ranges of row positions (``PART_RANGES``) on this server."""
        return self.PART_RANGES

    @contextmanager
    def node_query_settings(self, adapter: EngineAdapter, rows: int | None, judged: bool) -> Iterator[None]:
        """Session settings for the search's many small node queries over frequency sets of ``rows`` rows (None:
        unknown), with privacy models or a population (``judged``) or k-only, restored afterwards (none here)."""
        yield


_TUNINGS: WeakKeyDictionary[EngineAdapter, NodeQueryTuning] = WeakKeyDictionary()


def tuning_for(adapter: EngineAdapter) -> NodeQueryTuning:
    """The node query tuning of ``adapter``: its engine's (``ENGINES`` in ``engines/registry.py``, found through
    the adapter's class or a class it derives from), else the neutral one. One instance per adapter, made at the
    first call and kept as long as the adapter is."""
    tuning = _TUNINGS.get(adapter)
    if tuning is None:
        from ..engines.registry import entry_for_class, load

        entry = entry_for_class(type(adapter))
        kind = load(entry.node_query_tuning) if entry is not None and entry.node_query_tuning else NodeQueryTuning
        tuning = _TUNINGS[adapter] = kind()
    return tuning
