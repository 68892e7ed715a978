"""LIGHTNING (Prasser, Bild, Eicher, Spengler, Kohlmayer & Kuhn 2016, "Lightning: Utility-driven anonymization
of high-dimensional data", Transactions on Data Privacy 9(2); ARX's ``LIGHTNINGAlgorithm``), for comparison
with ARX at the same number of checked nodes.

A bottom-up best-first search: every checked node, feasible or not, is queued by its metric value; the node
of least value is expanded (each direct generalization not yet expanded is checked and queued), and every
``stepping``-th expansion (the lattice's height) is instead a depth-first dive without backtracking, always
to the generalization of least value, so that a feasible node is met early. A node whose bound cannot beat
the incumbent is not expanded. Without a budget it ends when the queue does, with the optimum; ARX runs it
with a step or time limit, as ``search.budget`` does here.
"""

from __future__ import annotations

import heapq

from ..lattice import Node
from .base import SearchProblem, SearchResult, SearchStrategy, SolutionKey, solution_key


class LightningStrategy(SearchStrategy):
    name = "lightning"

    def search(self, problem: SearchProblem) -> SearchResult:
        self.problem = problem
        self.utility: dict[Node, SolutionKey] = {}
        self.expanded: set[Node] = set()
        self.insufficient: set[Node] = set()
        self.queue: list[tuple[SolutionKey, Node]] = []
        stepping = max(problem.lattice.max_height, 1)
        bottom = problem.lattice.bottom
        self._check(bottom)
        heapq.heappush(self.queue, (self.utility[bottom], bottom))
        step = 0
        while self.queue:
            _, node = heapq.heappop(self.queue)
            if self._prune(node):
                continue
            step += 1
            if step % stepping == 0:
                self._dfs(node)
            else:
                self._expand(node)
        return problem.result()

    def _check(self, node: Node) -> None:
        """Check a node once, keep its value as its utility, and let a feasible one become the incumbent."""
        if node in self.utility:
            return
        problem = self.problem
        stats = problem.evaluate(node)
        self.utility[node] = solution_key(problem.metric.value(node, stats, problem.ctx), node)
        problem.consider(node)

    def _dfs(self, node: Node) -> None:
        while (node := self._expand(node)) is not None:
            pass

    def _expand(self, node: Node) -> Node | None:
        """Check and queue the generalizations not yet expanded; the one of least utility, if any."""
        best = None
        for successor in self.problem.lattice.successors(node):
            if successor in self.expanded or successor in self.insufficient:
                continue
            self._check(successor)
            heapq.heappush(self.queue, (self.utility[successor], successor))
            if best is None or self.utility[successor] < self.utility[best]:
                best = successor
        self.expanded.add(node)
        return best

    def _prune(self, node: Node) -> bool:
        if node in self.expanded or node in self.insufficient:
            return True
        problem = self.problem
        if problem.best is not None and node != problem.best[2] and problem.prunable(node):
            self.insufficient.add(node)
            return True
        return False
