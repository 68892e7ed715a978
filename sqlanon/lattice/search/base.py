"""What every search strategy shares: feasibility checks, the incumbent optimum, and pruning rules."""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from ...evaluation.evaluator import NodeEvaluator, NodeStats
from ...metrics.base import InformationLossMetric, MetricContext
from ..lattice import Lattice, Node, tie_key
from ..tagging import SolutionSpace
from .limits import SearchLimits

#: Full ordering of candidate solutions: metric value, then lowest height, then lexicographic levels.
SolutionKey = tuple[Fraction, int, Node]


def solution_key(value: Fraction, node: Node) -> SolutionKey:
    return (_fast(value), *tie_key(node))


def _fast(value: Fraction) -> Fraction | int:
    """Integral values (Loss numerators, DM*) as plain ints: the same order, but comparisons are ~20x faster
    than between Fractions, and the search sorts thousands of bound keys."""
    return value.numerator if value.denominator == 1 else value


@dataclass
class SearchResult:
    node: Node | None
    value: Fraction | None
    nodes_evaluated: int
    #: Nodes whose feasibility was decided (checked in SQL or tagged by inference).
    nodes_tagged: int
    #: False when the search stopped on its budget or is a heuristic that did not prove its result.
    optimal: bool = True
    #: The best lower bound on the optimum the search can prove (the node's value when optimal).
    lower_bound: Fraction | None = None
    #: Why the search stopped early (its budget), if it did.
    stopped: str | None = None


@dataclass
class SearchProblem:
    """One optimization problem: lattice, SQL evaluator, metric, and the privacy models' monotonicity."""

    lattice: Lattice
    evaluator: NodeEvaluator
    metric: InformationLossMetric
    ctx: MetricContext
    monotone_criteria: bool
    progress: Callable[[int, Fraction | None], None] | None = None
    #: With non-monotone privacy models: k-anonymity alone, a monotone necessary condition that a cheaper
    #: query checks (a node suppressing too many records for k alone also fails with the models added).
    core: SearchProblem | None = None
    #: The search's budget (``search.budget``), checked before every new SQL check.
    limits: SearchLimits | None = None
    #: A lattice too large for per-node state (bitmask node sets, tags): only the explored nodes are kept,
    #: and only the strategies written for it (``IMPLICIT_STRATEGIES``) may search it.
    implicit: bool = False
    best: SolutionKey | None = None
    #: The best lower bound on the optimum proven so far, where the strategy keeps one (for the progress line).
    known_bound: Fraction | None = field(init=False, default=None)
    #: Nodes whose value was compared with the incumbent, or found infeasible (``consider``).
    resolved: set[Node] = field(init=False, default_factory=set)
    #: The maximal checked nodes known infeasible with all their specializations (monotone models, or a
    #: check's certain suppression above the limit): an antichain, so a lookup costs little.
    blockers: list[Node] = field(init=False, default_factory=list)
    space: SolutionSpace = field(init=False)
    _bounds: dict[Node, Fraction] = field(init=False, default_factory=dict)
    #: Monotone metric: checked nodes by descending value (negated, for heapq) whose up-sets are not yet in
    #: ``_outvalued``, and the nodes above a checked node whose value exceeds the incumbent's (see ``dominated``).
    _checked_values: list[tuple[Fraction | int, Node]] = field(init=False, default_factory=list)
    _outvalued: int = field(init=False, default=0)  # a node set (Lattice.up_set)
    #: Monotone metric: the checked nodes by value (as ``_fast`` gives it: ints compare ~20x faster), for the
    #: ties with the incumbent's value (``dominated``).
    _valued: dict[Fraction | int, list[Node]] = field(init=False, default_factory=dict)
    #: Loss with k-anonymity alone: checked nodes that suppress records, as (-suppressed, lattice index),
    #: ascending (most suppressed first; see ``outweighed_by_suppression``).
    _suppressing: list[tuple[int, int]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.space = SolutionSpace(self.lattice, self.monotone_criteria)
        self._counted: SearchProblem = self
        if self.core is not None:
            self.core._bounds = self._bounds  # same lattice, metric and context: share the memo
            self.core.limits, self.core.implicit, self.core._counted = self.limits, self.implicit, self

    @property
    def nodes_evaluated(self) -> int:
        """Distinct nodes checked in SQL, by the full query or by the core's."""
        if self.core is None:
            return self.evaluator.evaluated
        return len(self.evaluator.cache.keys() | self.core.evaluator.cache.keys())

    def evaluate(self, node: Node, for_metric: bool = True) -> NodeStats:
        fresh = node not in self.evaluator.cache
        if fresh and self.limits is not None and self.limits.bounded:
            self.limits.check(lambda: self._counted.nodes_evaluated)
        stats = self.evaluator.evaluate(node, for_metric)
        feasible = stats.suppressed_records <= self.ctx.max_suppressed
        if not feasible and self._bounds_kept and (self.monotone_criteria or stats.certain > self.ctx.max_suppressed):
            self._block(node)
        if not self.implicit:  # the per-node state of an explicit lattice
            self._record(node, stats, feasible, fresh)
        if self.progress is not None:
            self.progress(self.evaluator.evaluated, self.best[0] if self.best else None)
        return stats

    def _record(self, node: Node, stats: NodeStats, feasible: bool, fresh: bool) -> None:
        """Tags, and the checked nodes the pruning rules read (``outweighed_by_suppression``, ``dominated``)."""
        self.space.set(node, feasible)
        if fresh and stats.suppressed_records and self.metric.needs_loss_weights and not self.evaluator.judged:
            bisect.insort(self._suppressing, (-stats.suppressed_records, self.lattice.index(node)))
        if fresh and self.metric.monotone:
            value = _fast(self.metric.value(node, stats, self.ctx))
            self._valued.setdefault(value, []).append(node)
            heapq.heappush(self._checked_values, (-value, node))

    @property
    def _bounds_kept(self) -> bool:
        """Whether ``blockers`` are kept: for the searches of the implicit lattice, which read them, and for a
        budgeted search, whose lower bound reads them if it stops (``run.py``). Flash without a budget has its
        tags, and the antichain would cost it a noticeable share of a small run."""
        return self.implicit or (self.limits is not None and self.limits.bounded)

    def _block(self, node: Node) -> None:
        """Add an infeasible node whose specializations are all infeasible to ``blockers``."""
        if any(all(x <= y for x, y in zip(node, b, strict=True)) for b in self.blockers):
            return
        self.blockers = [b for b in self.blockers if not all(x <= y for x, y in zip(b, node, strict=True))]
        self.blockers.append(node)

    @property
    def values_near_bounds(self) -> bool:
        """Whether a feasible node's value is its lower bound or follows from its check alone: nothing can
        be suppressed (Loss then equals its bound; DM* and AECS come from the check's class counts), or the
        levels determine the value (WIL, precision, height)."""
        return self.ctx.max_suppressed == 0 or self.metric.levels_determine_value

    @property
    def batched_checks(self) -> bool:
        """Whether ``prefetch`` runs checks together: where the engine batches them, and not on a budget, which
        counts the nodes checked one by one (``limits``)."""
        return self.evaluator.batches_checks and not self.implicit and (self.limits is None or not self.limits.bounded)

    def prefetch(self, nodes: Sequence[Node]) -> None:
        """Check together those of ``nodes`` that no tag settles (``NodeEvaluator.prefetch``); ``evaluate`` then
        takes each check as it asks for it."""
        if self.batched_checks:
            self.evaluator.prefetch([n for n in nodes if self.space.tag(n) is None])

    def is_feasible(self, node: Node) -> bool:
        """Feasibility, from a predictive tag when there is one, else from SQL."""
        tag = None if self.implicit else self.space.tag(node)
        if tag is not None:
            return tag
        return self.evaluate(node, for_metric=False).suppressed_records <= self.ctx.max_suppressed

    def precompute_bounds(self) -> None:
        """Every node's bound at once, where the metric can (``lower_bounds``): for searches that take them all."""
        if self._bounds:
            return
        table = self.metric.lower_bounds(self.lattice.max_levels, self.ctx)
        if table is not None:
            self._bounds.update(zip(self.lattice.nodes(), table, strict=True))

    def bound(self, node: Node) -> Fraction:
        """The metric's lower bound for this node and its generalizations (memoized)."""
        value = self._bounds.get(node)
        if value is None:
            value = self._bounds[node] = _fast(self.metric.lower_bound(node, self.ctx))
        return value

    def bound_key(self, node: Node) -> SolutionKey:
        return solution_key(self.bound(node), node)

    def by_bound(self, nodes: Iterable[Node]) -> list[Node]:
        """The nodes sorted by ``bound_key``, with the keys built as plain tuples (memoized bounds are already
        ``_fast``): a key function per node took most of the time Flash spent sorting."""
        nodes = list(nodes)
        memo, bound = self._bounds, self.bound
        bounds = [memo[n] if n in memo else bound(n) for n in nodes]
        return [node for _, _, node in sorted(zip(bounds, map(sum, nodes), nodes, strict=True))]

    def prunable(self, node: Node, bound: Fraction | None = None) -> bool:
        """True when neither this node nor any generalization of it can beat the incumbent.

        Valid because the bound holds for all generalizations and they have a larger tie key.
        """
        if self.best is None:
            return False
        b = self.bound(node) if bound is None else bound
        return solution_key(b, node) >= self.best

    def dominated(self, node: Node) -> bool:
        """True when a monotone metric's value at a checked specialization already cannot beat the incumbent:
        that value bounds this node and all its generalizations, feasible or not. Unlike ``prunable`` this
        does not follow the bound order, so a sorted scan may skip such a node but not stop at it. Any
        specialization counts, not only the direct ones: ADULT k=5 5% DM* checked 376 of its 688 nodes above
        a checked node already worth more than the incumbent."""
        if self.best is None or not self.metric.monotone:
            return False
        self._spread_outvalued()
        if self.lattice.holds(self._outvalued, node):
            return True
        # A direct specialization worth the incumbent's value exactly: the tie key of this node decides (worth
        # more, it outvalued the node above; worth less, it bounds nothing). Such nodes are few, often the
        # incumbent alone, so the node's specializations are listed only then (this test runs thousands of times).
        tied = self._valued.get(self.best[0])
        if tied and solution_key(self.best[0], node) >= self.best:
            height = sum(node)
            return any(sum(p) == height - 1 and all(a >= b for a, b in zip(node, p, strict=True)) for p in tied)
        return False

    def _spread_outvalued(self) -> None:
        """Move the up-set of every checked node worth more than the incumbent into ``_outvalued``. The
        incumbent only improves, so a node once outvalued stays so, and each node is visited once."""
        assert self.best is not None
        heap = self._checked_values
        while heap and -heap[0][0] > self.best[0]:
            self._outvalued |= self.lattice.up_set(heapq.heappop(heap)[1])

    def consider(self, node: Node) -> Fraction | None:
        """Compute the metric of a node known or found to be feasible and update the incumbent. None when it
        is infeasible, or when its feasibility check bounds its value at or above the incumbent's: then the
        query of the value itself (Loss's weights) is not run."""
        feasible = self.is_feasible(node)
        if not feasible:
            self.resolved.add(node)
            return None
        value = self.metric.value_without_evaluation(node, self.ctx, True)
        if value is None:
            if self._beaten_by_check(node):
                self.resolved.add(node)
                return None
            value = self.metric.value(node, self.evaluate(node), self.ctx)
        self.resolved.add(node)
        key = solution_key(value, node)
        if self.best is None or key < self.best:
            self.best = key
        return value

    def outweighed_by_suppression(self, node: Node) -> bool:
        """Loss with k-anonymity alone: whether the node, checked or not, cannot beat the incumbent given the
        records it suppresses at least. A class below k splits into classes below k, so a node suppresses at
        least as many records as any checked generalization, and ``bound_given_suppressed`` grows with that
        count. Unlike ``prunable`` and ``dominated``, this says nothing of the node's generalizations, which
        suppress fewer."""
        if self.best is None or not self._suppressing:
            return False
        if not self._outweighed(node, -self._suppressing[0][0]):
            return False  # not even with the most any checked node suppresses: no generalization to look for
        generalizations = self.lattice.up_set(node)
        for negated, index in self._suppressing:  # the first generalization found suppresses the most
            if generalizations >> index & 1:
                return self._outweighed(node, -negated)
        return False

    def _outweighed(self, node: Node, suppressed: int) -> bool:
        """Whether the node cannot beat the incumbent when it suppresses at least this many records."""
        assert self.best is not None
        bound = self.metric.bound_given_suppressed(node, self.ctx, suppressed)
        return bound is not None and solution_key(bound, node) >= self.best

    def _beaten_by_check(self, node: Node) -> bool:
        """Whether the node's feasibility check (its records suppressed, ``bound_given_suppressed``) shows that
        it cannot beat the incumbent. A node tagged feasible without a check is checked first: the check costs
        about half of the query with Loss's weights, and spares most weights queries of such nodes; counting
        the suppressed records of checked nodes spares most of the others (benchmarks/README.md)."""
        if self.best is None or not self.metric.needs_loss_weights:
            return False
        if node not in self.evaluator.cache and self.outweighed_by_suppression(node):
            return True  # no check needed
        stats = self.evaluate(node, for_metric=False)  # the cached check, if any
        if stats.suppressed_weights is not None:
            return False  # the value is at hand
        return self._outweighed(node, stats.suppressed_records)

    def result(self) -> SearchResult:
        node = self.best[2] if self.best else None
        value = self.best[0] if self.best else None
        return SearchResult(node, value, self.nodes_evaluated, self.space.tagged)


class SearchStrategy:
    """Returns the feasible node with the least metric value (ties: lowest height, then levels)."""

    name: ClassVar[str]

    def search(self, problem: SearchProblem) -> SearchResult:  # pragma: no cover - abstract
        raise NotImplementedError
