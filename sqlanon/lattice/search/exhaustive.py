"""Exhaustive search: evaluates every node within the limits in SQL. The reference for the others."""

from __future__ import annotations

from ...errors import ConfigError
from .base import SearchProblem, SearchResult, SearchStrategy, solution_key


class ExhaustiveStrategy(SearchStrategy):
    name = "exhaustive"

    def __init__(self, max_nodes: int = 100_000, force: bool = False) -> None:
        self.max_nodes = max_nodes
        self.force = force

    def search(self, problem: SearchProblem) -> SearchResult:
        size = problem.lattice.size
        if size > self.max_nodes and not self.force:
            raise ConfigError(
                f"search.strategy: exhaustive search of {size} nodes exceeds search.max_exhaustive_nodes "
                f"({self.max_nodes}); raise the limit, set search.force: true, or use flash"
            )
        for node in problem.lattice.nodes():
            stats = problem.evaluate(node)  # no tagging shortcuts: every node is checked in SQL
            problem.resolved.add(node)
            if stats.suppressed_records <= problem.ctx.max_suppressed:
                key = solution_key(problem.metric.value(node, stats, problem.ctx), node)
                if problem.best is None or key < problem.best:
                    problem.best = key
        return problem.result()
