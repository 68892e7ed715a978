"""Searches within a budget (``search.budget``), and what they claim about what they return.

Whatever the budget, every strategy returns a feasible transformation that the run verifies in SQL (or fails
with a message that the budget ran out first), and the lower bound it reports never exceeds the optimum of the
plain-Python oracle (``tests/oracle.py``); a result marked optimal is the oracle's optimum. Without a budget
the heuristics return the exhaustive optimum (``test_search_optimum.py``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.errors import NoSolutionError
from sqlanon.lattice import Lattice
from sqlanon.lattice.search.base import SearchProblem
from sqlanon.lattice.search.frontier import Dominance, Frontier
from sqlanon.methods.generalization.config import BudgetConfig
from tests.oracle import METRIC_NAMES
from tests.strategies import SETTINGS, Case, cases, close, fresh

BUDGETED = ("top_down", "lightning", "flash", "best_first", "exhaustive")


def budgeted(cfg, nodes: int):
    search = cfg.search.model_copy(update={"budget": BudgetConfig(nodes=nodes)})
    return cfg.model_copy(update={"search": search})


@settings(max_examples=8, **SETTINGS)
@given(case=cases(qi_counts=(2, 4)), data=st.data())
def test_a_budgeted_search_returns_a_verified_feasible_node_and_a_true_lower_bound(engine, case: Case,
                                                                                   data: st.DataObject) -> None:
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    if case.input_error_expected(oracle):
        return
    size = len(oracle.nodes())
    metric = data.draw(st.sampled_from(METRIC_NAMES), label="metric")
    optimum = oracle.optimum(metric)
    for strategy in BUDGETED:
        nodes = data.draw(st.integers(1, size), label=f"{strategy} budget")
        cfg = budgeted(case.config(engine, table, metric=metric, strategy=strategy), nodes)
        where = f"strategy={strategy} metric={metric} budget={nodes} of {size}"
        if optimum is None:
            with pytest.raises(NoSolutionError):
                sqlanon.anonymize(cfg)
            continue
        try:
            result = sqlanon.anonymize(cfg)
        except NoSolutionError as exc:
            assert "before any transformation was found feasible" in str(exc), where
            assert strategy != "top_down", f"{where}: top_down checks the top first"
            event("budget spent before a feasible node")
            continue
        node = tuple(result.transformation[q] for q in case.qis)
        at_node = oracle.evaluate(node)
        assert at_node.feasible and result.verified is True, where
        assert result.nodes_evaluated <= nodes, where
        best = oracle.display(metric, optimum[1])
        assert result.lower_bound is not None and result.lower_bound <= best + 1e-9, where
        assert result.lower_bound <= result.metrics[metric] + 1e-9, where
        if result.optimal:
            event("proven optimal within the budget")
            assert node == optimum[0] and close(result.metrics[metric], best), where
        else:
            event("not proven")
            assert result.stopped is not None and result.optimality_gap >= 0, where


@pytest.mark.spark  # the budgeted-search property above takes minutes on a local Spark (README, Tests)
def test_a_search_stopped_on_seconds_says_so(engine, tmp_path) -> None:
    """A time budget too small for any check: top_down has checked the top only, or nothing, and says why."""
    case = Case(qis=["qa"], hierarchies={"qa": {"a": ["x", "*"], "b": ["x", "*"], "c": ["y", "*"]}},
                types={"qa": "VARCHAR"}, level_loss={"qa": None}, rows=[{"qa": v, "note": None} for v in "aabbc"],
                k=2, suppression_limit=0, null_handling="extended", priorities={"qa": 1.0})
    table = fresh("src")
    case.create_table(engine, table)
    cfg = case.config(engine, table, strategy="top_down")
    cfg = cfg.model_copy(update={"search": cfg.search.model_copy(update={"budget": BudgetConfig(seconds=1e-9)})})
    with pytest.raises(NoSolutionError, match="its budget of 1e-09 seconds was spent before any transformation"):
        sqlanon.anonymize(cfg, dry_run=True)


class _Metric:
    """Height as the metric: the bound is the value, and every node's value is its height."""

    monotone = True
    needs_loss_weights = False

    def lower_bound(self, node, ctx) -> Fraction:
        return Fraction(sum(node))


def _problem(lattice: Lattice, blockers: list[tuple[int, ...]], resolved: set[tuple[int, ...]]) -> SearchProblem:
    problem = SearchProblem.__new__(SearchProblem)  # no evaluator: the frontier reads only what is set here
    problem.lattice, problem.metric, problem.ctx, problem.core = lattice, _Metric(), None, None
    problem.best, problem.blockers, problem.resolved, problem._bounds = None, blockers, resolved, {}
    problem.limits = None
    return problem


def test_the_frontier_bound_is_the_least_bound_outside_the_settled_nodes() -> None:
    """On a 4x4 lattice with (2, 1) infeasible with its specializations, the lowest nodes that may be feasible
    are (3, 0) and (0, 2): height 2 bounds the optimum. A blocker that is wrongly placed too high, as (3, 3)
    would be, lifts the bound above the optimum of 2: the bound is only as true as its blockers, which
    ``SearchProblem`` adds only for checked nodes (monotone models, or a check's certain suppression)."""
    lattice = Lattice(heights=(4, 4), max_levels=(3, 3))
    frontier = Frontier(_problem(lattice, [(2, 1)], set()))
    assert frontier.next() == (0, 2)  # the unsettled node of least bound
    assert frontier.lower_bound() == 2 and not frontier.proven
    wrong = Frontier(_problem(lattice, [(3, 3)], set()))
    assert wrong.next() is None and wrong.lower_bound() is None  # "nothing feasible": no bound at all
    lifted = Frontier(_problem(lattice, [(2, 3), (3, 1)], set()))
    lifted.next()
    assert lifted.lower_bound() == 5  # above the true optimum of 2 if (0, 2) were feasible: the claim fails


def test_an_incumbent_the_frontier_cannot_beat_is_proven() -> None:
    lattice = Lattice(heights=(3, 3), max_levels=(2, 2))
    problem = _problem(lattice, [(1, 0), (0, 1)], {(0, 2)})
    problem.best = (2, 2, (0, 2))
    frontier = Frontier(problem)
    assert frontier.next() is None and frontier.proven and frontier.lower_bound() == 2
    problem = _problem(lattice, [(1, 0), (0, 1)], {(2, 0)})
    problem.best = (2, 2, (2, 0))  # same value, but (0, 2) comes first in the tie order and is unsettled
    frontier = Frontier(problem)
    assert frontier.next() == (0, 2) and not frontier.proven and frontier.lower_bound() == 2


@pytest.mark.parametrize(("a", "b"), [((0, 0, 0), (0, 0, 0)), ((1, 2, 3), (1, 2, 3)), ((0, 3, 1), (1, 3, 2)),
                                      ((2, 0, 0), (1, 3, 3)), ((0, 0, 4), (7, 7, 3))])
def test_packed_dominance_is_the_attribute_wise_order(a, b) -> None:
    d = Dominance((7, 3, 4))
    assert d.below(d.pack(a), d.pack(b)) is all(x <= y for x, y in zip(a, b, strict=True))
    assert d.below(d.pack(b), d.pack(a)) is all(y <= x for x, y in zip(a, b, strict=True))
