"""Evaluating lattice nodes in SQL; Python keeps only the per-node summary (NodeStats)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

from ..criteria.base import PrivacyCriterion
from ..engines.base import EngineAdapter
from ..lattice import Node
from .frequency_set import FrequencySet
from .rollup import serving
from .slicing import sliceable
from .tuning import tuning_for

_LEVEL_MARKER = "\x1fL{}\x1f"
_LEVEL_PATTERN = re.compile("\x1fL([0-9]+)\x1f")
#: Where a rendered k-anonymity query's class key goes (its ``grouping``), filled in per grouping.
_KEY_MARKER = "\x1fK\x1f"
#: A line of the template's comments: runs drop them, ``explain`` shows them.
_COMMENT_LINE = re.compile(r"^[ \t]*--.*\n", re.MULTILINE)
#: Largest frequency set whose model node queries run prepared with the levels as parameters: choosing a
#: level's column with CASE costs per row, the parsing it saves is per query.
PREPARED_MAX_ROWS = 1_000_000
#: Most arguments GROUPING takes on PostgreSQL, which numbers the grouping sets of a batch of checks.
GROUPING_ARGUMENTS = 31


#: An argument of GROUPING in a batch of checks: a packed class key (its (QI, level) pairs) or a column (one pair).
Argument = tuple[tuple[int, int], ...] | tuple[int, int]

#: Class statistics a node query may count besides the suppressed records, in the order of its columns.
CLASS_STATISTICS = ("classes", "suppressed_classes", "dm_star")


@dataclass(frozen=True)
class NodeStats:
    """Summary of one node's equivalence classes (before and after suppression). A feasibility check counts
    only what the metric reads (``class_statistics``); the others are then None."""

    node: Node
    classes: int | None
    suppressed_records: int
    suppressed_classes: int | None
    dm_star: int | None
    #: Per QI: sum of Loss weights over suppressed records (None when not requested).
    suppressed_weights: tuple[int, ...] | None
    #: Records that this node and every specialization of it suppress at least (in double precision): the
    #: classes below k, and with non-monotone models the share of each failing class that no split of it
    #: can save (``failing_share`` in criteria.sql.j2). Without models it is ``suppressed_records``.
    certain: float = 0.0
    #: A sliced check stopped once part of the frequency set suppressed more than the limit: the node is
    #: infeasible, and ``suppressed_records`` is a lower bound (above the limit) rather than the count.
    partial: bool = False


class NodeEvaluator:
    """Renders a node's query (``evaluate_node_*.sql.j2``, one template per shape: ``template``), runs it, and
    caches the summary."""

    def __init__(
        self, adapter: EngineAdapter, fset: FrequencySet, k: int, loss_weights: bool,
        criteria: Sequence[PrivacyCriterion] = (), float_sums: bool | None = None,
        class_statistics: Sequence[str] = CLASS_STATISTICS, max_suppressed: int | None = None,
    ) -> None:
        self.adapter = adapter
        self.tuning = tuning_for(adapter)
        self.fset = fset
        self.k = k
        self.loss_weights = loss_weights
        # k-anonymity is the class-size test every node query makes; the others render their macros.
        self.models = [c.context(i) for i, c in enumerate(criteria) if c.kind != "k_anonymity"]
        #: The query's judged form (models or a population): every class key kept, and a `certain` column.
        self.judged = bool(self.models or fset.population)
        # Doubles only where every sum is provably exact; ``float_sums`` overrides the engine's preference.
        prefer = self.tuning.FLOAT_SUMS if float_sums is None else float_sums
        self.float_sums = prefer and exact_in_double(fset)
        #: Model node queries as one prepared statement with the levels as bind parameters (the k-only
        #: query is faster with its own plan: DuckDB hashes its columns' small code ranges perfectly).
        self.prepared = self.judged and self.tuning.PREPARED_NODE_QUERIES and fset.distinct <= PREPARED_MAX_ROWS
        #: What a feasibility check counts besides the suppressed records (everything with models). Loss reads
        #: none of it, and each statistic left out makes its checks cheaper.
        self.class_statistics = CLASS_STATISTICS if self.judged else tuple(
            c for c in CLASS_STATISTICS if c in class_statistics)
        #: The table of each code's Loss weight, for the k-anonymity query's weights (models sum their own).
        self.code_weights = None if self.judged else fset.code_weights
        #: Feasibility checks in parts, stopping above the suppression limit (``slicing.py``): only where a
        #: check counts nothing but the suppressed records, as a part's classes give no other count whole.
        self.max_suppressed = max_suppressed
        sliceable_checks = max_suppressed is not None and not self.judged and not self.class_statistics
        self.slicing = fset.slicing if sliceable_checks else ()
        self.cache: dict[Node, NodeStats] = {}
        #: Rendered query shapes: the text with the template's comments, without them, and the bind parameters;
        #: and the class keys of k-anonymity queries per grouping (``_class_key``).
        self._shapes: dict[tuple[bool, str, bool, tuple[int | None, ...] | None], tuple[str, str, list[object]]] = {}
        self._keys: dict[tuple[bool, ...], str] = {}
        self._markers = tuple(_LEVEL_MARKER.format(i) for i in range(len(fset.single_code)))
        #: Feasibility checks run ahead by ``prefetch``, taken by ``evaluate`` as it asks for them.
        self._prefetched: dict[Node, NodeStats] = {}
        self.evaluated = 0

    def context(self, node: Sequence[int | str], loss_weights: bool,
                grouped: Sequence[bool] | None = None, generic: bool = False, sliced: bool = False,
                table: str | None = None, grouping: str | None = None,
                fixed: Sequence[int | None] | None = None) -> dict[str, Any]:
        """Template context for a node (or for level markers, see ``sql``). ``generic``: the levels become bind
        parameters choosing among every level's column (a frequency set with all of them). A query with the
        Loss weights counts every class statistic; a feasibility check only ``class_statistics``. ``table``:
        the table read (``_table``), by default the code table where the query reads no more. ``grouping``:
        the k-anonymity query's class key as SQL, where the caller renders it apart (``_query``). ``fixed``: per
        QI, its Loss weight at the node's level where the frequency set stores no column for it (``_fixed``; by
        default read from the levels, which must then be numbers)."""
        by_code = loss_weights and self.code_weights is not None
        if table is None:  # a whole-table statement outside the search (the write's failing classes): read it ready
            table = self._whole_table(loss_weights)
            self._ready(table)
        return {
            "table": table,
            "levels": list(node),
            "grouped": list(grouped) if grouped is not None else [True] * len(node),
            "k": self.k,
            "loss_weights": loss_weights,
            "criteria": self.models,
            "sensitive": list(self.fset.sensitive),
            "population": self.fset.population,
            "n": self.fset.records,
            "float_sums": self.float_sums,
            "level_heights": [len(levels) for levels in self.fset.single_code] if generic else None,
            "radices": self._radices(grouped) if grouped is not None else None,
            "counted": list(self._counted(loss_weights)),
            "code_weights": self.code_weights if by_code else None,
            "sliced": {"parts": self.fset.parts, "limit": self.max_suppressed, "ranges": self.fset.part_ranges}
            if sliced else None,
            "grouping": grouping,
            "fixed": fixed if fixed is not None or not loss_weights or generic else self._fixed(node),
            "fixed_weights": [list(f) for f in self.fset.fixed_weights] if generic and loss_weights else None,
        }

    def _fixed(self, node: Sequence[int | str]) -> tuple[int | None, ...] | None:
        """Per QI, its Loss weight at the node's level where every row has it and the frequency set stores no
        column for it (``FrequencySet.fixed_weights``); None where every level's column is stored."""
        if not self.fset.fixed_weights:
            return None
        return tuple(self.fset.fixed_weight(i, int(level)) for i, level in enumerate(node))

    def template(self, loss_weights: bool, sliced: bool = False) -> str:
        """The template of the node query's shape: the judged query where models or a population judge the
        classes, else a k-anonymity query, in parts where ``sliced``, with the Loss weights looked up per code
        where there is a code weights table."""
        if self.judged:
            return "evaluate_node_judged.sql.j2"
        if loss_weights and self.code_weights is not None:
            return "evaluate_node_code_weights.sql.j2"
        if sliced:
            return "evaluate_node_sliced.sql.j2"
        return "evaluate_node_k_anonymity.sql.j2"

    def _counted(self, loss_weights: bool) -> tuple[str, ...]:
        return CLASS_STATISTICS if loss_weights else self.class_statistics

    def _radices(self, grouped: Sequence[bool]) -> list[int] | None:
        """Digits of the packed class key (``PACKED_CLASS_KEY``): per QI one more than its largest code, so that
        the key is unique per class; None, grouping by the columns, when the key could exceed a BIGINT. A
        population's frequency set is grouped by the same key but may hold larger codes, so it keeps the
        columns; so do prepared queries, whose levels are parameters."""
        if (not self.tuning.PACKED_CLASS_KEY or self.fset.population or self.prepared
                or len(self.fset.max_codes) != len(grouped)):
            return None
        radices = [code + 1 for code in self.fset.max_codes]
        return radices if prod(r for r, g in zip(radices, grouped, strict=True) if g) <= 2**63 else None

    def sql(self, node: Node, loss_weights: bool | None = None, comments: bool = True) -> tuple[str, list[object]]:
        """The node's query and bind parameters; without the template's comments (``comments=False``) as runs
        send it: parsing the comment lines is a measurable share of a small k-only query on DuckDB."""
        weights = self.loss_weights if loss_weights is None else loss_weights
        return self._query(node, weights, comments, *self._table(node, weights))

    def _query(self, node: Node, weights: bool, comments: bool, table: str, sliced: bool) -> tuple[str, list[object]]:
        """``sql`` for a node reading ``table``, in parts where ``sliced`` (``_table``)."""
        # Weights looked up per code need every QI's code in the class key.
        grouped = (True,) * len(node) if weights and self.code_weights is not None else self._grouped(node)
        markers = self._markers
        # A query with the Loss weights computes those of the levels stored without a column: one shape per set.
        fixed = self._fixed(node) if weights and not self.prepared else None
        shape = self._shapes.get((weights, table, sliced, fixed))
        if shape is None:
            # Nodes differ only in the level suffixes of column names and in the QIs their k-anonymity query
            # groups by, so Jinja renders the query once per shape (a marker per QI, and one for the class
            # key) and the class key once per grouping (``_class_key``); each node substitutes its levels.
            # Rendering per node cost a tenth of a node query on DuckDB.
            rendered, values = self.adapter.render(
                self.template(weights, sliced),
                **self.context(markers, weights, grouped, generic=self.prepared, sliced=sliced, table=table,
                               grouping=None if self.judged else _KEY_MARKER, fixed=fixed),
            )
            shape = self._shapes[weights, table, sliced, fixed] = (rendered, _COMMENT_LINE.sub("", rendered), values)
        text, params = shape[0 if comments else 1], shape[2]
        if not self.judged:
            text = text.replace(_KEY_MARKER, self._class_key(markers, grouped))
        if self.prepared:  # the levels are bind parameters (marker values), the text is the same for all nodes
            return text, [node[int(m.group(1))] if isinstance(v, str) and (m := _LEVEL_PATTERN.fullmatch(v))
                          else v for v in params]
        return _LEVEL_PATTERN.sub(lambda m: str(node[int(m.group(1))]), text), list(params)

    def _class_key(self, markers: tuple[str, ...], grouped: tuple[bool, ...]) -> str:
        """The k-anonymity query's class key for this grouping (``class_key`` in ``macros/packed.sql.j2``),
        with level markers; rendered once per grouping."""
        key = self._keys.get(grouped)
        if key is None:
            key = self._keys[grouped] = self.adapter.render_macro(
                "macros/packed.sql.j2", "class_key", list(markers), list(grouped), self._radices(grouped))
        return key

    def _ready(self, table: str) -> None:
        """Make the code table if ``table`` is it and it is still pending (made at its first use)."""
        if table == self.fset.codes_table and self.fset.codes_pending is not None:
            self.fset.codes_pending.make(self.adapter, table)

    def _whole_table(self, weights: bool) -> str:
        """The table a query reads whole: the frequency set for Loss weights summed per row (always with models
        or a population), else the code table where there is one (with the sensitive value codes)."""
        fset = self.fset
        if fset.codes_table is None or (weights and (self.judged or self.code_weights is None)):
            return fset.table
        return fset.codes_table

    def _table(self, node: Node, weights: bool) -> tuple[str, bool]:
        """The table a node's query reads, and whether in parts (``slicing.py``): the smallest rolled-up code
        table the node is at or above (``rollup.py``), else ``_whole_table``, the code table in parts where the
        node is sliceable."""
        table = self._whole_table(weights)
        if table != self.fset.codes_table:
            return table, False
        rolled = serving(node, self.fset.rollups)
        if rolled is not None:
            return rolled.table, False
        return table, not weights and sliceable(node, self.slicing)

    def _grouped(self, node: Node) -> tuple[bool, ...]:
        """Which QIs the node's classes are grouped by: a level with a single code in the data (a top
        level, say) splits no class, and each grouping column costs PostgreSQL per row of a node query.
        Only the k-anonymity query leaves columns out (the privacy models join classes on every key).
        When every level is constant all columns stay: a GROUP BY needs one, and it gives the single class
        (or none, for an empty frequency set, where no level has a single code anyway)."""
        if self.judged:
            return (True,) * len(node)
        grouped = tuple(not self.fset.single_code[i][level] for i, level in enumerate(node))
        return grouped if any(grouped) else (True,) * len(node)

    def evaluate(self, node: Node, for_metric: bool = True) -> NodeStats:
        """Class statistics of a node. A pure feasibility check (``for_metric=False``) skips the Loss
        weight sums, which roughly halve the query's speed; they are fetched when a value is needed."""
        cached = self.cache.get(node)
        weights = self.loss_weights and for_metric
        if cached is not None and (cached.suppressed_weights is not None or not weights):
            return cached
        ahead = self._prefetched.pop(node, None)  # counted when it ran
        if cached is None and ahead is not None and not weights:
            self.cache[node] = ahead
            return ahead
        if cached is None and ahead is None:
            self.evaluated += 1
        stats = self._run(node, weights)
        self.cache[node] = stats
        return stats

    @property
    def batches_checks(self) -> bool:
        """Whether ``prefetch`` runs checks together: k-anonymity checks where the engine's tuning batches them."""
        return self.tuning.BATCHED_CHECKS and not self.judged

    def prefetch(self, nodes: Sequence[Node]) -> None:
        """Run the feasibility checks of those of ``nodes`` not checked yet together, one statement per table
        they read (``evaluate_nodes_k_anonymity.sql.j2``), where their checks are k-anonymity queries read whole
        and the engine's tuning batches them (``BATCHED_CHECKS``); ``evaluate`` then takes each summary as its
        check. Nodes whose checks take another shape, or that are alone on their table, are left to
        ``evaluate``."""
        if not self.batches_checks:
            return
        by_table: dict[str, list[Node]] = {}
        for node in dict.fromkeys(nodes):
            if node in self.cache or node in self._prefetched:
                continue
            table, sliced = self._table(node, False)
            if not sliced:
                by_table.setdefault(table, []).append(node)
        for table, batch in by_table.items():
            while len(batch) > 1:
                taken = self._prefetch_batch(table, batch)
                batch = batch[taken:]

    def _prefetch_batch(self, table: str, nodes: list[Node]) -> int:
        """Check a prefix of ``nodes`` on ``table`` in one statement; returns how many it took: all, or as many
        as keep the arguments GROUPING numbers the sets by within ``GROUPING_ARGUMENTS``."""
        # A grouping set per class key, the node's (QI, level) pairs (a level with one code groups nothing, so
        # nodes may share one). GROUPING's arguments: a packed key's own expression, or an unpacked key's
        # columns, each once.
        sets: dict[tuple[tuple[int, int], ...], tuple[list[Node], list[Argument]]] = {}
        arguments: dict[Argument, None] = {}
        taken = 0
        for node in nodes:
            grouped = self._grouped(node)
            pairs = tuple((i, level) for i, (level, kept) in enumerate(zip(node, grouped, strict=True)) if kept)
            parts: list[Argument] = [pairs] if self._radices(grouped) else list(pairs)
            if sets and pairs not in sets and len(arguments.keys() | set(parts)) > GROUPING_ARGUMENTS:
                break
            sets.setdefault(pairs, ([], parts))[0].append(node)
            arguments.update(dict.fromkeys(parts))
            taken += 1
        if len(sets) < 2 or len(arguments) > GROUPING_ARGUMENTS:  # the usual shape (cheaper for one key)
            return taken
        order = list(arguments)
        width = len(nodes[0])
        self._ready(table)
        sql, params = self.adapter.render(
            "evaluate_nodes_k_anonymity.sql.j2", **self.context(nodes[0], False, table=table),
            groupings=[self._grouping(pairs, width) for pairs in sets],
            grouped_by=[self._grouping(a, width) if isinstance(a[0], tuple) else {"column": list(a)} for a in order])
        rows = {int(row[0]): row[1:] for row in self.adapter.execute(sql, params)}
        empty = (None,) * (1 + len(self.class_statistics))
        for members, parts in sets.values():
            # GROUPING's bits, its first argument the highest: 1 for each argument the set does not group by
            number = sum(1 << (len(order) - 1 - i) for i, a in enumerate(order) if a not in parts)
            for node in members:
                self._prefetched[node] = self.stats_from_row(node, rows.get(number, empty), False)
        self.evaluated += taken
        return taken

    def _grouping(self, pairs: tuple[tuple[int, int], ...], width: int) -> dict[str, Any]:
        """A class key for ``class_key`` in ``macros/packed.sql.j2``: levels, grouped, radices (None: columns)."""
        levels = dict(pairs)
        grouped = [i in levels for i in range(width)]
        return {"levels": [levels.get(i, 0) for i in range(width)], "grouped": grouped,
                "radices": self._radices(grouped)}

    def evaluate_full(self, node: Node) -> NodeStats:
        """All aggregates for the chosen node (the report gives every metric)."""
        cached = self.cache.get(node)
        if cached is not None and cached.suppressed_weights is not None:
            return cached
        return self._run(node, True)

    def _run(self, node: Node, weights: bool) -> NodeStats:
        """The node's query run on the engine, uncached (the name tests and benchmarks/profile_run.py hook)."""
        table, sliced = self._table(node, weights)
        self._ready(table)
        sql, params = self._query(node, weights, False, table, sliced)
        row = (self.adapter.execute_prepared if self.prepared else self.adapter.execute)(sql, params)[0]
        if sliced:
            suppressed, parts_read = int(row[0]), int(row[1])
            return NodeStats(node=node, classes=None, suppressed_records=suppressed, suppressed_classes=None,
                             dm_star=None, suppressed_weights=None, certain=float(suppressed),
                             partial=parts_read < self.fset.parts)
        return self.stats_from_row(node, row, weights)

    def stats_from_row(self, node: Node, row: Sequence[Any], weights: bool) -> NodeStats:
        """The summary in a row of the node query (``template(weights)``) rendered with ``context(node, weights)``."""
        counted = self._counted(weights)
        counts = {name: int(row[i] or 0) for i, name in enumerate(counted, start=1)}
        rest = row[1 + len(counted):]
        return NodeStats(
            node=node,
            classes=counts.get("classes"),
            suppressed_records=int(row[0] or 0),  # NULL: no class suppressed
            suppressed_classes=counts.get("suppressed_classes"),
            dm_star=counts.get("dm_star"),
            suppressed_weights=tuple(int(v or 0) for v in rest[1 if self.judged else 0:]) if weights else None,
            certain=float(rest[0]) if self.judged else float(row[0] or 0),
        )


def exact_in_double(fset: FrequencySet) -> bool:
    """Every sum a node query computes is an integer of at most N^2 (sum of squared class sizes) or of the
    total Loss weight of a level (``weight_sums``), and every partial sum is smaller: below 2^53 all of them
    are exactly representable as doubles, so adding them in any order is exact."""
    limit = 2**53
    return fset.records**2 < limit and all(total < limit for level in fset.weight_sums for total in level)
