"""The part of the lattice no check has settled yet, as lower corners ordered by the metric's bound: a
best-first branch and bound over the implicit lattice, which keeps only what the search explored.

A corner ``c`` stands for the nodes at or above it. The bottom's corner stands for the whole lattice. A corner
that lies at or below a blocker ``I`` (a node known infeasible with all its specializations) has no feasible
node of its own; the feasible nodes above it lie above one of the corners ``c`` with level ``I_i + 1`` in one
attribute i, which replace it. A resolved corner (checked and compared with the incumbent, or infeasible) is
replaced by its direct generalizations. Every unresolved feasible node therefore lies above some corner, and
the metric's bound at a corner bounds every node above it (``InformationLossMetric.lower_bound``), so:

- the least bound key among the corners is a lower bound on the optimum (with the incumbent's, the least of
  the two): what a search stopped by its budget reports, and the optimality gap it gives;
- once no corner's key is below the incumbent's (or no corner is left), the incumbent is optimal;
- the unresolved corner of least key is the node a search should check next to raise the bound
  (``TopDownStrategy``), as branch and bound does (Land & Doig 1960; for lattices of generalizations, the
  bounds of OLA, El Emam et al. 2009, and Flash, Kohlmayer et al. 2012).

Memory is bounded by the corners explored (``max_corners``), never by the lattice.
"""

from __future__ import annotations

import heapq
from fractions import Fraction

from ..lattice import Node
from .base import SearchProblem, SolutionKey

#: Corners kept at most (~0.5 KB each with the heap entry and the memoized bound): about 250 MB.
MAX_CORNERS = 500_000


class Dominance:
    """``a <= b`` in every attribute for many nodes at once: nodes packed into ints with a guard bit above each
    field, so that ``b - a`` keeps every guard bit exactly when no field of ``a`` exceeds ``b``'s (one big-int
    subtraction per pair instead of a Python loop over the attributes)."""

    def __init__(self, max_levels: tuple[int, ...]) -> None:
        self.widths = [max(m.bit_length(), 1) + 1 for m in max_levels]
        self.guards = 0
        shift = 0
        self.shifts = []
        for width in self.widths:
            self.shifts.append(shift)
            self.guards |= 1 << (shift + width - 1)
            shift += width

    def pack(self, node: Node) -> int:
        return sum(level << shift for level, shift in zip(node, self.shifts, strict=True))

    def below(self, a: int, b: int) -> bool:
        """Whether the packed node ``a`` is at or below the packed node ``b``.

        >>> d = Dominance((3, 1, 2))
        >>> d.below(d.pack((1, 0, 2)), d.pack((3, 1, 2))), d.below(d.pack((1, 1, 0)), d.pack((3, 0, 2)))
        (True, False)
        """
        return ((b | self.guards) - a) & self.guards == self.guards


class Frontier:
    """The open corners of one problem (see the module's docstring)."""

    def __init__(self, problem: SearchProblem, max_corners: int = MAX_CORNERS) -> None:
        self.problem = problem
        self.max_corners = max_corners
        self.dominance = Dominance(problem.lattice.max_levels)
        bottom = problem.lattice.bottom
        self._heap: list[tuple[SolutionKey, Node]] = [(problem.bound_key(bottom), bottom)]
        self._seen = {bottom}
        self._packed: dict[Node, int] = {}
        #: The corners were capped: the bound stays valid, but optimality can no longer be proven.
        self.capped = False

    @property
    def proven(self) -> bool:
        """Whether no node outside the resolved ones can beat the incumbent (call ``next`` first)."""
        best = self.problem.best
        return not self.capped and (not self._heap or (best is not None and self._heap[0][0] >= best))

    def lower_bound(self) -> Fraction | None:
        """The least value any feasible node can have: the incumbent's when proven, else the least corner bound
        (never above the incumbent's value). None when nothing is known (no incumbent, no corner)."""
        best = self.problem.best
        if self.proven or not self._heap:
            return None if best is None else best[0]
        bound = self._heap[0][0][0]
        return bound if best is None else min(bound, best[0])

    def next(self, max_pops: int | None = None) -> Node | None:
        """The unresolved corner of least key (left open), expanding settled corners on the way; None when
        ``proven``, capped, or after ``max_pops`` expansions (then the bound is the least key so far).
        Without ``max_pops`` the search's budget is checked now and then, as expanding costs no SQL check."""
        problem, heap = self.problem, self._heap
        pops = 0
        while heap and not self.capped:
            if max_pops is None and pops % 4096 == 4095 and problem.limits is not None and problem.limits.bounded:
                problem.limits.check(lambda: problem.nodes_evaluated)
            key, corner = heap[0]
            if problem.best is not None and key >= problem.best:
                return None
            blocker = self.blocker(corner)
            if blocker is None and corner not in problem.resolved:
                return corner
            if max_pops is not None and pops >= max_pops:
                return None
            pops += 1
            heapq.heappop(heap)
            for child in self._children(corner, blocker):
                if child not in self._seen:
                    self._seen.add(child)
                    heapq.heappush(heap, (problem.bound_key(child), child))
            if len(self._seen) > self.max_corners:
                self.capped = True
        return None

    def _children(self, corner: Node, blocker: Node | None) -> list[Node]:
        if blocker is None:  # resolved: every other node above it is above a direct generalization
            return self.problem.lattice.successors(corner)
        limits = self.problem.lattice.max_levels
        return [corner[:i] + (b + 1,) + corner[i + 1:]
                for i, (b, m) in enumerate(zip(blocker, limits, strict=True)) if b < m]

    def blocker(self, node: Node) -> Node | None:
        packed, dominance = self._pack(node), self.dominance
        problem = self.problem
        for source in (problem, problem.core):
            if source is None:
                continue
            for blocker in source.blockers:
                if dominance.below(packed, self._pack(blocker)):
                    return blocker
        return None

    def _pack(self, node: Node) -> int:
        packed = self._packed.get(node)
        if packed is None:
            packed = self._packed[node] = self.dominance.pack(node)
        return packed
