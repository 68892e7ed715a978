"""Flash (Kohlmayer, Prasser, Eckert, Kemper, Kuhn 2012; ARX, seed 001): globally optimal search.

Phase 1 walks the lattice level by level; from every node whose feasibility is still unknown it builds
a greedy path of untagged generalizations and binary-searches it, tagging predictively (a feasible
node's generalizations are feasible, an infeasible node's specializations infeasible). Phase 2 finds
the optimum among the candidates: for a monotone metric only the minimal feasible nodes, otherwise all
feasible nodes, visited in order of a lower bound of the metric and skipped once the bound cannot beat
the incumbent. Without monotone privacy models nothing is tagged and every node is a candidate.
"""

from __future__ import annotations

from ..lattice import Node
from .base import SearchProblem, SearchResult, SearchStrategy


class FlashStrategy(SearchStrategy):
    name = "flash"

    def search(self, problem: SearchProblem) -> SearchResult:
        lattice, space = problem.lattice, problem.space
        order = problem.bound_key  # heuristic order within a level: most promising first

        if problem.monotone_criteria:
            for level in lattice.nodes_by_height():
                for node in sorted(level, key=order):
                    # A node whose bound cannot beat the incumbent is skipped with all its
                    # generalizations (their bounds are at least as large): ARX's pruning by bounds.
                    if space.tag(node) is None and not problem.prunable(node):
                        lowest = self._check_path(problem, self._find_path(problem, node))
                        if lowest is not None:
                            problem.consider(lowest)  # an early incumbent sharpens the pruning
            candidates = [n for n, feasible in space.tags.items() if feasible]
            if problem.metric.monotone:
                candidates = [
                    n for n in candidates if not any(space.tag(p) for p in lattice.predecessors(n))
                ]
        else:
            candidates = list(lattice.nodes())

        for node in sorted(candidates, key=order):
            if problem.prunable(node):
                break  # sorted by bound key: every later candidate is bounded too
            problem.consider(node)
        return problem.result()

    @staticmethod
    def _find_path(problem: SearchProblem, start: Node) -> list[Node]:
        """Greedy path upward through untagged nodes, following the most promising successor."""
        path, node = [start], start
        while True:
            untagged = [
                s for s in problem.lattice.successors(node)
                if problem.space.tag(s) is None and not problem.prunable(s)
            ]
            if not untagged:
                return path
            node = min(untagged, key=problem.bound_key)
            path.append(node)

    @staticmethod
    def _check_path(problem: SearchProblem, path: list[Node]) -> Node | None:
        """Binary search for the lowest feasible node on a chain of generalizations."""
        low, high = 0, len(path) - 1
        while low <= high:
            mid = (low + high) // 2
            if problem.is_feasible(path[mid]):
                high = mid - 1
            else:
                low = mid + 1
        return path[low] if low < len(path) else None
