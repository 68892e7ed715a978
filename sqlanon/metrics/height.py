"""Height: the sum of generalization levels (the lattice level of a node; Samarati 2001)."""

from __future__ import annotations

from fractions import Fraction

from ..evaluation.evaluator import NodeStats
from ..lattice import Node
from .base import InformationLossMetric, MetricContext


class HeightMetric(InformationLossMetric):
    name = "height"
    monotone = True
    levels_determine_value = True

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        return Fraction(sum(node))

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        return Fraction(sum(node))

    def value_without_evaluation(self, node: Node, ctx: MetricContext, feasible: bool) -> Fraction | None:
        return Fraction(sum(node))
