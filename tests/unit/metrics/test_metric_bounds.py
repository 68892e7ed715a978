"""Every metric's lower bound against the metric's VALUE, not against another bound.

A search may prune a node and all its generalizations by ``lower_bound`` (or the table ``lower_bounds``), so
the bound of a node must be <= the metric's value at that node and at every generalization of it (for AECS:
every feasible one; its bound is k, and only a node suppressing everything goes below). The values are the
plain-Python oracle's (tests/oracle.py, written from SEMANTICS.md, no code shared with sqlanon); the bounds
read the metric context that sqlanon's SQL builds from the table (frequency-set summary: records, Loss
weights, distinct codes per level), on DuckDB and PostgreSQL. Where a bound is exact it must equal the value
(WIL, precision and height; Loss with nothing suppressed), and Loss's bound from a suppressed count lies
between its plain bound and its value.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

import pytest
from hypothesis import event, example, given, settings

from sqlanon.metrics import METRICS
from sqlanon.metrics.base import MetricContext
from sqlanon.session import Session
from tests.helpers import prepare
from tests.oracle import Oracle
from tests.strategies import SETTINGS, Case, cases, fresh

pytestmark = pytest.mark.spark


def in_oracle_units(name: str, value: Fraction | int, ctx: MetricContext) -> Fraction:
    """sqlanon compares Loss as prod_i (1 + v_i) times prod_i n max(N_i - 1, 1); the oracle keeps the product."""
    if name == "loss":
        return Fraction(value) / prod(ctx.records * max(leaves - 1, 1) for leaves in ctx.leaves)
    return Fraction(value)


def context(engine, case: Case) -> tuple[MetricContext, tuple[int, ...]]:
    """The metric context of a run (DM* as metric: its summary also counts the distinct codes)."""
    table = fresh("src")
    case.create_table(engine, table)
    with Session(case.config(engine, table, metric="dm_star")) as session:
        data = prepare(session)
    return data.ctx, data.lattice.max_levels


#: Pinned: every (qa, qb) combination three times, so the DM* bound is exact at the bottom (4 classes of 3:
#: ceil(12^2 / 4) = 36 = 4 * 3^2) and at the top (one class: 12^2); a bound one too high fails here.
EVEN_CLASSES = Case(
    qis=["qa", "qb"], hierarchies={"qa": {"a": ["*"], "b": ["*"]}, "qb": {"x": ["*"], "y": ["*"]}},
    types={"qa": "VARCHAR", "qb": "VARCHAR"}, level_loss={"qa": None, "qb": None},
    rows=[{"qa": a, "qb": b, "note": None} for a in "ab" for b in "xy" for _ in range(3)],
    k=3, suppression_limit=0, null_handling="extended", priorities={"qa": 1.0, "qb": 1.0},
)
#: Pinned: a class below k at the bottom (Loss suppresses it there), NULLs, a declared WIL loss, priorities.
UNEVEN_CLASSES = Case(
    qis=["qa", "qb"],
    hierarchies={"qa": {"a1": ["a", "*"], "a2": ["a", "*"], "b1": ["b", "*"]},
                 "qb": {1: ["*"], 2: ["*"], 3: ["*"]}},
    types={"qa": "VARCHAR", "qb": "INTEGER"}, level_loss={"qa": [0, 0.25, 1], "qb": None},
    rows=[{"qa": a, "qb": b, "note": None}
          for a, b, n in (("a1", 1, 4), ("a2", 1, 3), ("b1", 2, 5), (None, 3, 1), ("a1", None, 2)) for _ in range(n)],
    k=2, suppression_limit=3, null_handling="extended", priorities={"qa": 2.0, "qb": 0.5},
)


@settings(max_examples=25, **SETTINGS)
@given(case=cases(with_limits=True))
@example(case=EVEN_CLASSES)
@example(case=UNEVEN_CLASSES)
def test_every_bound_is_at_most_the_value_at_the_node_and_its_generalizations(engine, case: Case) -> None:
    oracle: Oracle = case.oracle()
    if case.input_error_expected(oracle):
        return
    ctx, max_levels = context(engine, case)
    assert (ctx.records, ctx.max_suppressed) == (oracle.n, oracle.max_suppressed)
    assert max_levels == oracle.max_levels
    nodes = oracle.nodes()  # Lattice.nodes() order, the order of lower_bounds
    results = {node: oracle.evaluate(node) for node in nodes}
    up = {node: [g for g in nodes if all(a <= b for a, b in zip(node, g, strict=True))] for node in nodes}
    for name, cls in METRICS.items():
        metric = cls()
        table = metric.lower_bounds(max_levels, ctx)
        assert table is None or len(table) == len(nodes), name
        for index, node in enumerate(nodes):
            bounds = {"lower_bound": in_oracle_units(name, metric.lower_bound(node, ctx), ctx)}
            if table is not None:
                bounds["lower_bounds"] = in_oracle_units(name, table[index], ctx)
            for g in up[node]:
                if name == "aecs" and not results[g].feasible:
                    continue
                value = results[g].values[name]
                for which, bound in bounds.items():
                    assert bound <= value, (
                        f"{name}.{which} of {node} = {bound} > value {value} at {g}; {case.qis} k={case.k}")
            at_node = results[node]
            bound = bounds["lower_bound"]
            if metric.levels_determine_value:
                assert bound == at_node.values[name], (name, node)
            if metric.bound_is_unsuppressed_value and at_node.suppressed == 0:
                assert bound == at_node.values[name], (name, node)
            given_count = metric.bound_given_suppressed(node, ctx, at_node.suppressed)
            if given_count is not None:
                assert bound <= in_oracle_units(name, given_count, ctx) <= at_node.values[name], (name, node)
            if name == "dm_star" and bound == at_node.values[name]:
                event("DM* bound exact at some node")
