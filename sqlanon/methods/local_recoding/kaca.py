"""KACA (K-Anonymization by Clustering in Attribute hierarchies; Li, Wong, Fu, Pei, DaWaK 2006; seed 002) in the
database: the class table and the hierarchies are tables, every merge decision is one set-based statement, and
Python only counts the rounds.

A class is a representative tuple (a level and an ancestor code per quasi-identifier) and its records. While a
class has fewer than k records, it is merged with the class whose merge adds the least WHD distortion (the
class distance), into the closest common generalization of both; classes whose representatives become equal
are one class.

``one_at_a_time`` is the paper's loop: one small class per round (the least by size, then id; or one drawn by a
seeded generator). ``batched`` merges many pairs per round: every small class finds its nearest, and each edge
that is the least at both of its classes is merged (those edges share no class, and the least edge of all is
among them), so a round costs one pass over (small classes x classes) whatever the number of merges.

That pass grows with the square of the classes (CUP: 63,433 classes, all below k, 4e9 pairs a round). Past
``exact_classes`` classes, batched KACA first searches in blocks: the classes sharing their ancestors at levels
``beta`` (one level per quasi-identifier), a hash join. ``beta`` starts at the values and rises one level of
one quasi-identifier at a time, the one whose level splits the classes most finely first; at each step, rounds
run until no small class finds a partner in its block. Merges within a block stay at or below ``beta``, so
every class can take part in the next block. At the top of every hierarchy the blocks are the whole table: the
last small classes get their exact nearest. (An approximation of KACA's nearest for the classes merged in
blocks; ``benchmarks/local_recoding_benchmark.py`` measures what it costs in distortion.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from ...engines.base import EngineAdapter
from ...errors import NoSolutionError
from ...metrics.whd import cumulative

TEMPLATES = "methods/local_recoding/"

#: Past this common denominator the WHD weights are rounded to multiples of 1 / 2**24 (only height weights with a
#: fractional beta get there): the scaled distances must stay far from BIGINT's limit.
MAX_DENOMINATOR = 1 << 24


def scaled_costs(heights: list[int], weights: str, beta: float) -> tuple[int, list[list[int]]]:
    """(scale, per hierarchy the WHD from level 0 to each level times the scale), exact integers where the
    weights allow.

    >>> scaled_costs([3, 4], "uniform", 1.0)
    (6, [[0, 3, 6], [0, 2, 4, 6]])
    """
    tables = [cumulative(h, weights, beta) for h in heights]
    scale = 1
    for table in tables:
        for value in table:
            scale = lcm(scale, Fraction(value).denominator)
    if scale > MAX_DENOMINATOR:
        scale = MAX_DENOMINATOR
    return scale, [[round(Fraction(v) * scale) for v in table] for table in tables]


def blocking_schedule(heights: list[int], distinct: list[list[int]]) -> list[list[tuple[int, int]]]:
    """The blocks of the blocked rounds (``Kaca.schedule``), from the distinct ancestors per level.

    >>> blocking_schedule([3, 2], [[9, 4, 1], [5, 1]])
    [[(0, 1), (1, 0)], [(0, 1)], []]
    """
    beta, steps = [0] * len(heights), []
    while any(b < h - 1 for b, h in zip(beta, heights, strict=True)):
        i = max((i for i, h in enumerate(heights) if beta[i] < h - 1), key=lambda i: (distinct[i][beta[i]], -i))
        beta[i] += 1
        steps.append([(j, b) for j, (b, h) in enumerate(zip(beta, heights, strict=True)) if b < h - 1])
    return steps


@dataclass(frozen=True)
class Clustering:
    """What KACA did: the merge rounds, the merges, and the classes and records it left or suppressed."""

    rounds: int
    merges: int
    classes: int
    suppressed_classes: int
    #: Rounds that searched in blocks (the first ones, on tables of more than ``exact_classes`` classes).
    blocked_rounds: int = 0


class Kaca:
    """The loop over one session's class and member tables (``create_classes``/``create_members``)."""

    def __init__(self, adapter: EngineAdapter, scratch: Callable[[str], str], *, classes: str, members: str,
                 attrs: list[dict], k: int, judge: Callable[[str, str], str] | None = None) -> None:
        """``judge(classes, members)``: with privacy models, makes the table of the classes that fail k or a
        model (find_failing_classes.sql.j2's) and returns its name; the classes that must merge are those."""
        self.adapter, self.scratch = adapter, scratch
        self.classes, self.members, self.attrs, self.k = classes, members, attrs, k
        self.judge = judge
        self.failing: str | None = None
        self._judged()
        self.rounds = self.merges = self.suppressed_classes = self.blocked_rounds = 0

    def _run(self, template: str, **context: object) -> list[tuple]:
        return self.adapter.run(TEMPLATES + template, **context)

    def _judged(self) -> None:
        if self.judge is not None:
            old, self.failing = self.failing, self.judge(self.classes, self.members)
            if old is not None:
                self.adapter.drop_tables([old])

    def small(self) -> tuple[int, int, int, int | None]:
        """(classes below k or failing a model, their records, all classes, the least of them by size then id)."""
        count, records, total, least = self._run("count_small.sql.j2", classes=self.classes, k=self.k,
                                                 failing=self.failing)[0]
        return int(count), int(records), int(total), None if least is None else int(least)

    def nearest(self, one: int | None, block: list[tuple[int, int]] | None = None) -> str:
        edges = self.scratch(f"lre{self.rounds}")
        self._run("nearest.sql.j2", edges=edges, classes=self.classes, attrs=self.attrs, k=self.k, one=one,
                  block=block or [], failing=self.failing)
        return edges

    def schedule(self) -> list[list[tuple[int, int]]]:
        """The blocks of the blocked rounds, fine to coarse: the levels ``beta`` as (quasi-identifier, level) of
        those below their top. Each step raises the quasi-identifier whose current level has the most distinct
        ancestors among the classes (the most fragmenting), ties to the first."""
        counts = [int(v) for v in self._run("count_codes.sql.j2", classes=self.classes, attrs=self.attrs)[0]]
        distinct, at = [], 0
        for attr in self.attrs:
            distinct.append(counts[at:at + attr["height"]])
            at += attr["height"]
        return blocking_schedule([attr["height"] for attr in self.attrs], distinct)

    def suppress_outliers(self, limit: int) -> int:
        """Suppress the small classes whose nearest merge costs most per record, up to ``limit`` records; returns
        the classes suppressed."""
        small, _, before, _ = self.small()
        if limit <= 0 or small == 0:
            return 0
        edges = self.nearest(None)
        self._run("suppress_outliers.sql.j2", members=self.members, classes=self.classes, edges=edges, limit=limit)
        self._run("drop_suppressed.sql.j2", classes=self.classes, members=self.members)
        self.adapter.drop_tables([edges])
        self._judged()
        self.suppressed_classes = before - self.small()[2]
        return self.suppressed_classes

    def merge(self, edges: str) -> None:
        """One round's merges (merge.sql.j2), the class table replaced by the next one."""
        merged, following = self.scratch(f"lrm{self.rounds}"), self.scratch(f"lrc{self.rounds}")
        self._run("merge.sql.j2", table=merged, classes=self.classes, edges=edges, attrs=self.attrs)
        self._run("next_classes.sql.j2", table=following, merged=merged, attrs=self.attrs)
        self._run("move_members.sql.j2", members=self.members, merged=merged)
        self.adapter.drop_tables([edges, merged, self.classes])
        self.classes = following
        self._judged()

    def run(self, merging: str, choice: str, seed: int, exact_classes: int,
            progress: Callable[[int, int], None] | None = None) -> Clustering:
        """Merge until no class is below k. The caller has checked that the records are at least k."""
        rng = random.Random(seed)
        small, _, total, least = self.small()
        first = small
        if merging == "batched" and total > exact_classes and small:
            for block in self.schedule():
                while small:
                    edges = self.nearest(None, block)
                    if int(self.adapter.run("count_table.sql.j2", table=(edges,))[0][0]) == 0:
                        self.adapter.drop_tables([edges])
                        break
                    small, total, least = self._round(edges, total, first, progress)
                self.blocked_rounds = self.rounds
        while small:
            one = None
            if merging == "one_at_a_time":
                one = least if choice == "deterministic" else self._draw(rng)
            if total == 1:  # one class left, and it fails a privacy model: no merge can help
                raise NoSolutionError("local recoding merged the whole table into one class, which still fails a "
                                      "privacy model: no release of this table meets them (see the models' "
                                      "parameters, or the sensitive values the table holds)")
            small, total, least = self._round(self.nearest(one), total, first, progress)
        return Clustering(rounds=self.rounds, merges=self.merges, classes=total,
                          suppressed_classes=self.suppressed_classes, blocked_rounds=self.blocked_rounds)

    def _round(self, edges: str, total: int, first: int, progress: Callable[[int, int], None] | None
               ) -> tuple[int, int, int | None]:
        """One round's merges; then (classes still to merge, all classes, the least of them by size then id)."""
        self.merge(edges)
        self.rounds += 1
        small, _, after, least = self.small()
        self.merges += total - after
        if progress is not None:
            progress(first - small, first)
        return small, after, least

    def _draw(self, rng: random.Random) -> int:
        """A small class drawn uniformly (KACA line 3) by a seeded generator: the same on every engine."""
        ids = [int(row[0]) for row in self._run("small_classes.sql.j2", classes=self.classes, k=self.k,
                                                 failing=self.failing)]
        return ids[rng.randrange(len(ids))]
