"""Metrics' bounds of every node at once (``lower_bounds``) equal their node-by-node ``lower_bound``."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

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
