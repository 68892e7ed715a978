"""The boxes of cloaking in the database: the region of each dimension, and the rounds of top-down splits
(table mode) or of quadtree descents (request mode), each round one statement over every open box.

A dimension is the region [x0, x0 + w) of one cloaked column, cut into 2**level equal cells; time is counted
in microseconds (``integral``: cell bounds are rounded to whole microseconds, so a released bound is a
timestamp exactly). Python keeps the region's numbers and counts the rounds; the records stay in the state
table (``create_state.sql.j2``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ...engines.base import EngineAdapter
from ...errors import InputError

TEMPLATES = "methods/cloaking/"

#: Microseconds in a second: time dimensions count microseconds; windows and lengths are given in seconds.
US = 1_000_000


@dataclass(frozen=True)
class Dimension:
    """One cloaked column: its region [x0, x0 + w) and how its values are numbers."""

    column: str
    time: bool  # cloak: time (split in time levels, else in space levels)
    timestamp: bool  # a timestamp or date column (counted in microseconds); False: numbers
    x0: float
    w: float
    nulls: int

    @property
    def integral(self) -> bool:
        return self.timestamp

    def context(self) -> dict[str, Any]:
        return {"x0": self.x0, "w": self.w, "integral": self.integral, "time": self.time, "column": self.column}

    def unit(self, value: float) -> float:
        """A length of this dimension in the column's unit (seconds for timestamps)."""
        return value / US if self.timestamp else value


def region_number(value: float | datetime, timestamp: bool, where: str) -> float:
    """A bound of ``cloaking.region`` as the dimension counts it."""
    if isinstance(value, datetime):
        if not timestamp:
            raise InputError(f"{where}: a date-time bound for a column of numbers; give numbers")
        aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return float(round(aware.timestamp() * US))
    return float(value * US) if timestamp else float(value)


def default_region(low: float | None, high: float | None, timestamp: bool) -> tuple[float, float]:
    """(x0, w) of the data's bounding box, its upper edge moved out by 1/1024 of its width (at least one unit:
    a microsecond for time) so that the largest value lies inside the half-open region.

    >>> default_region(0.0, 1024.0, False)
    (0.0, 1025.0)
    >>> default_region(5.0, 5.0, False)
    (5.0, 1e-06)
    """
    if low is None or high is None:  # every value NULL: any region will do
        return 0.0, 1.0
    width = high - low
    if timestamp:
        return low, float(math.ceil(width + max(width / 1024, 1.0)))
    # At least a millionth of a unit wide: cells of the finest levels stay far above the doubles' underflow.
    w = max(width + width / 1024, 1e-6)
    while low + w <= high:  # the margin lost to rounding (huge values): widen until the largest is inside
        w *= 2
    return low, w


@dataclass
class Rounds:
    """What the rounds did: their number and the records they suppressed."""

    rounds: int = 0
    suppressed: int = 0


def split(  # noqa: PLR0913 - keyword-only: the rounds' settings, named at the call site as in the config
    adapter: EngineAdapter, scratch: Callable[[str], str], state: str, done: str, *, dims: list[Dimension],
    k: int, subject: bool, budget: int, space_levels: int, time_levels: int, request: bool,
    tick: Callable[[int, int], None],
) -> Rounds:
    """Run rounds until no box is open; every record's final state lands in ``done``."""
    result = Rounds()
    space = [d.context() for d in dims if not d.time]
    total = space_levels + (0 if request else time_levels) + 1
    while True:
        result.rounds += 1
        new = scratch(f"cs{result.rounds}")
        if request:
            adapter.run(TEMPLATES + "request_round.sql.j2", table=new, state=state, dims=space, all_dims=len(dims),
                        k=k, subject=subject, space_levels=space_levels)
        else:
            adapter.run(TEMPLATES + "split_round.sql.j2", table=new, state=state, dims=[d.context() for d in dims],
                        k=k, subject=subject, budget=budget - result.suppressed, space_levels=space_levels,
                        time_levels=time_levels)
        adapter.run(TEMPLATES + "move_final.sql.j2", done=done, state=new)
        open_records, suppressed = (int(v or 0) for v in adapter.run(TEMPLATES + "count_state.sql.j2", state=new)[0])
        adapter.drop_tables([state])
        state = new
        result.suppressed += suppressed
        tick(result.rounds, total)
        if open_records == 0:
            adapter.drop_tables([state])
            return result
