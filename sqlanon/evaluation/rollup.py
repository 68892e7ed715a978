"""Rolled-up code tables: the code table aggregated with a QI or two at level 1, for the nodes above that.

A node whose level of QI i is at least 1 never tells level-0 codes of QI i apart, so its classes are the same
when counted from a copy of the code table grouped by level 1 of QI i: fewer rows wherever level 1 merges
many level-0 codes (ARX rolls every node up from a snapshot of a specialization, seed 001 section 2; here a
few copies are made once, as a table per node cost more than the query it saved). PostgreSQL's checks cost per
row: FARS's 36,709 rows are 9,561 with its age and day of death at level 1, and most of Flash's probes lie above
that. Where most rows are single records (CUP: 63,433 rows, 63,441 records) nothing merges, and none is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Smallest code table worth rolling up: below it a check's fixed cost dominates.
MIN_ROWS = 8_000
#: Largest: copies of a large code table cost seconds, which a run's few checks do not repay.
MAX_ROWS = 200_000
#: Rows per record above which the code table is left as it is: its rows are mostly single records.
MAX_DENSITY = 0.8
#: A rolled-up table is kept when it has at most this share of the code table's rows.
KEEP_SHARE = 0.8
#: QIs rolled up: each one's table, and the table with both.
QIS = 2


@dataclass(frozen=True)
class RolledUp:
    table: str
    #: Per QI the lowest level it keeps (1 for a rolled-up QI, else 0): it serves nodes at or above these.
    levels: tuple[int, ...]
    rows: int


def candidates(heights: Sequence[int], codes: Sequence[Sequence[int]], rows: int, records: int) -> list[int]:
    """The QIs to roll up to level 1, those whose level 1 has the fewest codes for their level-0 codes first
    (``codes[i][j]``: QI i's codes at level j in the data, an estimate will do); none for a code table of
    fewer than ``MIN_ROWS`` or more than ``MAX_ROWS`` rows, or of more than ``MAX_DENSITY`` rows per record."""
    if not MIN_ROWS <= rows <= MAX_ROWS or rows > MAX_DENSITY * records:
        return []
    eligible = [i for i, h in enumerate(heights) if h >= 2 and codes[i][0] > 1 and codes[i][1] < codes[i][0]]
    return sorted(eligible, key=lambda i: (codes[i][1] / codes[i][0], i))[:QIS]


def serving(node: Sequence[int], tables: Sequence[RolledUp]) -> RolledUp | None:
    """The smallest rolled-up table whose levels the node is at or above, if any."""
    usable = [t for t in tables if all(level >= low for level, low in zip(node, t.levels, strict=True))]
    return min(usable, key=lambda t: t.rows, default=None)
