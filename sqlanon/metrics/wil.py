"""WIL: ANON's priority-weighted information loss (seed 000 section 3.2; Stark, Eder, Zatloukal 2006):
sum_i prio_i * phi_i(level_i), phi_i(l) declared per level or l / (h_i - 1)."""

from __future__ import annotations

from fractions import Fraction

from ..evaluation.evaluator import NodeStats
from ..lattice import Node
from .base import InformationLossMetric, MetricContext


def level_loss(ctx: MetricContext, i: int, level: int) -> Fraction:
    """phi_i(level).

    >>> from fractions import Fraction as F
    >>> ctx = MetricContext(1, 0, 1, (5,), (1,), ((0,) * 5,), ((1,) * 5,), 1, (F(1),), (None,))
    >>> level_loss(ctx, 0, 2)
    Fraction(1, 2)
    """
    declared = ctx.level_loss[i]
    if declared is not None:
        return declared[level]
    h = ctx.heights[i]
    return Fraction(level, h - 1) if h > 1 else Fraction(0)


class WilMetric(InformationLossMetric):
    name = "wil"
    monotone = True
    levels_determine_value = True

    def _wil(self, node: Node, ctx: MetricContext) -> Fraction:
        return sum((ctx.priorities[i] * level_loss(ctx, i, lvl) for i, lvl in enumerate(node)), Fraction(0))

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        return self._wil(node, ctx)

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        return self._wil(node, ctx)

    def value_without_evaluation(self, node: Node, ctx: MetricContext, feasible: bool) -> Fraction | None:
        return self._wil(node, ctx)
