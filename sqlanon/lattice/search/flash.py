"""Flash (Kohlmayer, Prasser, Eckert, Kemper, Kuhn 2012; ARX, seed 001): globally optimal search.

Phase 1 decides feasibility with as few SQL checks as it can, tagging predictively (a feasible node's
generalizations are feasible, an infeasible node's specializations infeasible) and skipping every node
whose metric lower bound cannot beat the incumbent. It has two forms:

- Cover, when nothing can be suppressed or the levels determine the metric (WIL, precision, height):
  a check then yields the node's value at no extra cost, and that value is its bound or close to it,
  so every feasible check lowers the incumbent to about where the bounds put it. The open region
  (untagged nodes whose bound can still beat the incumbent) is a down-set; checking one of its maximal
  nodes settles either that node's whole down-set (infeasible) or a lower incumbent (feasible) that
  shrinks the region. We check the maximal node with the largest down-set. On ADULT k=5 without
  suppression this takes 47 checks for Loss where ARX's Flash checks 122 (our walk took 228). Where the
  engine batches checks, the COVER_BATCH maximal nodes with the largest down-sets are checked in one
  statement: they are incomparable, so none of their checks tags another (ADULT: 55 checks in 14
  statements, runs 5-25% faster on PostgreSQL; benchmarks/README.md).
- Walk, otherwise (a suppression limit with Loss, DM* or AECS): values of feasible nodes can lie far
  above their bounds, the region shrinks slowly, and Flash's level-wise walk checks fewer nodes (DM*,
  ADULT k=5, 5%: 1,079 against 2,698 for cover). From every node whose feasibility is still unknown it
  builds a greedy path of untagged generalizations and binary-searches it (with Loss, from the path's top
  when the incumbent's bound cut it short: see ``_check_path``). With Loss and k-anonymity alone, a node
  that suppresses too many records to beat the incumbent (at least as many as a checked generalization:
  ``SearchProblem.outweighed_by_suppression``) starts no path.

Phase 2 finds the optimum among the candidates: for a monotone metric only the minimal feasible nodes,
otherwise all feasible nodes, visited in order of the lower bound and skipped once the bound cannot
beat the incumbent. Without monotone privacy models every node is a candidate, but before its models
are evaluated it must pass k-anonymity alone: a monotone, necessary condition checked by a cheaper
query along binary-searched paths, whose tags settle later candidates without SQL (ARX likewise prunes
with the monotone part of a configuration). A model check also proves how many records every
specialization of the node suppresses at least (``NodeStats.certain``: t-closeness and entropy l-diversity
are convex in the class distribution); above the limit, the node's whole down-set is infeasible. Paths of
generalizations above each candidate are binary-searched for such nodes.
"""

from __future__ import annotations

import heapq
from math import prod

from ..lattice import Node
from .base import SearchProblem, SearchResult, SearchStrategy

#: Maximal nodes of the open region checked together by the cover (where the engine batches checks).
COVER_BATCH = 4


class FlashStrategy(SearchStrategy):
    name = "flash"

    def search(self, problem: SearchProblem) -> SearchResult:
        lattice, space = problem.lattice, problem.space
        problem.precompute_bounds()  # every phase below sorts all nodes by their bounds

        if problem.monotone_criteria:
            if problem.values_near_bounds:
                self._cover(problem)
            else:
                self._walk(problem)
            feasible = space.feasible
            if problem.metric.monotone:  # only the minimal feasible nodes
                feasible &= ~lattice.with_predecessor_in(feasible)
            candidates = lattice.members(feasible)
        else:
            candidates = list(lattice.nodes())

        probes = settled = 0  # certain-suppression probes so far, and those that settled a down-set

        def settle(node: Node) -> None:
            nonlocal probes, settled
            probed, certified = self._settle_by_certain_suppression(problem, node)
            probes, settled = probes + probed, settled + certified

        for node in problem.by_bound(candidates):
            if problem.prunable(node):
                break  # sorted by bound key: every later candidate is bounded too
            if problem.dominated(node):
                continue
            # While most probes settle a down-set, a candidate is settled before k-anonymity alone is
            # checked: that check would mostly be spent on a node some certificate covers anyway.
            settle_first = not problem.monotone_criteria and probes >= 4 and 2 * settled >= probes
            if settle_first and problem.space.tag(node) is None:
                settle(node)
            unknown = problem.space.tag(node) is None
            if unknown and problem.core is not None and not self._core_feasible(problem, node):
                problem.space.set(node, False)  # fails k-anonymity alone, so with the models too
                continue
            if unknown and not problem.monotone_criteria:  # after settling first the node is tagged
                settle(node)
            problem.consider(node)
            if not problem.monotone_criteria:
                self._certify(problem, node)
        return problem.result()

    def _settle_by_certain_suppression(self, problem: SearchProblem, node: Node) -> tuple[int, int]:
        """Non-monotone models: binary-search a greedy path of generalizations of the node for the highest
        one whose certain suppression exceeds the limit; that node settles its whole down-set, the node
        included, as infeasible. Certain suppression is not monotone along the path, so this is a heuristic
        for where to look; every tag it sets is proved. A feasible node met on the way becomes a candidate
        at once.

        The search goes on above a node that settled the path's start: a higher one settles a larger
        down-set, which holds later candidates. Stopping at the first one checked ADULT + equal
        0.2-closeness's 899 nodes with 268 model and 635 k-anonymity queries; going on, 418 nodes with 115
        and 309 (DM*: 1,063 -> 687 nodes). Entropy 3-diversity with DM* pays for it, 561 -> 622 model
        queries, as its certificates lie low; always starting from the path's top took 933 there.
        Returns how many nodes it probed and how many of them settled a down-set (see ``search``); the
        node itself is always tagged afterwards (settled, or checked as the path's start)."""
        path = self._find_path(problem, node)
        low, high = 0, len(path) - 1
        probes = settled = 0
        while low <= high:
            mid = (low + high) // 2
            problem.evaluate(path[mid], for_metric=False)
            probes += 1
            if self._certify(problem, path[mid]):
                settled += 1
                low = mid + 1
            else:
                if problem.space.tag(path[mid]):
                    problem.consider(path[mid])
                high = mid - 1
        return probes, settled

    @staticmethod
    def _certify(problem: SearchProblem, node: Node) -> bool:
        """Tag the node's down-set infeasible when its check proved that every specialization suppresses
        more than the limit (``NodeStats.certain``). The margin covers rounding in the double sum."""
        stats = problem.evaluator.cache.get(node)
        if stats is None:
            return False
        margin = 1e-6 * (problem.evaluator.fset.records + 1)
        if stats.certain <= problem.ctx.max_suppressed + margin:
            return False
        problem.space.set_infeasible_below(node)
        return True

    def _core_feasible(self, problem: SearchProblem, node: Node) -> bool:
        """k-anonymity alone (non-monotone models), decided by a binary search up a greedy path from the
        node: cheap queries, and its tags answer later candidates without SQL. The path leaves out nodes
        that the models' incumbent already prunes (ADULT + entropy 3-diversity: 327 -> 283 nodes)."""
        core = problem.core
        assert core is not None
        if core.space.tag(node) is None:
            self._check_path(core, self._find_path(core, node, bounds=problem), bounds=problem)
        return bool(core.space.tag(node))

    def _walk(self, problem: SearchProblem) -> None:
        for level in problem.lattice.nodes_by_height():
            for node in problem.by_bound(level):
                # A node whose bound cannot beat the incumbent is skipped with all its
                # generalizations (their bounds are at least as large): ARX's pruning by bounds. The level
                # is sorted by bound key and the incumbent only improves, so the rest of the level is
                # prunable too (without this, a large lattice's walk looks at thousands of nodes in Python).
                if problem.prunable(node):
                    break
                # A node that suppresses too much to beat it starts no path; its generalizations start their
                # own. CUP k=5 5% Loss: 69 -> 51 nodes checked.
                if (problem.space.tag(node) is None and not problem.dominated(node)
                        and not problem.outweighed_by_suppression(node)):
                    lowest = self._check_path(problem, self._find_path(problem, node))
                    if lowest is not None:
                        problem.consider(lowest)  # an early incumbent sharpens the pruning

    @staticmethod
    def _cover(problem: SearchProblem) -> None:
        """Check maximal nodes of the open region until nothing is open (see the module docstring). The
        region is a bitmask (``Lattice.down_set``); its maximal nodes are those without an open successor."""
        lattice, space = problem.lattice, problem.space
        order = problem.by_bound(lattice.node_list)
        index = lattice.index
        rank = {node: i for i, node in enumerate(order)}
        open_ = lattice.full_mask  # phase 1 starts with nothing tagged
        end = len(order)
        while True:
            # Bound keys are ascending in `order`, so the nodes the incumbent prunes form its tail.
            while end and problem.prunable(order[end - 1]):
                end -= 1
                open_ &= ~(1 << index(order[end]))
            open_ &= ~(space.feasible | space.infeasible)
            maximal = open_ & ~lattice.with_successor_in(open_)
            if not maximal:
                return
            # The largest down-set settles the most nodes if infeasible; ties: lowest bound key. Maximal nodes
            # are incomparable, so no check tags another: the first COVER_BATCH are checked in one statement
            # where the engine batches checks (``NodeEvaluator.prefetch``), and each then as if alone.
            picks = heapq.nsmallest(COVER_BATCH if problem.batched_checks else 1, lattice.members(maximal),
                                    key=lambda n: (-prod(level + 1 for level in n), rank[n]))
            problem.prefetch(picks)
            for pick in picks:
                if problem.is_feasible(pick):
                    problem.consider(pick)

    @staticmethod
    def _find_path(problem: SearchProblem, start: Node, bounds: SearchProblem | None = None) -> list[Node]:
        """Greedy path upward through untagged nodes, following the most promising successor; ``bounds``
        is the problem whose incumbent prunes (the core has none of its own)."""
        bounds = bounds or problem
        path, node = [start], start
        while True:
            untagged = [
                s for s in problem.lattice.successors(node)
                if problem.space.tag(s) is None and not bounds.prunable(s) and not bounds.dominated(s)
            ]
            if not untagged:
                return path
            node = min(untagged, key=problem.bound_key)
            path.append(node)

    @staticmethod
    def _check_path(problem: SearchProblem, path: list[Node], bounds: SearchProblem | None = None) -> Node | None:
        """Binary search for the lowest feasible node on a chain of generalizations. A node that cannot beat
        the incumbent (``dominated``, found as the probes raise the values they compare with) is not checked:
        nor can any node above it, so the search goes on below it, and returns only a node it checked.

        When the incumbent's bound cut the path short and the bound is the value before suppression (Loss),
        the top is checked first: a node just below that bound is feasible only if it is nearly as good as
        the incumbent, so it is mostly infeasible, and then settles the whole path (and its down-set) at
        once. ADULT k=10 1% Loss: 358 -> 166 nodes checked; with DM*'s loose bound it checks more.
        ``bounds``: the problem whose incumbent prunes (k-anonymity alone, the core, has none of its own)."""
        bounds = bounds or problem
        low, high = 0, len(path) - 1
        if bounds.metric.bound_is_unsuppressed_value and bounds.best is not None and any(
            problem.space.tag(s) is None and bounds.prunable(s) for s in problem.lattice.successors(path[-1])
        ):
            if not problem.is_feasible(path[-1]):
                return None
            high -= 1
        while low <= high:
            mid = (low + high) // 2
            if problem.dominated(path[mid]) or problem.is_feasible(path[mid]):
                high = mid - 1
            else:
                low = mid + 1
        return path[low] if low < len(path) and not problem.dominated(path[low]) else None
