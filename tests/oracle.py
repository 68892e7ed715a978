"""A tiny plain-Python reference evaluator for k-anonymity, written from SEMANTICS.md only.

It shares no code with sqlanon: the property tests compare sqlanon's SQL results against it.
Everything is exact (ints and Fractions); ``display`` gives the float a report would show.

Hierarchies are given as ``{value: [label_level_1, ..., label_level_h-1]}``; level 0 is the value
itself. A ``None`` key maps NULL explicitly (level 0 of NULL stays NULL).

>>> h = {"a": ["ab", "*"], "b": ["ab", "*"], "c": ["c", "*"]}
>>> o = Oracle([{"x": "a"}, {"x": "b"}, {"x": None}], ["x"], {"x": h}, k=2, max_suppressed=1)
>>> r = o.evaluate((1,))
>>> sorted(r.classes.items(), key=repr)
[(('ab',), 2), ((None,), 1)]
>>> r.suppressed, r.feasible, r.values["dm_star"], r.values["aecs"]
(1, True, Fraction(5, 1), Fraction(2, 1))
>>> o.optimum("height")
((1,), Fraction(1, 1))
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

METRIC_NAMES = ("loss", "dm_star", "wil", "precision", "height", "aecs", "whd")


class OracleHierarchy:
    """One generalization hierarchy as written (no duplicates: a dict has one row per leaf)."""

    def __init__(self, mapping: Mapping[Any, Sequence[str]]) -> None:
        self.mapping = {(None if v is None else str(v)): [str(x) for x in labels] for v, labels in mapping.items()}
        heights = {len(labels) + 1 for labels in self.mapping.values()}
        assert len(heights) == 1, "all rows of a hierarchy need the same height"
        self.height = heights.pop()
        self.leaves = [v for v in self.mapping if v is not None]
        #: N of the Loss metric: non-NULL rows of the hierarchy.
        self.n_leaves = len(self.leaves)
        tops = {self.mapping[v][-1] for v in self.leaves} if self.height > 1 else set(self.leaves)
        self.top_label = next(iter(tops)) if len(tops) == 1 else None

    def label(self, value: str | None, level: int) -> str | None:
        """The generalized value of ``value`` at ``level`` (extended match for NULL)."""
        if level == 0:
            return value
        if value is None:
            if None in self.mapping:
                return self.mapping[None][level - 1]
            return self.top_label if level == self.height - 1 else None
        return self.mapping[value][level - 1]

    def rows_with_label(self, label: str, level: int) -> int:
        """c of the Loss metric: non-NULL hierarchy rows whose label at ``level`` equals ``label``."""
        return sum(1 for v in self.leaves if self.label(v, level) == label)

    def cell_cost(self, value: str | None, level: int) -> Fraction:
        """(c - 1) / (N - 1) of one non-suppressed cell, with SEMANTICS.md's NULL rule."""
        label = self.label(value, level)
        if label is None:
            return Fraction(0)  # a NULL that is not generalized costs nothing
        if value is None and None not in self.mapping and level == self.height - 1:
            return Fraction(1)  # unmapped NULL generalized to the top value
        if self.n_leaves <= 1:
            return Fraction(0)  # (c - 1) / (N - 1) with c = N = 1: nothing is lost
        c = self.rows_with_label(label, level)
        # An explicitly mapped NULL may carry a label no leaf has (c = 0): it loses nothing, not less.
        return Fraction(max(c - 1, 0), self.n_leaves - 1)


@dataclass(frozen=True)
class NodeResult:
    node: tuple[int, ...]
    #: Generalized quasi-identifier tuple -> class size (before suppression).
    classes: Counter
    suppressed: int
    suppressed_classes: int
    feasible: bool
    #: Exact metric values; for loss this is prod_i (1 + v_i) (compare it, then ``display``).
    values: dict[str, Fraction]


class Oracle:
    def __init__(  # noqa: PLR0913 - the rows, the QIs, their hierarchies, then the privacy settings by keyword
        self,
        rows: Sequence[Mapping[str, Any]],
        qis: Sequence[str],
        hierarchies: Mapping[str, Mapping[Any, Sequence[str]]],
        *,
        null_handling: str = "extended",
        k: int,
        max_suppressed: int,
        priorities: Mapping[str, Any] | None = None,
        level_loss: Mapping[str, Sequence[Any] | None] | None = None,
        max_levels: Mapping[str, int | None] | None = None,
    ) -> None:
        assert null_handling in ("extended", "basic")
        self.qis = list(qis)
        self.hier = [OracleHierarchy(hierarchies[q]) for q in self.qis]
        self.heights = tuple(h.height for h in self.hier)
        records = [tuple(None if r[q] is None else str(r[q]) for q in self.qis) for r in rows]
        self.total_rows = len(records)
        if null_handling == "basic":
            records = [r for r in records if all(v is not None for v in r)]
        self.removed_for_null = self.total_rows - len(records)
        self.records = records
        self.n = len(records)
        self.k = k
        self.max_suppressed = max_suppressed
        priorities = priorities or {}
        self.priorities = [Fraction(str(priorities.get(q, 1))) for q in self.qis]
        level_loss = level_loss or {}
        self.level_loss = [
            None if level_loss.get(q) is None else [Fraction(str(x)) for x in level_loss[q]] for q in self.qis
        ]
        max_levels = max_levels or {}
        self.max_levels = tuple(
            h.height - 1 if max_levels.get(q) is None else min(max_levels[q], h.height - 1)
            for q, h in zip(self.qis, self.hier, strict=True)
        )

    # -- one node ---------------------------------------------------------------------------------
    def generalize(self, record: tuple, node: Sequence[int]) -> tuple:
        return tuple(h.label(v, lvl) for h, v, lvl in zip(self.hier, record, node, strict=True))

    def phi(self, i: int, level: int) -> Fraction:
        declared = self.level_loss[i]
        if declared is not None:
            return declared[level]
        h = self.heights[i]
        return Fraction(level, h - 1) if h > 1 else Fraction(0)

    def whd(self, node: tuple[int, ...], suppressed: int) -> Fraction:
        """Average WHD per cell, uniform weights, cell by cell: a kept cell at level l of a hierarchy with h
        levels is l / (h - 1) of the way to the top, a suppressed record's cells are all the way."""
        q = len(self.qis)
        if self.n == 0 or q == 0:
            return Fraction(0)
        total = Fraction(0)
        for index in range(self.n):
            for level, h in zip(node, self.heights, strict=True):
                total += 1 if index < suppressed else (Fraction(level, h - 1) if h > 1 else Fraction(0))
        return total / (self.n * q)

    def evaluate(self, node: Sequence[int]) -> NodeResult:
        node = tuple(node)
        keys = [self.generalize(r, node) for r in self.records]
        classes = Counter(keys)
        failing = {key for key, size in classes.items() if size < self.k}
        suppressed_flags = [key in failing for key in keys]
        suppressed = sum(suppressed_flags)
        q = len(self.qis)

        product = Fraction(1)
        for i, (h, level) in enumerate(zip(self.hier, node, strict=True)):
            if self.n == 0:
                v = Fraction(0)
            else:
                total = sum(
                    (Fraction(1) if sup else h.cell_cost(rec[i], level))
                    for rec, sup in zip(self.records, suppressed_flags, strict=True)
                )
                v = total / self.n
            product *= 1 + v
        kept_classes = len(classes) - len(failing)
        values = {
            "loss": product,
            "dm_star": Fraction(sum(s * s for s in classes.values())),
            "wil": sum((self.priorities[i] * self.phi(i, lvl) for i, lvl in enumerate(node)), Fraction(0)),
            "precision": sum(
                (Fraction(lvl, h - 1) if h > 1 else Fraction(0) for lvl, h in zip(node, self.heights, strict=True)),
                Fraction(0),
            ) / q,
            "height": Fraction(sum(node)),
            "aecs": Fraction(self.n - suppressed, kept_classes) if kept_classes else Fraction(0),
            "whd": self.whd(node, suppressed),
        }
        return NodeResult(
            node=node,
            classes=classes,
            suppressed=suppressed,
            suppressed_classes=len(failing),
            feasible=suppressed <= self.max_suppressed,
            values=values,
        )

    def modification_rate(self, node: Sequence[int]) -> Fraction:
        """The modification rate of a node (seed 002): the considered records' quasi-identifier cells whose
        released label differs from the value (as text: a label equal to the value, as a hierarchy may repeat a
        value at level 1, is no modification; a NULL kept as NULL neither), a suppressed record (its class below
        k) counting all its cells.

        >>> h = {"a": ["a", "*"], "b": ["bc", "*"], "c": ["bc", "*"]}
        >>> o = Oracle([{"x": v} for v in ("a", "a", "b", "c", None)], ["x"], {"x": h}, k=2, max_suppressed=1)
        >>> o.modification_rate((1,))  # a kept as 'a', b and c modified, NULL alone: suppressed
        Fraction(3, 5)
        """
        node = tuple(node)
        q = len(self.qis)
        if self.n == 0 or q == 0:
            return Fraction(0)
        keys = [self.generalize(r, node) for r in self.records]
        classes = Counter(keys)
        modified = 0
        for record, key in zip(self.records, keys, strict=True):
            if classes[key] < self.k:
                modified += q
            else:
                modified += sum(1 for value, label in zip(record, key, strict=True) if label != value)
        return Fraction(modified, self.n * q)

    def display(self, metric: str, value: Fraction) -> float:
        """The float a report shows (loss: the q-th root of the product, minus one)."""
        if metric == "loss":
            return float(value) ** (1.0 / len(self.qis)) - 1.0
        return float(value)

    # -- search -----------------------------------------------------------------------------------
    def nodes(self) -> list[tuple[int, ...]]:
        return list(itertools.product(*(range(m + 1) for m in self.max_levels)))

    def optimum(self, metric: str) -> tuple[tuple[int, ...], Fraction] | None:
        """Exhaustive optimum: least value, then lowest height, then lexicographic levels."""
        best = None
        for node in self.nodes():
            result = self.evaluate(node)
            if not result.feasible:
                continue
            key = (result.values[metric], sum(node), node)
            if best is None or key < best:
                best = key
        if best is None:
            return None
        return best[2], best[0]
