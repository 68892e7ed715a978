"""A search's budget (``search.budget``): how many nodes it may check in SQL and for how long.

Any strategy may be stopped by it. The check is made before each new SQL check (``SearchProblem.evaluate``),
so a run stops within one node query of its budget, keeps the best transformation found so far, and says
that it is not proven optimal (with a lower bound: ``frontier.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


class BudgetExhausted(Exception):  # noqa: N818 - a signal, not an error: the search stops and keeps its best
    """Raised inside a search when its budget is spent; carries why, for the run's report."""


@dataclass
class SearchLimits:
    """``nodes``: distinct nodes checked in SQL (as ARX counts "checked" transformations); ``seconds``: wall
    time from the search's start. Either may be None (no limit)."""

    nodes: int | None = None
    seconds: float | None = None
    started: float = field(default_factory=time.perf_counter)
    #: Why the search stopped, once it has ("nodes budget of 500 checked nodes", ...).
    stopped: str | None = None

    @property
    def bounded(self) -> bool:
        return self.nodes is not None or self.seconds is not None

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def check(self, checked: Callable[[], int]) -> None:
        """Raise ``BudgetExhausted`` when another SQL check would exceed the budget."""
        if self.nodes is not None and checked() >= self.nodes:
            self.stop(f"its budget of {self.nodes:,} checked nodes was spent")
        if self.seconds is not None and self.elapsed() >= self.seconds:
            self.stop(f"its budget of {self.seconds:g} seconds was spent")

    def stop(self, why: str) -> None:
        self.stopped = why
        raise BudgetExhausted(why)
