"""One cut evaluated in the database (seed 003, Algorithms 1-3 as the spec corrects them; spec 003.6).

A cut is given by its expanded DGH nodes ``E`` (closed under ancestors, 0 always in it): its nodes are the
children of expanded nodes that are not expanded themselves. Evaluating it projects every record's paths
through it, checks k^m on the labels (ValueCheck, every size up to m), then disassociates relations while some
combination of up to m labels and 1..n relations has a support between 1 and k-1 (FixStructure), and measures
the result; a specialization needing no disassociation is measured from its parent's losses kept in parts and
the records it changes (``_measure_delta``), without projecting every tree. The tables of the cut evaluated last
are kept under fixed names; ``keep`` copies them as the best.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from .forest import Forest, T

if TYPE_CHECKING:
    from ...session import Session


#: The most violating relations one round of FixStructure reads (``CutEvaluator._round``).
RULES_PER_ROUND = 1000

#: The fewest specializations of a cut, needing no disassociation, for which the cut's losses are kept in parts
#: (``CutEvaluator._keep_parts``) and each is measured on the records it changes: keeping them costs about one
#: measure over every record.
DELTA_FROM = 2

#: The fewest records for which specializations are measured from their parent's parts: the statements of a
#: small forest cost their planning more than their rows, and the parts take more of them (TPC-H, OnlyCutSearch,
#: side by side: 9 % slower at 1,500 customers, even at 15,000, 11 % faster at 150,000; benchmarks/README.md).
DELTA_RECORDS = 50_000

#: FixStructure works on the distinct trees (``CutEvaluator.project``) unless the cut is known to have at least
#: this share of the records' count of them: grouping costs three statements over every record, and at the fine
#: cuts a search spends most of its time on, nearly every record with orders has a tree of its own (TPC-H at
#: scale factor 1, GreedyCutSearch's first 150 cuts, side by side: 13 % faster without it; benchmarks/README.md).
#: A cut never has fewer distinct trees than a coarser cut (a record's tree under that one is a function of its
#: tree under this one), so the count of a cut grouped is a lower bound for every cut that refines it.
GROUP_SHARE = 0.5

#: The most paths a record may have for the changed-records check to mark the paths each label is on as the bits
#: of a BIGINT (``create_tree_labels.sql.j2``'s ``path_bits``); beyond them it looks labels up in arrays.
PATH_BITS = 63


@dataclass(frozen=True)
class Evaluation:
    """A cut that passed: its disassociations (a, b node ids, in order) and losses."""

    expanded: frozenset[int]
    rules: tuple[tuple[int, int], ...]
    rpd: float
    rpd_a: float


def masks(m: int, n: int) -> dict[int, list[int]]:
    """Per combination size s (2..m): the relation sets of 1..n pairs among its C(s, 2) pairs, as bitmasks.

    >>> masks(3, 1)
    {2: [1], 3: [1, 2, 4]}
    >>> len(masks(3, 2)[3])
    6
    """
    out = {}
    for s in range(2, m + 1):
        pairs = s * (s - 1) // 2
        out[s] = sorted(sum(1 << b for b in chosen) for size in range(1, min(n, pairs) + 1)
                        for chosen in combinations(range(pairs), size))
    return out


class CutEvaluator:
    """Evaluates cuts of one forest for one (k, m, n) on the session's connection."""

    def __init__(self, session: Session, forest: Forest, k: int, m: int, n: int, structure: bool) -> None:
        self.session, self.adapter, self.forest = session, session.adapter, forest
        first = len(session.temporary)
        self.k, self.m, self.n = k, m, n
        #: False (OnlyCutSearch): a cut needing a disassociation fails instead.
        self.structure = structure
        self.masks = masks(m, n)
        scratch = session.scratch
        self.map, self.items, self.records = scratch("rmap"), scratch("ritems"), scratch("rpc")
        self.members, self.weights = scratch("rmembers"), scratch("rweights")
        self.tree_items, self.relations = scratch("rtitems"), scratch("rrel")
        #: The records holding a specialized node, with their trees, labels and relations under the specialization.
        self.fresh = [scratch("rfrec"), scratch("rfpaths"), scratch("rfitems")]
        self.trees = [scratch("rtrees0"), scratch("rholders"), scratch("rsd")]
        self.scratch_merged, self.scratch_added = scratch("rmerged"), scratch("radded")
        self.scratch_labels = scratch("rrelabel")
        #: FixStructure's check (structure_check.sql.j2): held combinations, violations, a round's delta and
        #: the combinations it touched.
        self.check_tables = [scratch("rheld"), scratch("rviol"), scratch("rdelta"), scratch("raffected")]
        self.best = scratch("rbest")
        #: The trees of the cut evaluated last (None: measured from its parent's parts and not projected; its
        #: expanded nodes are ``self.current_cut``).
        self.current: str | None = None
        self.current_cut: frozenset[int] | None = None
        #: A cut's losses in parts (``rpd_state.sql.j2``): each record's RPD and the synopsis's nodes; the cut
        #: they are of and their totals; the trees, under a specialization, of the records it changes.
        self.parts = [scratch("rprec"), scratch("rppre")]
        self.parts_cut: frozenset[int] | None = None
        self.parts_totals: tuple[float, int, int, int, float] = (0.0, 0, 0, 0, 0.0)
        self.delta = scratch("rdpaths")
        #: The cut whose specializations needing no disassociation are measured from its parts, when enough of
        #: them are (DELTA_FROM; set by ``specializations``).
        self.delta_parent: frozenset[int] | None = None
        #: The cut whose labels ``self.items`` holds, and the cut whose map ``self.map`` holds.
        self.items_cut: frozenset[int] | None = None
        self.map_cut: frozenset[int] | None = None
        #: The inner nodes that a cut passing the value check may expand: every child is held by k records or
        #: more (``count_child_supports.sql.j2``). Expanding any other fails the check on a single label, so
        #: ``specializations`` fails it without a query and ``bound`` counts no level below it.
        self.expandable = {int(g) for g, fewest in session.adapter.run(
            T + "count_child_supports.sql.j2", leaf_items=forest.leaf_items, ancestors=forest.ancestors,
            dgh=forest.dgh) if int(g) in forest.nodes and int(fewest) >= k}
        #: The inner nodes with a level below them, reachable through expandable nodes, wider than their own
        #: (|C(u)|), and that widest level's width: what ``bound`` counts for such a node while it is open.
        self.widened: dict[int, int] = {}
        width: dict[tuple[int, int], int] = {}
        for node in forest.nodes.values():
            width[(node.cls, node.lvl)] = width.get((node.cls, node.lvl), 0) + 1
        widest: dict[int, int] = {}
        for g in sorted(forest.nodes, key=lambda g: forest.nodes[g].lvl):  # children before their parents
            node = forest.nodes[g]
            reach = width[(node.cls, node.lvl)]
            if g in self.expandable:
                below = forest.inner_children.get(g, [])
                reach = max([reach] + [widest[c] for c in below])
                if node.children > len(below):  # it has values as children
                    reach = max(reach, forest.domain[node.cls])
            widest[g] = reach
            if reach > width[(node.cls, node.lvl)]:
                self.widened[g] = reach
        #: Each record's value nodes with the source paths they are on, as bits (``create_holder_labels``):
        #: where no record has more than PATH_BITS paths, a specialization's checks read its changed records'
        #: labels from it, without projecting their trees.
        self.leaf_paths: str | None = None
        if forest.max_paths <= PATH_BITS and m >= 2:
            self.leaf_paths = scratch("rlpaths")
            self.adapter.run(T + "create_tree_labels.sql.j2", table=self.leaf_paths, paths=forest.paths,
                             depth=forest.depth, fresh=None, path_bits=True)
        #: Whether FixStructure's labels carry the leaf paths of their tree they are on as the bits of a BIGINT
        #: (``create_tree_labels.sql.j2``'s ``path_bits``), so that its check relates two labels by a bitwise AND
        #: instead of an array search: where no record's source paths have more than PATH_BITS nodes together,
        #: no tree of a record has more leaves, under any cut or disassociation (docs/related_tables.md).
        self.tree_bits = 0 < forest.max_nodes <= PATH_BITS
        #: Whether each specialization ``specializations`` checked for structure has a structural violation, for
        #: ``evaluate`` to read (none is asked of a parent with disassociations).
        self.violations: dict[frozenset[int], bool] = {}
        #: The cuts whose trees were grouped, with their counts of distinct trees (GROUP_SHARE).
        self.distinct: dict[frozenset[int], int] = {}
        #: Every scratch table named above (``close`` drops them).
        self.tables = session.temporary[first:]

    def _drop(self, *tables: str) -> None:
        self.adapter.drop_tables(list(tables))

    def _map(self, expanded: frozenset[int]) -> None:
        """The cut's map of every value to its node in the cut."""
        if self.map_cut == expanded:
            return
        forest = self.forest
        self._drop(self.map)
        self.map_cut = None
        self.adapter.run(T + "create_cut_map.sql.j2", table=self.map, ancestors=forest.ancestors, dgh=forest.dgh,
                         expanded=sorted(expanded))
        self.map_cut = expanded

    def _items(self, expanded: frozenset[int]) -> None:
        """The cut's map and each record's labels under it (what the value checks read)."""
        self._map(expanded)
        self._drop(self.items)
        self.adapter.run(T + "create_items.sql.j2", table=self.items, leaf_items=self.forest.leaf_items,
                         map=self.map)
        self.items_cut = expanded

    def project(self, grouped: bool = True) -> str:
        """The records' trees under the cut of ``self.map``, before any disassociation: with ``grouped``, as
        distinct trees (``self.members``: which tree each record has; ``self.weights``: how many records each
        stands for), what FixStructure reads at coarse cuts (GROUP_SHARE); else each record's own
        (``self.records``), which the losses, ``keep`` and FixStructure at fine cuts read as they are."""
        adapter, out = self.adapter, self.trees[0]
        self._drop(self.records, self.members, self.weights, out)
        adapter.run(T + "project_paths.sql.j2", table=self.records, paths=self.forest.paths, map=self.map,
                    depth=self.forest.depth, uneven=self.forest.uneven)
        if not grouped:
            return self.records
        adapter.run(T + "group_trees.sql.j2", table=self.members, what="members", paths=self.records)
        adapter.run(T + "group_trees.sql.j2", table=out, what="trees", paths=self.records, members=self.members)
        adapter.run(T + "group_trees.sql.j2", table=self.weights, what="weights", members=self.members)
        return out

    def value_check(self, fresh: int | None) -> bool:
        """k^m of the labels in ``self.items``; with ``fresh`` (an expandable node), of the specialization that
        replaces that node of the cut by its children (only combinations holding one of them can fail: the cut
        itself passed; and no single child fails, as every child k records or more hold)."""
        forest = self.forest
        for size in range(1 if fresh is None else 2, self.m + 1):
            if self.adapter.run(T + "find_value_violation.sql.j2", items=self.items, leaf_items=forest.leaf_items,
                                ancestors=forest.ancestors, dgh=forest.dgh, size=size, k=self.k, fresh=fresh):
                return False
        return True

    def specializations(self, parent: Evaluation, nodes: list[int]) -> list[int]:
        """Of the cut's nodes ``nodes``, those whose expansion passes the value check (the cut, ``parent``,
        passed it). Where the changed records' labels can be read with their paths (``leaf_paths``), each
        specialization is checked once on them for both its values and, when the parent needed no
        disassociation, its structure (``check_fresh``); ``evaluate`` reads the structure's answer."""
        self.violations = {}
        self.delta_parent = None
        nodes = [g for g in nodes if g in self.expandable]
        if not nodes or self.m < 2:  # with m = 1 only single labels are checked, and none of these fails
            self._measure_from(parent, len(nodes))
            return nodes
        self._items(parent.expanded)
        if self.leaf_paths is None:
            passing = [g for g in nodes if self.value_check(g)]
            if self.n == 0:
                self._measure_from(parent, len(passing))
            return passing
        structure = not parent.rules and self.n > 0
        passing = []
        for g in nodes:
            values, violation = self.check_fresh(parent.expanded, g, structure)
            if values:
                passing.append(g)
                if structure:
                    self.violations[parent.expanded | {g}] = violation
        if self.n == 0 or structure:
            self._measure_from(parent, sum(1 for g in passing if not self.violations.get(parent.expanded | {g})))
        return passing

    def _measure_from(self, parent: Evaluation, clean: int) -> None:
        """Measure the ``clean`` specializations of ``parent`` that need no disassociation from its parts, when
        there are enough of them (DELTA_FROM) in a forest large enough (DELTA_RECORDS)."""
        large = self.forest.records >= DELTA_RECORDS
        self.delta_parent = parent.expanded if large and clean >= DELTA_FROM else None

    def check_fresh(self, parent: frozenset[int], node: int, structure: bool) -> tuple[bool, bool]:
        """The specialization of ``parent`` at ``node`` checked on the records holding ``node`` (the only ones it
        changes), whose labels under it ``create_holder_labels`` reads from the source's value nodes: whether it
        passes the value check, and (with ``structure``; the parent passed without a disassociation) whether it
        has a structural violation. Each size from 2 to m is one statement for both checks (the value check's
        combinations are those with no relation, mask 0); once a structural violation is found, only the value
        check is asked of the larger sizes."""
        assert self.leaf_paths is not None
        if self.items_cut != parent:
            self._items(parent)
        self._map(parent | {node})
        labels = self.fresh[2]
        self._drop(labels)
        self.adapter.run(T + "create_holder_labels.sql.j2", table=labels, leaf_paths=self.leaf_paths,
                         items=self.items, map=self.map, dgh=self.forest.dgh, node=node)
        violation = False
        for size in range(2, self.m + 1):
            masks = {size: [0] + (self.masks[size] if structure and not violation else [])}
            found = self.adapter.run(T + "find_fresh_violation.sql.j2", items=labels, k=self.k, masks=masks,
                                     size=size, path_bits=True)
            if found:
                if int(found[0][0]) == 0:
                    return False, violation
                violation = True
        return True, violation

    def bound(self, expanded: frozenset[int], closed: frozenset[int]) -> float:
        """A lower bound on the RPD of every cut below ``expanded`` that leaves the nodes ``closed`` as they are
        (``rpd_bound.sql.j2``): what no specialization of its open nodes, nor any disassociation, can go below.
        Where no cut has a disassociation (OnlyCutSearch, or n = 0, or m = 1), the tighter bound of their leaf
        paths; where cuts may have some but no record has paths of two lengths, the smaller of that bound and the
        one of the leaves a disassociation lifts; otherwise the least general path's."""
        self._map(expanded)
        widened = [(g, self.widened[g]) for g in self.forest.cut_nodes(expanded)
                   if g in self.widened and g not in closed]
        lifted = self.structure and self.n > 0 and self.m >= 2
        leaves = not lifted or not self.forest.uneven
        total = self.adapter.run(T + "rpd_bound.sql.j2", paths=self.forest.paths, map=self.map, dgh=self.forest.dgh,
                                 depth=self.forest.depth, open=widened, leaves=leaves,
                                 lifted=lifted and leaves)[0][0]
        return float(total or 0.0) / self.forest.records

    def fix_structure(self) -> tuple[tuple[int, int], ...] | None:
        """The disassociations that make the projected trees (``self.current``: the distinct trees, or each
        record's) k^(m,n)-anonymous (None: OnlyCutSearch and some were needed), applied in place.

        Each round takes the violating relation with the fewest records (FixStructure's choice; read from the
        check's counts, where a relation is a combination of size 2) and, with it, other violating relations whose
        disassociations commute with it (``_round``), then checks again. Only the
        trees holding a relation are rewritten, and their relations recomputed (with ``tree_bits``, read from the
        labels' paths: no table of relations is kept). The check is kept up to date
        (``structure_check.sql.j2``): the supports of the combinations the rewritten trees held before and hold
        after are corrected, and only those combinations are looked at again."""
        trees = self.current
        assert trees is not None
        weights = None if trees == self.records else self.weights
        rules: list[tuple[int, int]] = []
        adapter, relations, labels, depth = self.adapter, self.relations, self.tree_items, self.forest.depth
        held, violations, delta, affected = self.check_tables
        self._drop(relations, labels, held, violations)
        bits = self.tree_bits
        if not bits:
            adapter.run(T + "create_relations.sql.j2", table=relations, paths=trees, depth=depth)
        adapter.run(T + "create_tree_labels.sql.j2", table=labels, paths=trees, depth=depth, fresh=None,
                    path_bits=bits)
        check = {"held": held, "violations": violations, "delta": delta, "affected": affected,
                 "weights": weights, "m": self.m, "k": self.k, "masks": self.masks, "limit": RULES_PER_ROUND,
                 "path_bits": bits}
        adapter.run(T + "structure_check.sql.j2", what="held", table=held, items=labels, only=None, sign=1,
                    insert=False, **check)
        adapter.run(T + "structure_check.sql.j2", what="violations", **{**check, "affected": None})
        holders, rewritten, merged, added = self.trees[1], self.trees[2], self.scratch_merged, self.scratch_added
        relabelled = self.scratch_labels
        # The tables kept up to date in place: each with the rewritten trees' new rows.
        replaced = [(trees, merged), (labels, relabelled)] + ([] if bits else [(relations, added)])
        while True:
            found = adapter.run(T + "structure_check.sql.j2", what="rules", **check)
            if not found:
                return tuple(rules)
            if not self.structure:
                return None
            taken = self._round(found)
            rules.extend(taken)
            self._drop(holders, rewritten, merged, added, relabelled, delta, affected)
            adapter.run(T + "select_holders.sql.j2", table=holders, rules=taken,
                        **({"items": labels} if bits else {"relations": relations}))
            adapter.run(T + "disassociate.sql.j2", table=rewritten, paths=trees, rules=taken, depth=depth,
                        only=holders)
            adapter.run(T + "project_paths.sql.j2", table=merged, paths=rewritten, map=None, depth=depth)
            if not bits:
                adapter.run(T + "create_relations.sql.j2", table=added, paths=merged, depth=depth)
            adapter.run(T + "create_tree_labels.sql.j2", table=relabelled, paths=merged, depth=depth, fresh=None,
                        path_bits=bits)
            # The rewritten trees' combinations: taken away as they were, added as they are.
            adapter.run(T + "structure_check.sql.j2", what="held", table=delta, items=labels, only=holders,
                        sign=-1, insert=False, **check)
            adapter.run(T + "structure_check.sql.j2", what="held", table=delta, items=relabelled, only=None,
                        sign=1, insert=True, **check)
            for table, rows in replaced:
                adapter.run(T + "replace_trees.sql.j2", table=table, only=holders, delete=True)
                adapter.run(T + "replace_trees.sql.j2", table=table, rows=rows, delete=False)
            for what in ("affected", "merge", "unviolate", "violations"):
                adapter.run(T + "structure_check.sql.j2", what=what, **check)

    def _round(self, found: list[tuple]) -> list[tuple[int, int]]:
        """The relations one round disassociates (``fix_structure``): the first (fewest records), then, in order,
        each whose lower label is no label taken and whose upper label is no lower one taken. Relations with
        different lower labels never move the same nodes, so their disassociations commute; two with the same
        lower label may make one another unnecessary (moving it above one upper label lifts it out of the
        other), so only one of them is taken per round."""
        taken: list[tuple[int, int]] = []
        uppers: set[int] = set()
        lowers: set[int] = set()
        for a, b, _support in found:
            a, b = int(a), int(b)
            if b in lowers or b in uppers or a in lowers:
                continue
            taken.append((a, b))
            uppers.add(a)
            lowers.add(b)
        return taken

    def measure(self, table: str) -> tuple[float, float]:
        rpd, rpd_a, _records, nodes, leaves = self.adapter.run(T + "measure_rpd.sql.j2", paths=table,
                                                               dgh=self.forest.dgh,
                                                               weights=None if table == self.records else self.weights,
                                                               depth=self.forest.depth)[0]
        synopsis = float(rpd_a or 0.0) / (int(nodes) * int(leaves)) if nodes and leaves else 0.0
        return float(rpd or 0.0), synopsis

    def fresh_violation(self, parent: frozenset[int], node: int) -> bool:
        """Whether the specialization of ``parent`` (a cut that passed without a disassociation) at ``node``,
        whose map ``self.map`` holds, has a structural violation, where ``check_fresh`` cannot tell (a record
        with more than PATH_BITS paths): only combinations holding one of the new labels can have one, and only
        the records that held ``node`` hold those. Their trees are projected and checked alone, which costs a
        fraction of a check over every tree."""
        if self.items_cut != parent:
            self._items(parent)
            self._map(parent | {node})
        adapter, depth = self.adapter, self.forest.depth
        holders, paths, items = self.fresh
        self._drop(*self.fresh)
        adapter.run(T + "select_label_holders.sql.j2", table=holders, items=self.items, node=node)
        adapter.run(T + "project_paths.sql.j2", table=paths, paths=self.forest.paths, map=self.map, depth=depth,
                    only=holders, uneven=self.forest.uneven)
        adapter.run(T + "create_tree_labels.sql.j2", table=items, paths=paths, depth=depth, fresh=node,
                    dgh=self.forest.dgh)
        # One size at a time, smallest first: a violation is mostly found among pairs, at a fraction of the cost.
        return any(adapter.run(T + "find_fresh_violation.sql.j2", items=items, k=self.k, masks=self.masks,
                               size=size) for size in range(2, self.m + 1))

    def evaluate(self, expanded: frozenset[int], check_values: bool,
                 parent: Evaluation | None = None) -> Evaluation | None:
        """The cut evaluated (None: it fails). ``check_values``: run the value check (the first cut); a
        specialization is checked by ``specializations`` before it is evaluated. With the ``parent`` it
        specializes, when that needed no disassociation, the structure is checked first on the records the
        specialization changes (``fresh_violation``): without a violation there, the cut needs none either."""
        if check_values:
            self._items(expanded)
            if not self.value_check(None):
                return None
        else:  # its value check ran against its parent's labels (``specializations``)
            self._map(expanded)
        clean = False
        if parent is not None and not parent.rules and self.n > 0 and self.m >= 2:
            (node,) = expanded - parent.expanded
            violation = self.violations.get(expanded)
            if violation is None:
                violation = self.fresh_violation(parent.expanded, node)
            if violation:
                if not self.structure:
                    return None
            else:
                clean = True
        structure = not clean and self.n > 0 and self.m >= 2
        self.current_cut = expanded
        if not structure and parent is not None and parent.expanded == self.delta_parent:
            self.current = None
            return Evaluation(expanded, (), *self._measure_delta(parent.expanded, expanded))
        grouped = structure and self._distinct_at_least(expanded) < GROUP_SHARE * self.forest.records
        self.current = self.project(grouped=grouped)
        if grouped:
            self.distinct[expanded] = int(self.adapter.run("count_rows.sql.j2", source=(self.weights,), qis=[],
                                                           nulls=False)[0][0])
        rules: tuple[tuple[int, int], ...] | None = self.fix_structure() if structure else ()
        if rules is None:
            return None
        assert self.current is not None
        rpd, rpd_a = self.measure(self.current)
        return Evaluation(expanded, rules, rpd, rpd_a)

    def _distinct_at_least(self, expanded: frozenset[int]) -> int:
        """A lower bound on the cut's count of distinct trees: the largest of the coarser cuts grouped."""
        return max((count for cut, count in self.distinct.items() if cut <= expanded), default=0)

    def _keep_parts(self, expanded: frozenset[int]) -> None:
        """The cut's losses in parts (``rpd_state.sql.j2``), from its trees projected."""
        records, prefixes = self.parts
        self.parts_cut = None
        self._map(expanded)
        paths = self.project(grouped=False)
        self._drop(records, prefixes)
        for what, table in (("records", records), ("prefixes", prefixes)):
            self.adapter.run(T + "rpd_state.sql.j2", what=what, table=table, paths=paths, dgh=self.forest.dgh,
                             depth=self.forest.depth)
        total, count, nodes, leaves, cost = self.adapter.run(T + "rpd_state.sql.j2", what="totals",
                                                             records=records, prefixes=prefixes)[0]
        self.parts_totals = (float(total or 0.0), int(count), int(nodes), int(leaves), float(cost or 0.0))
        self.parts_cut = expanded

    def _measure_delta(self, parent: frozenset[int], expanded: frozenset[int]) -> tuple[float, float]:
        """RPD and RPD_a of ``expanded``, a specialization of ``parent`` needing no disassociation, from the
        parent's parts and the trees of the records it changes (``measure_rpd_delta.sql.j2``): the same values
        as ``measure`` on every record's trees, in floating point summed in another order."""
        (node,) = expanded - parent
        if self.parts_cut != parent:
            self._keep_parts(parent)
        if self.items_cut != parent:
            self._items(parent)
        self._map(expanded)
        paths = self.delta
        self._drop(paths)
        adapter, forest = self.adapter, self.forest
        adapter.run(T + "project_paths.sql.j2", table=paths, paths=forest.paths, map=self.map, depth=forest.depth,
                    holding=(self.items, node), uneven=forest.uneven)
        new, old, gone, gone_leaves, gone_cost, added, added_leaves, added_cost = adapter.run(
            T + "measure_rpd_delta.sql.j2", paths=paths, records=self.parts[0],
            prefixes=self.parts[1], node=node, dgh=forest.dgh, depth=forest.depth)[0]
        total, count, nodes, leaves, cost = self.parts_totals
        rpd = (total - float(old or 0.0) + float(new or 0.0)) / count if count else 0.0
        nodes += int(added) - int(gone)
        leaves += int(added_leaves) - int(gone_leaves)
        cost += float(added_cost or 0.0) - float(gone_cost or 0.0)
        return rpd, cost / (nodes * leaves) if nodes and leaves else 0.0

    def close(self) -> None:
        """Drop every table of the search but the best cut's trees (``self.best``), which is all that the steps
        after it (ML2, the write and its verification) read: held beside those steps, the last cut's trees,
        labels, counted combinations and parts made a run's peak memory (benchmarks/README.md)."""
        self._drop(*[t for t in self.tables if t != self.best])
        self.map_cut = self.items_cut = self.parts_cut = self.current_cut = self.current = None

    def keep(self) -> None:
        """Keep the trees of the cut evaluated last as the best so far (projected now if it was measured from its
        parent's parts)."""
        if self.current is None:
            assert self.current_cut is not None
            self._map(self.current_cut)
            self.current = self.project(grouped=False)
        self._drop(self.best)
        self.adapter.run(T + "copy_paths.sql.j2", table=self.best, paths=self.current,
                         members=None if self.current == self.records else self.members)
