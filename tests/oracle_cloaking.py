"""A plain-Python oracle of cloaking (``sqlanon/methods/cloaking``): the same rules as the SQL rounds, written
record by record, so that every record's released box and the suppressed records can be compared exactly.

Table mode: every box of a root (the unchanged quasi-identifiers) is split top-down, one level per round, in
space (each space dimension halved) or in time (halved), when every non-empty part keeps k records (or
subjects), or the parts below k fit the remaining suppression budget (cheapest splits first, then by box key);
where both splits are possible the cheaper, at equal cost space while ls <= lt. Request mode: each record
descends the quadtree while its cell one level down holds k records (or subjects) of its root and window.

Cells follow the SQL's arithmetic exactly (IEEE doubles): the guess floor((x - x0) / size) corrected by the
bounds x0 + c * size (floored for time, counted in microseconds).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any


class NoRelease(Exception):
    """More records in roots below k than the suppression limit allows: the method refuses (exit 3)."""


@dataclass(frozen=True)
class Dim:
    x0: float
    w: float
    integral: bool
    time: bool

    def bound(self, c: int, size: float) -> float:
        value = self.x0 + c * size
        return float(math.floor(value)) if self.integral else value

    def cell(self, x: float | None, size: float) -> int:
        if x is None:
            return -1
        guess = math.floor((x - self.x0) / size)
        if x < self.bound(guess, size):
            return guess - 1
        if x >= self.bound(guess + 1, size):
            return guess + 1
        return guess

    def interval(self, x: float | None, size: float) -> tuple[float, float] | None:
        if x is None:
            return None
        c = self.cell(x, size)
        return self.bound(c, size), self.bound(c + 1, size)


@dataclass
class Record:
    values: tuple[float | None, ...]
    root: Any
    subject: Any
    window: int = 0
    ls: int = 0
    lt: int = 0
    st: int = 0  # 0 open, 1 final, 2 suppressed


def _count(records: list[Record], subject: bool) -> int:
    return len({r.subject for r in records}) if subject else len(records)


def _cells(r: Record, dims: list[Dim], plus_space: int = 0, plus_time: int = 0) -> tuple[int, ...]:
    return tuple(d.cell(x, d.w / 2 ** ((r.lt + plus_time) if d.time else (r.ls + plus_space)))
                 for d, x in zip(dims, r.values, strict=True))


def _option(members: list[Record], dims: list[Dim], time: bool, level: int, max_level: int, k: int,
            subject: bool) -> tuple[int | None, dict[tuple, list[Record]]]:
    """(waste, children) of splitting a box in space or time; waste None when the split is not possible."""
    children: dict[tuple, list[Record]] = defaultdict(list)
    for r in members:
        child = _cells(r, dims, plus_space=0 if time else 1, plus_time=1 if time else 0)
        children[tuple(c for c, d in zip(child, dims, strict=True) if d.time == time)].append(r)
    if level >= max_level or max(_count(m, subject) for m in children.values()) < k:
        return None, children
    return sum(len(m) for m in children.values() if _count(m, subject) < k), children


def _choose(s: int | None, t: int | None, ls: int, lt: int) -> tuple[str | None, int | None]:
    if s is None and t is None:
        return None, None
    if t is None:
        return "s", s
    if s is None:
        return "t", t
    if s != t:
        return ("s", s) if s < t else ("t", t)
    return ("s" if ls <= lt else "t"), s


def _split(children: dict[tuple, list[Record]], opt: str, k: int, subject: bool) -> int:
    """Take a split: every record one level down, those of parts below k suppressed; returns how many."""
    suppressed = 0
    for part in children.values():
        small = _count(part, subject) < k
        for r in part:
            if opt == "s":
                r.ls += 1
            else:
                r.lt += 1
            if small:
                r.st = 2
                suppressed += 1
    return suppressed


def table_mode(records: list[Record], dims: list[Dim], k: int, subject: bool, budget: int, space_levels: int,
               time_levels: int) -> None:
    """Settle every record's levels and state in place."""
    has_space, has_time = any(not d.time for d in dims), any(d.time for d in dims)
    spent = 0
    while True:
        boxes: dict[tuple, list[Record]] = defaultdict(list)
        for r in records:
            if r.st == 0:
                boxes[(r.root, r.ls, r.lt, *_cells(r, dims))].append(r)
        if not boxes:
            return
        plans = []
        for key, members in boxes.items():
            ls, lt = key[1], key[2]
            s = _option(members, dims, False, ls, space_levels, k, subject) if has_space else (None, {})
            t = _option(members, dims, True, lt, time_levels, k, subject) if has_time else (None, {})
            opt, waste = _choose(s[0], t[0], ls, lt)
            plans.append((waste or 0, key, opt, waste, {"s": s[1], "t": t[1]}))
        plans.sort(key=lambda p: (p[0], p[1]))
        running, round_spent = 0, 0
        for order, key, opt, waste, children in plans:
            running += order
            if opt is None or (waste != 0 and running > budget - spent):
                for r in boxes[key]:
                    r.st = 1
                continue
            round_spent += _split(children[opt], opt, k, subject)
        spent += round_spent


def request_mode(records: list[Record], dims: list[Dim], k: int, subject: bool, space_levels: int) -> None:
    space = [d for d in dims if not d.time]
    while True:
        open_ = [r for r in records if r.st == 0]
        if not open_:
            return
        cells: dict[tuple, list[Record]] = defaultdict(list)
        for r in open_:
            key = tuple(d.cell(x, d.w / 2 ** (r.ls + 1)) for d, x in zip(space, r.values, strict=False))
            cells[(r.root, r.window, r.ls, *key)].append(r)
        for members in cells.values():
            deeper = members[0].ls < space_levels and _count(members, subject) >= k
            for r in members:
                if deeper:
                    r.ls += 1
                else:
                    r.st = 1


def settle(  # noqa: PLR0913 - keyword-only: the method's settings, as in its config
    records: list[Record], dims: list[Dim], k: int, *, subject: bool, budget: int, space_levels: int,
    time_levels: int, request: bool, window: float | None = None,
) -> list[Record]:
    """The whole method: roots below k suppressed, then the rounds. Returns the records, settled."""
    if request and window is not None:
        t = next(i for i, d in enumerate(dims) if d.time)
        for r in records:
            r.window = dims[t].cell(r.values[t], window)
    roots: dict[tuple, list[Record]] = defaultdict(list)
    for r in records:
        roots[(r.root, r.window, tuple(v is None for v in r.values))].append(r)
    for members in roots.values():
        if _count(members, subject) < k:
            for r in members:
                r.st = 2
    suppressed = sum(r.st == 2 for r in records)
    if suppressed > budget:
        raise NoRelease(suppressed)
    if request:
        request_mode(records, dims, k, subject, space_levels)
    else:
        table_mode(records, dims, k, subject, budget - suppressed, space_levels, time_levels)
    return records


def released_box(r: Record, dims: list[Dim], request_window: float | None = None) -> tuple:
    """The record's released intervals, one (low, high) or None per dimension."""
    out = []
    for d, x in zip(dims, r.values, strict=True):
        if d.time and request_window is not None:
            out.append(d.interval(x, request_window))
        else:
            out.append(d.interval(x, d.w / 2 ** (r.lt if d.time else r.ls)))
    return tuple(out)
