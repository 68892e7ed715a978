"""Weighted hierarchical distance (Li, Wong, Fu, Pei, DaWaK 2006; seed 002): the distortion of generalizing a
value from one level of its hierarchy to a higher one, as the weight of the hierarchy's edges climbed over the
weight of all its edges.

In ARX's numbering (level 0 = the value, level H-1 = the top) the edge a joins levels a-1 and a. Weights are
uniform (every edge 1) or by height (edge a weighs 1 / (H - a)^beta: edges near the top weigh most, so a step
near the leaves distorts little). WHD is additive along a path, so a cell's distortion is cumulative[to] -
cumulative[from], and the distortion of a table is the sum over its cells (a suppressed record: every cell
to the top, 1 each). With uniform weights and a full-domain node, the distortion per cell is Sweeney's precision
loss: level / (H - 1) averaged over the quasi-identifiers.

As a search metric (``search.metric: whd``, ``WhdMetric``): the average WHD per quasi-identifier cell of the
released table. A kept cell at level l costs ``cumulative[l]``; a suppressed record 1 per cell. With n records,
s of them suppressed and q quasi-identifiers: ((n - s) * sum_i cumulative_i[l_i] + s * q) / (n * q). A NULL
cell counts as any cell of its column (the level its column is released at). Not monotone: suppressing fewer
records at a generalization can lower the value; the value with nothing suppressed bounds the node and every
generalization of it from below (a kept cell never costs more than 1, and cumulative grows with the level).
"""

from __future__ import annotations

import functools
from fractions import Fraction

from ..evaluation.evaluator import NodeStats
from ..lattice import Node
from .base import InformationLossMetric, MetricContext


def edge_weights(height: int, weights: str = "uniform", beta: float = 1.0) -> tuple[Fraction, ...]:
    """The weights of edges 1 .. height-1.

    >>> edge_weights(4)
    (Fraction(1, 1), Fraction(1, 1), Fraction(1, 1))
    >>> edge_weights(4, "height")
    (Fraction(1, 3), Fraction(1, 2), Fraction(1, 1))
    """
    if weights == "uniform":
        return tuple(Fraction(1) for _ in range(1, height))
    exponent = Fraction(str(beta))
    if exponent.denominator == 1:
        return tuple(Fraction(1, (height - a) ** int(exponent)) for a in range(1, height))
    return tuple(Fraction((height - a) ** -float(beta)) for a in range(1, height))


def cumulative(height: int, weights: str = "uniform", beta: float = 1.0) -> tuple[Fraction, ...]:
    """WHD from level 0 to each level: 0 at level 0, 1 at the top (a hierarchy of height 1: just 0).

    >>> [float(x) for x in cumulative(3)]
    [0.0, 0.5, 1.0]
    """
    edges = edge_weights(height, weights, beta)
    total = sum(edges, Fraction(0))
    out, running = [Fraction(0)], Fraction(0)
    for w in edges:
        running += w
        out.append(running / total)
    return tuple(out)


def whd(height: int, level_from: int, level_to: int, weights: str = "uniform", beta: float = 1.0) -> Fraction:
    """WHD of generalizing from ``level_from`` to ``level_to`` (ARX levels). The survey's examples: a birthday
    hierarchy of height 6 (day, month, year, decade, century, *) taken three levels up, and gender to '*'.

    >>> float(whd(6, 0, 3))
    0.6
    >>> round(float(whd(6, 0, 3, "height", 1)), 4)
    0.3431
    >>> whd(2, 0, 1) == whd(2, 0, 1, "height", 1) == 1
    True
    """
    table = cumulative(height, weights, beta)
    return table[level_to] - table[level_from]



def _tables(ctx: MetricContext) -> tuple[tuple[Fraction, ...], ...]:
    return _cumulative_tables(ctx.heights, *ctx.whd_weights)


@functools.lru_cache(maxsize=16)
def _cumulative_tables(heights: tuple[int, ...], weights: str, beta: float) -> tuple[tuple[Fraction, ...], ...]:
    """Per hierarchy, ``cumulative``: computed once per run, as the search takes the bound of every node."""
    return tuple(cumulative(h, weights, beta) for h in heights)


def distortion_per_record(node: Node, ctx: MetricContext) -> Fraction:
    """The WHD of one kept record at ``node``: the sum over its quasi-identifier cells.

    >>> ctx = MetricContext(records=4, max_suppressed=0, k=2, heights=(6, 2), leaves=(9, 2),
    ...     weight_sums=((0,) * 6, (0, 0)), distinct_codes=None, distinct_rows=4,
    ...     priorities=(Fraction(1),) * 2, level_loss=(None, None))
    >>> distortion_per_record((3, 1), ctx)   # the survey's birthday three levels up (0.6) and gender to '*' (1)
    Fraction(8, 5)
    """
    return sum((table[level] for table, level in zip(_tables(ctx), node, strict=True)), Fraction(0))


class WhdMetric(InformationLossMetric):
    name = "whd"
    monotone = False
    bound_is_unsuppressed_value = True

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        q = len(ctx.heights)
        if ctx.records == 0 or q == 0:
            return Fraction(0)
        kept = ctx.records - stats.suppressed_records
        return (kept * distortion_per_record(node, ctx) + stats.suppressed_records * q) / (ctx.records * q)

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        q = len(ctx.heights)
        return distortion_per_record(node, ctx) / q if q else Fraction(0)
