"""Loss: Iyengar's loss metric with ARX's aggregation (Iyengar 2002, "Transforming data to satisfy
privacy constraints"; ARX ``MetricMDNMLoss``), exactly as defined in SEMANTICS.md.

For QI i at level l, v_i = mean over the n records of 1 (suppressed) or (c - 1) / (N - 1);
total = (prod_i (1 + v_i)) ** (1 / q) - 1. Nodes are compared on an exact integer (the product
times a constant denominator): the q-th root is strictly monotone, so this compares losses exactly.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

from ..evaluation.evaluator import NodeStats
from ..lattice import Node
from .base import InformationLossMetric, MetricContext, products


def unit_weight(big_n: int) -> int:
    """D = max(N - 1, 1): the weight of a fully lost cell (a suppressed record, a NULL at the top)."""
    return max(big_n - 1, 1)


def _denominators(ctx: MetricContext) -> list[int]:
    return [ctx.records * unit_weight(big_n) for big_n in ctx.leaves]


def loss_numerator(
    node: Node, ctx: MetricContext, suppressed: int, suppressed_weights: tuple[int, ...] | None
) -> int:
    """prod_i (1 + v_i) times the node-independent denominator prod_i d_i, an exact integer.

    With D_i = max(N_i - 1, 1) and d_i = n D_i, 1 + v_i = (d_i + S D_i + kept weight) / d_i: a suppressed
    record costs D_i / D_i = 1, a kept cell its weight (c - 1, or D_i for a NULL at the top) over D_i.
    Comparing numerators therefore compares losses exactly, with plain integer arithmetic.

    >>> ctx = MetricContext(records=4, max_suppressed=0, k=2, heights=(2,), leaves=(3,),
    ...     weight_sums=((0, 8),), distinct_codes=((3, 1),), distinct_rows=3, priorities=(Fraction(1),),
    ...     level_loss=(None,))
    >>> loss_numerator((1,), ctx, 0, None)   # every record generalized to '*': v = 8 / (4 * 2) = 1
    16
    """
    units, factors = _factors(ctx)
    total = 1
    for i, level in enumerate(node):
        factor = factors[i][level]
        if suppressed:
            factor += suppressed * units[i] - (suppressed_weights[i] if suppressed_weights else 0)
        total *= factor
    return total


def _factors(ctx: MetricContext) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """D_i and, per QI and level, d_i + the weight of all records: the factor of a node with nothing
    suppressed. The search takes the bound of every lattice node, so this is computed once per context
    (looked up by identity: hashing the context's Fractions cost more than the bound itself)."""
    hit = _FACTORS.get(id(ctx))
    if hit is not None and hit[0] is ctx:
        return hit[1]
    units = tuple(unit_weight(big_n) for big_n in ctx.leaves)
    factors = tuple(
        tuple(ctx.records * unit + total for total in sums) for unit, sums in zip(units, ctx.weight_sums, strict=True)
    )
    if len(_FACTORS) >= 8:
        _FACTORS.clear()
    _FACTORS[id(ctx)] = (ctx, (units, factors))  # the context is kept alive, so its id is not reused
    return units, factors


_FACTORS: dict[int, tuple[MetricContext, tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]] = {}


class LossMetric(InformationLossMetric):
    name = "loss"
    monotone = False
    needs_loss_weights = True
    bound_is_unsuppressed_value = True

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        return Fraction(loss_numerator(node, ctx, stats.suppressed_records, stats.suppressed_weights))

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        # Without the suppression term: each suppressed record costs 1 >= (c - 1) / (N - 1), and c only
        # grows along a generalization, so this bound is valid and monotone (SEMANTICS.md).
        return Fraction(loss_numerator(node, ctx, 0, None))

    def lower_bounds(self, max_levels: tuple[int, ...], ctx: MetricContext) -> list[int]:
        _, factors = _factors(ctx)
        return products([f[: m + 1] for f, m in zip(factors, max_levels, strict=True)])

    def value_without_evaluation(self, node: Node, ctx: MetricContext, feasible: bool) -> Fraction | None:
        if feasible and ctx.max_suppressed == 0:
            return self.lower_bound(node, ctx)  # nothing can be suppressed: the bound is exact
        return None

    def bound_given_suppressed(self, node: Node, ctx: MetricContext, suppressed: int) -> Fraction:
        """With S records suppressed, QI i's factor is d_i + W + S D_i - b, where b, the weight of the
        suppressed cells, is at most W (the weight of all records at the level) and at most S D_i (no cell
        weighs more than D_i, see ``unit_weight``). So the value with the heaviest b, min(W, S D_i), bounds it:
        a factor of d_i + max(W, S D_i), exact at a level of weight 0 (every level 0 of a hierarchy without
        repeated values), and above the unsuppressed bound as soon as S D_i exceeds W. A feasibility check
        gives S; the weights query it spares (each QI's weight summed per class) cost FARS on PostgreSQL
        twice the check."""
        units, _ = _factors(ctx)
        heaviest = tuple(min(ctx.weight_sums[i][level], suppressed * units[i]) for i, level in enumerate(node))
        return Fraction(loss_numerator(node, ctx, suppressed, heaviest))

    def display(self, value: Fraction, ctx: MetricContext) -> float:
        q = len(ctx.heights)
        product = Fraction(value) / prod(_denominators(ctx))
        return float(product) ** (1.0 / q) - 1.0
