"""DM*: the monotone discernibility metric (Bayardo and Agrawal 2005, "Data privacy through
optimal k-anonymization"; ARX ``MetricDMStar``): sum over equivalence classes, before suppression, of |class|^2."""

from __future__ import annotations

from fractions import Fraction
from math import prod

from ..evaluation.evaluator import NodeStats
from ..lattice import Node
from .base import InformationLossMetric, MetricContext, products


class DmStarMetric(InformationLossMetric):
    name = "dm_star"
    monotone = True
    class_statistics = ("dm_star",)
    reads_distinct_codes = True

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        assert stats.dm_star is not None, "DM* is counted by every check (class_statistics)"
        return Fraction(stats.dm_star)

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        # sum s^2 >= n^2 / classes (Cauchy-Schwarz), and classes <= min(prod distinct_i, distinct rows);
        # both counts shrink along a generalization, so the bound grows: valid for all generalizations.
        # DM* is an integer, so the bound is rounded up: as tight, and the search sorts and compares integral
        # bounds as plain ints, which is much faster than comparing Fractions.
        assert ctx.distinct_codes is not None, "reads_distinct_codes: the summary counts them for DM*"
        return Fraction(_bound(prod(ctx.distinct_codes[i][level] for i, level in enumerate(node)), ctx))

    def lower_bounds(self, max_levels: tuple[int, ...], ctx: MetricContext) -> list[int]:
        assert ctx.distinct_codes is not None, "reads_distinct_codes: the summary counts them for DM*"
        codes = products([d[: m + 1] for d, m in zip(ctx.distinct_codes, max_levels, strict=True)])
        return [_bound(c, ctx) for c in codes]


def _bound(code_combinations: int, ctx: MetricContext) -> int:
    """ceil(n^2 / classes), at least n, with classes <= min(code combinations, distinct rows); 0 without rows."""
    classes = min(code_combinations, ctx.distinct_rows)
    if classes == 0:
        return 0
    return max(-(-ctx.records * ctx.records // classes), ctx.records)
