"""ANON's priority-based best-first search (seed 000, Algorithm 2; Stark, Eder, Zatloukal 2006).

Nodes are expanded from the bottom in order of a lower bound of the metric (for WIL, precision and
height the bound is the value itself, so the first feasible node popped is optimal, as in ANON). For
metrics that are not monotone (Loss, AECS) feasible nodes are expanded too, and the search stops when
the smallest bound in the queue cannot beat the incumbent. Generalization limits bound the lattice.
"""

from __future__ import annotations

import heapq
from fractions import Fraction

from ..lattice import Node
from .base import SearchProblem, SearchResult, SearchStrategy, solution_key


class BestFirstStrategy(SearchStrategy):
    name = "best_first"

    def search(self, problem: SearchProblem) -> SearchResult:
        lattice, metric, ctx = problem.lattice, problem.metric, problem.ctx
        start = lattice.bottom
        bounds: dict[Node, Fraction] = {start: metric.lower_bound(start, ctx)}
        queue = [(solution_key(bounds[start], start), start)]
        while queue:
            key, node = heapq.heappop(queue)
            if problem.best is not None and key >= problem.best:
                break  # nothing queued or unseen can beat the incumbent (bounds hold for generalizations)
            feasible = problem.is_feasible(node)
            if feasible:
                problem.consider(node)
                if metric.monotone:
                    continue  # its generalizations cannot be better than this node
            # A bound of this node holds for its generalizations; for a monotone metric so does its value.
            inherited = bounds[node]
            stats = problem.evaluator.cache.get(node)
            if metric.monotone and stats is not None:
                inherited = max(inherited, metric.value(node, stats, ctx))
            for succ in lattice.successors(node):
                if succ in bounds:
                    continue
                bounds[succ] = max(metric.lower_bound(succ, ctx), inherited)
                heapq.heappush(queue, (solution_key(bounds[succ], succ), succ))
        return problem.result()
