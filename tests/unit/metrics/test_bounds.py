"""Metrics' bounds of every node at once (``lower_bounds``) equal their node-by-node ``lower_bound``."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from sqlanon.evaluation.evaluator import NodeStats
from sqlanon.lattice.search.base import _fast
from sqlanon.metrics import METRICS
from sqlanon.metrics.base import MetricContext, products


@st.composite
def contexts(draw: st.DrawFn) -> tuple[MetricContext, tuple[int, ...]]:
    heights = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    records = draw(st.integers(0, 500))
    # distinct codes shrink up the hierarchy (a level is a coarsening of the one below)
    distinct = tuple(
        tuple(sorted(draw(st.lists(st.integers(0 if records == 0 else 1, 60), min_size=h, max_size=h)), reverse=True))
        for h in heights
    )
    weights = tuple(tuple(sorted(draw(st.lists(st.integers(0, 10**6), min_size=h, max_size=h)))) for h in heights)
    ctx = MetricContext(
        records=records, max_suppressed=draw(st.integers(0, records)), k=draw(st.integers(1, 10)),
        heights=heights, leaves=tuple(draw(st.integers(1, 200)) for _ in heights), weight_sums=weights,
        distinct_codes=distinct, distinct_rows=draw(st.integers(0, 10**4)),
        priorities=tuple(Fraction(1) for _ in heights), level_loss=tuple(None for _ in heights),
    )
    max_levels = tuple(draw(st.integers(0, h - 1)) for h in heights)  # limits, as a config's max_levels sets them
    return ctx, max_levels


@settings(max_examples=200, deadline=None)
@given(case=contexts())
def test_bounds_of_every_node_match_the_bound_of_each(case: tuple[MetricContext, tuple[int, ...]]) -> None:
    ctx, max_levels = case
    nodes = list(itertools.product(*(range(m + 1) for m in max_levels)))
    for name, cls in METRICS.items():
        table = cls().lower_bounds(max_levels, ctx)
        if table is None:
            continue
        expected = [_fast(cls().lower_bound(node, ctx)) for node in nodes]
        assert table == expected, name
        assert all(type(v) is int for v in table), name


def test_products_follow_itertools_product_order() -> None:
    columns = [(2, 3), (5,), (7, 11, 13)]
    assert products(columns) == [a * b * c for a, b, c in itertools.product(*columns)]
    assert products([]) == [1]


def test_loss_and_dm_star_give_bounds_at_once() -> None:
    assert {name for name, cls in METRICS.items() if cls().lower_bounds((0,), _one_qi()) is not None} >= {
        "loss", "dm_star"
    }


def _one_qi() -> MetricContext:
    return MetricContext(records=4, max_suppressed=0, k=2, heights=(2,), leaves=(3,), weight_sums=((0, 8),),
                         distinct_codes=((3, 1),), distinct_rows=3, priorities=(Fraction(1),), level_loss=(None,))


@st.composite
def suppressions(draw: st.DrawFn) -> tuple[MetricContext, tuple[int, ...], int, tuple[int, ...]]:
    """A node, the Loss weight of every record's cell per QI at the node's level (at most D_i = max(N_i - 1, 1),
    as encoding gives them), and which records are suppressed there."""
    qis = draw(st.integers(1, 3))
    records = draw(st.integers(1, 30))
    leaves = tuple(draw(st.integers(1, 50)) for _ in range(qis))
    node = tuple(draw(st.integers(0, 2)) for _ in range(qis))
    cells = [draw(st.lists(st.integers(0, max(n - 1, 1)), min_size=records, max_size=records)) for n in leaves]
    if draw(st.booleans()):  # a level of weight 0 (a level 0 without repeated values) on the first QI
        cells[0] = [0] * records
    suppressed = draw(st.sets(st.integers(0, records - 1)))
    weight_sums = tuple(
        tuple(sum(cells[i]) if j == node[i] else draw(st.integers(0, 10**4)) for j in range(3)) for i in range(qis)
    )
    ctx = MetricContext(
        records=records, max_suppressed=records, k=2, heights=(3,) * qis, leaves=leaves, weight_sums=weight_sums,
        distinct_codes=None, distinct_rows=records, priorities=(Fraction(1),) * qis, level_loss=(None,) * qis,
    )
    return ctx, node, len(suppressed), tuple(sum(cells[i][r] for r in suppressed) for i in range(qis))


@settings(max_examples=300, deadline=None)
@given(case=suppressions())
def test_loss_bound_from_the_suppressed_count_lies_between_the_bound_and_the_value(case) -> None:
    ctx, node, suppressed, weights = case
    loss = METRICS["loss"]()
    bound = loss.bound_given_suppressed(node, ctx, suppressed)
    value = loss.value(node, _stats(node, suppressed, weights), ctx)
    assert loss.lower_bound(node, ctx) <= bound <= value
    if all(ctx.weight_sums[i][level] == 0 for i, level in enumerate(node)):
        assert bound == value  # nothing suppressed weighs anything: the suppressed count is all there is


def test_loss_bound_from_the_suppressed_count_is_tighter_than_the_unsuppressed_bound() -> None:
    # 10 records, N = 5 (D = 4), a level of total weight 6 with 3 records suppressed: the suppressed cells
    # weigh at most 6, while 3 records cost 12, so the factor is at least 40 + 12 = 52 (unsuppressed: 46)
    ctx = MetricContext(records=10, max_suppressed=3, k=2, heights=(2,), leaves=(5,), weight_sums=((0, 6),),
                        distinct_codes=None, distinct_rows=10, priorities=(Fraction(1),), level_loss=(None,))
    loss = METRICS["loss"]()
    assert loss.lower_bound((1,), ctx) == 46
    assert loss.bound_given_suppressed((1,), ctx, 3) == 52
    assert loss.bound_given_suppressed((0,), ctx, 3) == loss.value((0,), _stats((0,), 3, (0,)), ctx) == 52


def test_only_loss_bounds_its_value_by_the_suppressed_count() -> None:
    ctx = _one_qi()
    assert {name for name, cls in METRICS.items() if cls().bound_given_suppressed((1,), ctx, 1) is not None} == {
        "loss"
    }


def _stats(node: tuple[int, ...], suppressed: int, weights: tuple[int, ...]) -> NodeStats:
    return NodeStats(node=node, classes=None, suppressed_records=suppressed, suppressed_classes=None, dm_star=None,
                     suppressed_weights=weights)
