"""The cut searches of seed 003 (section 3.4, Algorithm 4 and its prose, as the spec reads them).

All three start at the most general cut (every class at its top, ``*``: the paper's c1; c0, a single ``*`` for
every class, would erase which classes a record has) and specialize one cut node at a time. A cut that fails
the value check is pruned with all its specializations (specializing never raises a support, so they fail too).
The best cut is the passing one of lowest RPD (Eq. 3), ties to the smaller expanded set.

* AllCutSearch (ACS): depth first over every passing cut. With n = 0 it finds the optimal k^m cut.
* GreedyCutSearch (GCS): a priority queue of passing cuts on RPD_a (Eq. 6-7, lowest first); each step takes the
  first, evaluates all its one-node specializations, and queues the ``beam`` (g) best that pass.
* OnlyCutSearch (OCS): GCS where a cut needing a structural disassociation fails.

Closed values (section 3.3 and Example 6: "we keep track of the values that have been specialized"): the
specializations of a cut, ranked by RPD_a, are the children of a set-enumeration tree. The i-th may not
specialize, anywhere below it, the values the first i - 1 specialized, nor a value whose specialization failed
the value check beside it. Every passing cut is then reached exactly once (ACS stays exhaustive, and GCS with a
beam wider than any step is ACS), and GCS's later branches do not redo what its first branch explored
(benchmarks/README.md has the cuts evaluated before and after).

Bounded subtrees (``search.bound``, on by default; not in the paper): before a cut's specializations are
evaluated, a lower bound on the RPD of every cut below it (its closed values kept, its other values specialized as
far as they go, ``CutEvaluator.bound``) is compared with the best RPD found; above it, the subtree holds no better
cut and is skipped. It is asked again after the specializations' value checks, with the values that failed them
closed, before any specialization that passed is projected. The cut found is the same; fewer cuts are evaluated
(``bounded`` counts the subtrees skipped).

Cuts with disassociations last (GreedyCutSearch; not in the paper): the queue pops every cut that needed no
disassociation before any that did, each group lowest RPD_a first. Which cuts a search evaluates does not depend on
the order it pops them in (what it queues below a cut depends on that cut and its closed values alone); only which
subtrees the bound skips does, through the best RPD found by then. A cut with disassociations is the costliest to
evaluate, and so are the cuts below it (FixStructure over every tree each), and its RPD is mostly higher (a lifted
node is shallower): popped last, their subtrees meet the best cut without any, and the bound skips more of them.
The cut found is the same; with ``search.max_cuts`` the cuts within the budget are not those of the paper's order.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Protocol

from .cuts import Evaluation

ROOT: frozenset[int] = frozenset({0})


class Evaluator(Protocol):
    def evaluate(self, expanded: frozenset[int], check_values: bool,
                 parent: Evaluation | None = None) -> Evaluation | None: ...

    def specializations(self, parent: Evaluation, nodes: list[int]) -> list[int]: ...

    def bound(self, expanded: frozenset[int], closed: frozenset[int]) -> float: ...

    def keep(self) -> None: ...


#: A subtree is skipped when its bound exceeds the best RPD by more than this share: the bound and the RPD are
#: computed in floating point by different statements, and a cut whose RPD equals the bound must not be lost.
MARGIN = 1e-9


#: RPD and RPD_a are compared to this many significant digits, ties broken by the expanded nodes: both are sums in
#: floating point that DuckDB's threads add in an order of their own, so two cuts of the same value (symmetric
#: values, as in the tests' forests) differed in their last digits from run to run, and with them the ranking of
#: a cut's specializations (which values each subtree closes), the cuts evaluated and even the cut found.
DIGITS = 10


def comparable(value: float) -> float:
    """``value`` rounded to DIGITS significant digits.

    >>> comparable(0.005864197530864195) == comparable(0.005864197530864196)
    True
    """
    return float(f"{value:.{DIGITS}g}")


def _key(ev: Evaluation) -> tuple[float, list[int]]:
    return comparable(ev.rpd), sorted(ev.expanded)


def _rank(ev: Evaluation) -> tuple[float, list[int]]:
    return comparable(ev.rpd_a), sorted(ev.expanded)


class CutSearch:
    """One search over the cuts of ``cut_nodes`` (a cut's expandable nodes, in id order)."""

    #: GreedyCutSearch pops the cuts without disassociations first (the module's docstring).
    DISASSOCIATED_LAST = True

    def __init__(self, evaluator: Evaluator, cut_nodes: Callable[[frozenset[int]], list[int]], strategy: str,
                 beam: int, max_cuts: int = 0, tick: Callable[[int, Evaluation | None], None] | None = None,
                 bound: bool = True) -> None:
        self.evaluator, self.cut_nodes = evaluator, cut_nodes
        self.strategy, self.beam, self.max_cuts, self.use_bound = strategy, beam, max_cuts, bound
        self.tick = tick
        self.best: Evaluation | None = None
        self.evaluated = 0
        self.passed = 0
        #: Subtrees skipped because their RPD bound is above the best RPD found.
        self.bounded = 0
        #: (expanded nodes, passed) of every cut evaluated, in order (the run history's nodes).
        self.trail: list[tuple[frozenset[int], bool]] = []
        self.stopped_early = False

    def _evaluate(self, expanded: frozenset[int], check_values: bool = False,
                  parent: Evaluation | None = None) -> Evaluation | None:
        ev = self.evaluator.evaluate(expanded, check_values, parent)
        self._seen(expanded, ev is not None)
        if ev is not None:
            self.passed += 1
            if self.best is None or _key(ev) < _key(self.best):
                self.best = ev
                self.evaluator.keep()
        return ev

    def _seen(self, expanded: frozenset[int], passed: bool) -> None:
        self.evaluated += 1
        self.trail.append((expanded, passed))
        if self.tick is not None:
            self.tick(self.evaluated, self.best)

    def _budget_left(self) -> bool:
        if self.max_cuts and self.evaluated >= self.max_cuts:
            self.stopped_early = True
            return False
        return True

    def _specializations(self, parent: Evaluation, tail: frozenset[int]) -> list[tuple[Evaluation, frozenset[int]]]:
        """The parent's one-node specializations at the nodes of its cut outside ``tail`` (the closed values),
        each value-checked against the parent (only combinations with one of the new labels can fail), those that
        pass evaluated whole; each returned with the closed values of its own subtree.

        The order of the passing ones (lowest RPD_a first) decides what their subtrees may specialize: the i-th
        may not specialize the values of the first i - 1 (the paper's closed values, Example 6: a set-enumeration
        tree, which reaches every passing cut exactly once), nor any value whose specialization failed the value
        check here (monotone: a more specialized cut fails it too)."""
        nodes = [g for g in self.cut_nodes(parent.expanded) if g not in tail]
        if nodes and self._bounded(parent, tail):
            return []
        if self.max_cuts:
            nodes = nodes[:max(0, self.max_cuts - self.evaluated)]
        passing = set(self.evaluator.specializations(parent, nodes))
        for g in nodes:
            if g not in passing:
                self._seen(parent.expanded | {g}, False)
        # The values whose specialization failed stay closed in every cut below this one: with them closed, the
        # bound may now rule out the specializations that passed, before any of them is projected.
        if passing and len(passing) < len(nodes) and self._bounded(parent, tail | (set(nodes) - passing)):
            return []
        out = []
        for g in (g for g in nodes if g in passing):
            ev = self._evaluate(parent.expanded | {g}, parent=parent)
            if ev is not None:
                out.append((ev, g))
        closed = set(tail) | (set(nodes) - passing)
        ranked = []
        for ev, g in sorted(out, key=lambda pair: _rank(pair[0])):
            ranked.append((ev, frozenset(closed)))
            closed.add(g)
        return ranked

    def _bounded(self, parent: Evaluation, tail: frozenset[int]) -> bool:
        """Whether no cut below ``parent`` (``tail`` closed) can have a lower RPD than the best found."""
        if not self.use_bound or self.best is None or parent is self.best:
            return False
        if self.evaluator.bound(parent.expanded, tail) > self.best.rpd * (1 + MARGIN):
            self.bounded += 1
            return True
        return False

    def _priority(self, ev: Evaluation) -> tuple[bool, float]:
        """GreedyCutSearch's queue order: cuts with disassociations last, then lowest RPD_a."""
        return self.DISASSOCIATED_LAST and bool(ev.rules), comparable(ev.rpd_a)

    def run(self) -> Evaluation | None:
        root = self._evaluate(ROOT, check_values=True)
        if root is None:
            return None
        if self.strategy == "all_cuts":
            stack = [(root, frozenset[int]())]
            while stack and self._budget_left():
                ev, tail = stack.pop()
                stack.extend(reversed(self._specializations(ev, tail)))
            return self.best
        counter = 0
        queue = [(self._priority(root), counter, root, frozenset[int]())]
        while queue and self._budget_left():
            _, _, parent, tail = heapq.heappop(queue)
            for ev, closed in self._specializations(parent, tail)[:self.beam]:
                counter += 1
                heapq.heappush(queue, (self._priority(ev), counter, ev, closed))
        return self.best
