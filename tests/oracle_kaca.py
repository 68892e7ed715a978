"""A plain-Python KACA (Li, Wong, Fu, Pei 2006; seed 002, spec 002.2) for the local recoding tests: classes of
distinct quasi-identifier combinations merged by the class distance over the hierarchies' weighted hierarchical
distance, one small class at a time (the paper's loop) or in rounds of pairs that share no class (sqlanon's
batched mode). Written from the definitions, apart from the SQL: its own WHD, labels compared as strings.

>>> h = {"x": OracleHierarchy({"a": ["ab", "*"], "b": ["ab", "*"], "c": ["c", "*"]})}
>>> r = kaca([("a",), ("a",), ("b",), ("c",), ("c",)], [h["x"]], k=2)
>>> r.released, r.whd, r.modification_rate   # b, alone, joins the a's under 'ab' (1/2 per cell), not c ('*')
([(('ab',), 0), (('ab',), 1), (('ab',), 2), (('c',), 3), (('c',), 4)], Fraction(3, 10), Fraction(3, 5))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tests.oracle import OracleHierarchy


def whd_to_levels(height: int, weights: str = "uniform", beta: int = 1) -> list[Fraction]:
    """WHD from level 0 to each level: edge a (levels a-1 to a) weighs 1, or 1 / (height - a)^beta."""
    edges = [Fraction(1) if weights == "uniform" else Fraction(1, (height - a) ** beta) for a in range(1, height)]
    total = sum(edges, Fraction(0))
    out, running = [Fraction(0)], Fraction(0)
    for weight in edges:
        running += weight
        out.append(running / total)
    return out


@dataclass
class Class:
    cid: int
    size: int
    levels: tuple[int, ...]
    #: Per quasi-identifier, the labels of a member's values at every level (only those from its level on count).
    paths: tuple[tuple[str | None, ...], ...]

    def key(self) -> tuple:
        return tuple((lv, path[lv:]) for lv, path in zip(self.levels, self.paths, strict=True))


@dataclass
class KacaResult:
    #: (released quasi-identifier labels, record index) of every kept record.
    released: list[tuple[tuple[str | None, ...], int]]
    classes: int
    whd: Fraction
    modification_rate: Fraction


def kaca(  # noqa: PLR0913 - the records, hierarchies and k, then each setting of local_recoding by keyword
         records: Sequence[tuple[str | None, ...]], hierarchies: Sequence[OracleHierarchy], k: int, *,
         merging: str = "one_at_a_time", choice: str = "deterministic", seed: int = 0, weights: str = "uniform",
         beta: int = 1, exact_classes: int = 5000, verdict: Callable[[list[int]], bool | None] | None = None,
         ) -> KacaResult:
    """``verdict(record indices)``: the privacy models' verdict on a class (False: it must merge on; None:
    undecidable, raises ``Unsure``)."""
    return _Kaca(records, hierarchies, k, weights, beta, verdict).run(merging, choice, seed, exact_classes)


class Unsure(Exception):
    """A class's verdict sits on a model's boundary within rounding: the SQL may decide either way."""


class NoRelease(Exception):
    """One class is left and it still fails a model."""


class _Kaca:
    def __init__(self, records: Sequence[tuple[str | None, ...]], hierarchies: Sequence[OracleHierarchy], k: int,
                 weights: str, beta: int, verdict: Callable[[list[int]], bool | None] | None) -> None:
        self.records, self.hierarchies, self.k, self.verdict = records, hierarchies, k, verdict
        self.costs = [whd_to_levels(h.height, weights, beta) for h in hierarchies]
        # Class ids in the order of the values (byte order of the labels, NULL last), as the SQL numbers them.
        combos = sorted(set(records), key=lambda r: tuple((v is None, v or "") for v in r))
        self.classes = {i + 1: Class(i + 1, records.count(r), (0,) * len(hierarchies),
                                     tuple(tuple(h.label(v, lv) for lv in range(h.height))
                                           for v, h in zip(r, hierarchies, strict=True)))
                        for i, r in enumerate(combos)}
        self.member = {r: i + 1 for i, r in enumerate(combos)}

    def own(self, c: Class) -> Fraction:
        return sum((cost[lv] for cost, lv in zip(self.costs, c.levels, strict=True)), Fraction(0))

    def common(self, s: Class, c: Class) -> tuple[int, ...]:
        return tuple(next(j for j in range(max(ls, lc), h.height) if ps[j] == pc[j])
                     for h, ls, lc, ps, pc in zip(self.hierarchies, s.levels, c.levels, s.paths, c.paths, strict=True))

    def distance(self, s: Class, c: Class) -> Fraction:
        joint = sum((cost[lv] for cost, lv in zip(self.costs, self.common(s, c), strict=True)), Fraction(0))
        return (s.size + c.size) * joint - s.size * self.own(s) - c.size * self.own(c)

    def nearest(self, s: Class, block: list[tuple[int, int]]) -> tuple[Fraction, int, int] | None:
        return min(((self.distance(s, c), s.cid, c.cid) for c in self.classes.values() if c.cid != s.cid
                    and all(c.paths[i][j] == s.paths[i][j] for i, j in block)), default=None)

    def small(self) -> list[int]:
        return sorted(c.cid for c in self.classes.values() if c.size < self.k or self.fails(c.cid))

    def fails(self, cid: int) -> bool:
        if self.verdict is None:
            return False
        verdict = self.verdict([i for i, r in enumerate(self.records) if self.member[r] == cid])
        if verdict is None:
            raise Unsure
        return not verdict

    def schedule(self) -> list[list[tuple[int, int]]]:
        """Blocks fine to coarse: raise the level with the most distinct labels among the classes first."""
        heights = [h.height for h in self.hierarchies]
        distinct = [[len({c.paths[i][j] for c in self.classes.values()}) for j in range(h)]
                    for i, h in enumerate(heights)]
        beta, steps = [0] * len(heights), []
        while any(b < h - 1 for b, h in zip(beta, heights, strict=True)):
            i = max((i for i, h in enumerate(heights) if beta[i] < h - 1), key=lambda i: (distinct[i][beta[i]], -i))
            beta[i] += 1
            steps.append([(j, b) for j, (b, h) in enumerate(zip(beta, heights, strict=True)) if b < h - 1])
        return steps

    def run(self, merging: str, choice: str, seed: int, exact_classes: int) -> KacaResult:
        rng = random.Random(seed)
        if merging == "batched" and len(self.classes) > exact_classes:
            for block in self.schedule():
                while self.small() and self.round(self.batch(block)):
                    pass
        while self.small():
            if merging == "batched":
                if len(self.classes) == 1:
                    raise NoRelease
                self.round(self.batch([]))
                continue
            small = self.small()
            if len(self.classes) == 1:
                raise NoRelease
            one = (min(small, key=lambda cid: (self.classes[cid].size, cid)) if choice == "deterministic"
                   else small[rng.randrange(len(small))])
            self.round([self.nearest(self.classes[one], [])])
        return self.result()

    def batch(self, block: list[tuple[int, int]]) -> list[tuple[Fraction, int, int]]:
        """Every small class's nearest; the edges that are the least (distance, small class) at both ends."""
        edges = [e for e in (self.nearest(self.classes[cid], block) for cid in self.small()) if e is not None]
        least: dict[int, tuple[Fraction, int]] = {}
        for dist, a, b in edges:
            for x in (a, b):
                least[x] = min(least.get(x, (dist, a)), (dist, a))
        return [(d, a, b) for d, a, b in edges if least[a] == (d, a) and least[b] == (d, a)]

    def round(self, edges: list[tuple[Fraction, int, int]]) -> bool:
        """Merge the pairs, then classes with equal representatives under the least id; False: no edge."""
        renamed: dict[int, int] = {}
        for _, a, b in edges:
            s, c = self.classes.pop(a), self.classes.pop(b)
            merged = Class(min(a, b), s.size + c.size, self.common(s, c), s.paths)
            self.classes[merged.cid] = merged
            renamed[a] = renamed[b] = merged.cid
        by_key: dict[tuple, list[Class]] = {}
        for c in self.classes.values():
            by_key.setdefault(c.key(), []).append(c)
        self.classes = {}
        for group in by_key.values():
            first = min(group, key=lambda c: c.cid)
            self.classes[first.cid] = Class(first.cid, sum(c.size for c in group), first.levels, first.paths)
            for c in group:
                renamed[c.cid] = first.cid
        self.member = {r: renamed.get(cid, cid) for r, cid in self.member.items()}
        return bool(edges)

    def result(self) -> KacaResult:
        released, distortion, modified = [], Fraction(0), 0
        for index, r in enumerate(self.records):
            c = self.classes[self.member[r]]
            labels = tuple(h.label(v, lv) for h, v, lv in zip(self.hierarchies, r, c.levels, strict=True))
            released.append((labels, index))
            distortion += self.own(c)
            modified += sum(1 for v, label in zip(r, labels, strict=True) if label != v)
        cells = len(self.records) * len(self.hierarchies)
        return KacaResult(released=released, classes=len(self.classes),
                          whd=distortion / cells if cells else Fraction(0),
                          modification_rate=Fraction(modified, cells) if cells else Fraction(0))
