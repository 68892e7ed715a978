"""Top-down: for lattices too large for the optimal searches (``strategy: auto`` picks it there), a
heuristic that still proves what it can and says how far from the optimum its result can be.

1. Descent (top-down specialization, after TDS: Fung, Wang & Yu 2005, here over full-domain levels): from the
   top, which is feasible whenever anything is, step to the best feasible direct specialization that is
   better than the current node (steepest descent: with a suppression limit the first improvement found
   led ADULT-sized lattices into poorer local optima). Specializations are tried by the metric's bound,
   lowest first, and skipped once their bound cannot beat the best step found; those at or below a node
   known infeasible are skipped without a check, and a failed attribute stays failed further down.
2. Kicks (iterated local search: Lourenço, Martin & Stützle 2003): from the local optimum, generalize one
   attribute one level and descend again without lowering it; a better node found restarts the descent.
3. Branch and bound (``frontier.py``) with what is left of the budget: check the unsettled node of least bound
   (a better node found is descended from), until no node can beat the incumbent (then it is optimal) or the
   budget is spent (then the least bound is the lower bound the run reports).

With an unlimited budget step 3 completes, so on small lattices this returns the optimum the exhaustive
search finds (tests/unit/lattice/search). Only the explored nodes are kept: the lattice is never listed.
"""

from __future__ import annotations

from ..lattice import Node
from .base import SearchProblem, SearchResult, SearchStrategy, SolutionKey, solution_key
from .frontier import Frontier
from .limits import BudgetExhausted
from .run import SETTLING_POPS


class TopDownStrategy(SearchStrategy):
    name = "top_down"

    def search(self, problem: SearchProblem) -> SearchResult:
        frontier = Frontier(problem)
        problem.known_bound = frontier.lower_bound()  # the bottom's bound, raised by the branch and bound
        try:
            problem.consider(problem.lattice.top)
            if problem.best is not None:
                self._improve(problem, frontier)
            while (candidate := frontier.next()) is not None:
                problem.known_bound = frontier.lower_bound()
                before = problem.best
                problem.consider(candidate)
                if problem.best != before:
                    self._improve(problem, frontier)
        except BudgetExhausted:
            frontier.next(max_pops=SETTLING_POPS)  # what the checks made settle, without another check
        result = problem.result()
        result.optimal, result.lower_bound = frontier.proven, frontier.lower_bound()
        return result

    def _improve(self, problem: SearchProblem, frontier: Frontier) -> None:
        """Descend from the incumbent, then kick until no kick finds a better node."""
        assert problem.best is not None
        while True:
            local = problem.best[2]
            self._descend(problem, frontier, local, problem.best, frozen=None)
            if problem.best[2] != local:
                continue
            kicks = [local[:j] + (v + 1,) + local[j + 1:]
                     for j, (v, m) in enumerate(zip(local, problem.lattice.max_levels, strict=True)) if v < m]
            for pivot in problem.by_bound(kicks):
                frozen = next(j for j, (a, b) in enumerate(zip(pivot, local, strict=True)) if a != b)
                value = problem.consider(pivot)
                self._descend(problem, frontier, pivot, None if value is None else solution_key(value, pivot), frozen)
                if problem.best[2] != local:
                    break
            else:
                return

    def _descend(self, problem: SearchProblem, frontier: Frontier, node: Node, key: SolutionKey | None,
                 frozen: int | None) -> None:
        """Steps down from ``node`` (of key ``key``; None when unknown, then the first feasible step is taken)
        to its best feasible specialization with a lower key, never lowering attribute ``frozen``."""
        limit = problem.ctx.max_suppressed
        while True:
            steps = [p for i, p in enumerate(self._predecessors(node)) if p is not None and i != frozen]
            threshold, chosen = key, None  # the key to beat: the node's, then the best step's
            for step in problem.by_bound(steps):
                if threshold is not None and problem.bound_key(step) >= threshold:
                    continue
                if frontier.blocker(step) is not None:
                    continue
                value = problem.consider(step)
                stats = problem.evaluator.cache.get(step)
                if stats is None or stats.suppressed_records > limit:
                    continue  # infeasible (or tagged so): its specializations are no better off
                step_key = None if value is None else solution_key(value, step)
                # A step of unknown value is taken only while nothing better is known.
                if (step_key is not None or chosen is None) and (
                        threshold is None or (step_key is not None and step_key < threshold)):
                    threshold, chosen = step_key, step
            if chosen is None:
                return
            node, key = chosen, threshold

    @staticmethod
    def _predecessors(node: Node) -> list[Node | None]:
        """The direct specialization in each attribute (None at level 0), by attribute."""
        return [node[:i] + (v - 1,) + node[i + 1:] if v else None for i, v in enumerate(node)]
