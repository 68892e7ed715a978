"""AECS: average equivalence class size (LeFevre, DeWitt, Ramakrishnan 2006, "Mondrian"):
(n - suppressed) / number of non-suppressed classes; 0 when every record is suppressed."""

from __future__ import annotations

from fractions import Fraction

from ..evaluation.evaluator import NodeStats
from ..lattice import Node
from .base import InformationLossMetric, MetricContext


class AecsMetric(InformationLossMetric):
    name = "aecs"
    monotone = False
    class_statistics = ("classes", "suppressed_classes")

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        assert stats.classes is not None and stats.suppressed_classes is not None, "counted by every check"
        kept_classes = stats.classes - stats.suppressed_classes
        if kept_classes == 0:
            return Fraction(0)
        return Fraction(ctx.records - stats.suppressed_records, kept_classes)

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        # Every kept class has at least k records; only a node suppressing everything can go below.
        if ctx.max_suppressed >= ctx.records:
            return Fraction(0)
        return Fraction(ctx.k)
