"""Running a strategy within its budget: the result keeps the best node found, says whether it is proven
optimal, and carries the best lower bound on the optimum that the checks made so far prove."""

from __future__ import annotations

from .base import SearchProblem, SearchResult, SearchStrategy
from .frontier import Frontier
from .limits import BudgetExhausted

#: Corners the bound of a stopped search may expand (no SQL: a fraction of a second to a few seconds).
SETTLING_POPS = 20_000


def run_search(strategy: SearchStrategy, problem: SearchProblem) -> SearchResult:
    try:
        result = strategy.search(problem)
    except BudgetExhausted:
        result = problem.result()
        result.optimal = False
    if problem.limits is not None:
        result.stopped = problem.limits.stopped
    if result.lower_bound is None:
        if result.optimal:
            result.lower_bound = result.value
        else:
            frontier = Frontier(problem)
            frontier.next(max_pops=SETTLING_POPS)
            result.optimal, result.lower_bound = frontier.proven, frontier.lower_bound()
    return result
