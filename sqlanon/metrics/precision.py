"""Precision (Sweeney 2002, "Achieving k-anonymity privacy protection using generalization and
suppression"): mean over quasi-identifiers of level_i / (h_i - 1)."""

from __future__ import annotations

from fractions import Fraction

from ..evaluation.evaluator import NodeStats
from ..lattice import Node
from .base import InformationLossMetric, MetricContext


def precision(node: Node, heights: tuple[int, ...]) -> Fraction:
    """Mean of level / (height - 1).

    >>> precision((1, 2), (3, 3))
    Fraction(3, 4)
    """
    parts = [Fraction(lvl, h - 1) if h > 1 else Fraction(0) for lvl, h in zip(node, heights, strict=True)]
    return sum(parts, Fraction(0)) / len(parts)


class PrecisionMetric(InformationLossMetric):
    name = "precision"
    monotone = True
    levels_determine_value = True

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        return precision(node, ctx.heights)

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        return precision(node, ctx.heights)

    def value_without_evaluation(self, node: Node, ctx: MetricContext, feasible: bool) -> Fraction | None:
        return precision(node, ctx.heights)
