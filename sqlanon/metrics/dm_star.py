"""DM*: the monotone discernibility metric (Bayardo and Agrawal 2005, "Data privacy through
optimal k-anonymization"; ARX ``MetricDMStar``): sum over equivalence classes, before suppression, of |class|^2."""

from __future__ import annotations

from fractions import Fraction
from math import prod

from ..evaluation.evaluator import NodeStats
from ..lattice import Node
from .base import InformationLossMetric, MetricContext


class DmStarMetric(InformationLossMetric):
    name = "dm_star"
    monotone = True
    class_statistics = ("dm_star",)

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        assert stats.dm_star is not None, "DM* is counted by every check (class_statistics)"
        return Fraction(stats.dm_star)

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        # sum s^2 >= n^2 / classes (Cauchy-Schwarz), and classes <= min(prod distinct_i, distinct rows);
        # both counts shrink along a generalization, so the bound grows: valid for all generalizations.
        # DM* is an integer, so the bound is rounded up: as tight, and the search sorts and compares integral
        # bounds as plain ints (ADULT k=5 5%: its Python time without the queries 95 -> 53 ms).
        classes = min(prod(ctx.distinct_codes[i][level] for i, level in enumerate(node)), ctx.distinct_rows)
        if classes == 0:
            return Fraction(0)
        return Fraction(max(-(-ctx.records * ctx.records // classes), ctx.records))
