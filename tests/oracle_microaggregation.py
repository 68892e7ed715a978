"""Plain-Python reference for microaggregation (the tests' oracle; no database, no numpy).

MDAV as in Domingo-Ferrer & Mateo-Sanz 2002 / seed 004 section 004.2: standardize each attribute (z-score with
the population standard deviation, a constant attribute contributing 0), then, while at least 3k records
remain, take the record farthest from the centroid of the remaining ones (xr), the record farthest from xr
(xs), and group xr with its k-1 nearest remaining records, then xs with its k-1 nearest of those left; with
2k..3k-1 left, one more group around the record farthest from the centroid; the rest is the last group.
Squared Euclidean distance; every tie goes to the lower row number.

``near_tie`` reports whether a decision was within a relative 1e-9 of going the other way, so that property
tests can leave out inputs where double rounding in SQL may legitimately decide otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

EPS = 1e-9


def standardize(rows: Sequence[Sequence[float]], how: str = "z_score") -> list[list[float]]:
    d = len(rows[0]) if rows else 0
    out = [list(map(float, r)) for r in rows]
    for j in range(d):
        col = [r[j] for r in out]
        n = len(col)
        if how == "none":
            continue
        if how == "range":
            lo, hi = min(col), max(col)
            for r in out:
                r[j] = 0.0 if hi == lo else (r[j] - lo) / (hi - lo)
            continue
        mean = sum(col) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in col) / n)
        for r in out:
            r[j] = 0.0 if sd == 0 else (r[j] - mean) / sd
    return out


def _dist(a: Sequence[float], b: Sequence[float]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


@dataclass
class Mdav:
    groups: list[list[int]] = field(default_factory=list)
    near_tie: bool = False


def mdav(z: Sequence[Sequence[float]], k: int) -> Mdav:
    """Groups (lists of row indexes, in the order MDAV forms them) of the standardized rows ``z``."""
    result = Mdav()
    remaining = list(range(len(z)))

    def farthest(candidates: list[int], point: Sequence[float]) -> int:
        scored = sorted((-_dist(z[i], point), i) for i in candidates)
        if len(scored) > 1 and abs(scored[0][0] - scored[1][0]) <= EPS * max(1.0, abs(scored[0][0])):
            result.near_tie = True
        return scored[0][1]

    def nearest(candidates: list[int], point: Sequence[float]) -> list[int]:
        scored = sorted((_dist(z[i], point), i) for i in candidates)
        if len(scored) > k and abs(scored[k - 1][0] - scored[k][0]) <= EPS * max(1.0, abs(scored[k][0])):
            result.near_tie = True
        return [i for _, i in scored[:k]]

    def centroid(candidates: list[int]) -> list[float]:
        d = len(z[0])
        return [sum(z[i][j] for i in candidates) / len(candidates) for j in range(d)]

    while len(remaining) >= 3 * k:
        xr = farthest(remaining, centroid(remaining))
        xs = farthest(remaining, z[xr])
        g1 = nearest(remaining, z[xr])
        remaining = [i for i in remaining if i not in set(g1)]
        g2 = nearest(remaining, z[xs])
        remaining = [i for i in remaining if i not in set(g2)]
        result.groups += [g1, g2]
    if len(remaining) >= 2 * k:
        xr = farthest(remaining, centroid(remaining))
        g1 = nearest(remaining, z[xr])
        remaining = [i for i in remaining if i not in set(g1)]
        result.groups.append(g1)
    if remaining:
        result.groups.append(remaining)
    return result


def information_loss(z: Sequence[Sequence[float]], groups: Sequence[Sequence[int]]) -> tuple[float, float, float]:
    """(SSE, SST, IL = 100 * SSE / SST) of a partition of the standardized rows."""
    d = len(z[0])
    n = sum(len(g) for g in groups)
    members = [i for g in groups for i in g]
    mean = [sum(z[i][j] for i in members) / n for j in range(d)]
    sst = sum(_dist(z[i], mean) for i in members)
    sse = 0.0
    for g in groups:
        c = [sum(z[i][j] for i in g) / len(g) for j in range(d)]
        sse += sum(_dist(z[i], c) for i in g)
    return sse, sst, (100 * sse / sst if sst else 0.0)
