"""``SearchProblem.consider``: which queries a feasible node costs. Loss needs a query of its own (the weights of
the suppressed records); the feasibility check's suppressed count bounds the value first, and a node whose
bound cannot beat the incumbent is left without that query."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from sqlanon.evaluation.evaluator import NodeStats
from sqlanon.lattice import Lattice
from sqlanon.lattice.search.base import SearchProblem, solution_key
from sqlanon.metrics.base import MetricContext
from sqlanon.metrics.dm_star import DmStarMetric
from sqlanon.metrics.loss import LossMetric

#: One QI, 10 records, N = 5 leaves (D = 4, d = 40); level 1 weighs 6 in all, level 2 weighs 36. With 3
#: records suppressed the value is 40 + W + 12 - b: bound 52 at levels 0 and 1 (level 1: b <= 6), 76 at level 2.
CTX = MetricContext(records=10, max_suppressed=3, k=2, heights=(3,), leaves=(5,), weight_sums=((0, 6, 36),),
                    distinct_codes=((5, 2, 1),), distinct_rows=10, priorities=(Fraction(1),), level_loss=(None,))
SUPPRESSED = 3
WEIGHTS = 2  # of the suppressed cells at level 1: value 40 + 6 + 12 - 2 = 56


@dataclass
class Recorder:
    """A node evaluator that records each query as (node, with the weights?)."""

    cache: dict = field(default_factory=dict)
    queries: list[tuple[tuple[int, ...], bool]] = field(default_factory=list)
    evaluated: int = 0
    judged: bool = False  # privacy models or a population: suppressed counts are not monotone

    def evaluate(self, node: tuple[int, ...], for_metric: bool = True) -> NodeStats:
        cached = self.cache.get(node)
        if cached is not None and (cached.suppressed_weights is not None or not for_metric):
            return cached
        self.evaluated += cached is None
        self.queries.append((node, for_metric))
        stats = self.cache[node] = NodeStats(
            node=node, classes=4, suppressed_records=SUPPRESSED, suppressed_classes=2, dm_star=20,
            suppressed_weights=(0 if node == (0,) else WEIGHTS,) if for_metric else None)
        return stats


def _problem(metric=None, incumbent: int | None = None, judged: bool = False) -> SearchProblem:
    problem = SearchProblem(lattice=Lattice(heights=(3,), max_levels=(2,)), evaluator=Recorder(judged=judged),
                            metric=metric or LossMetric(), ctx=CTX, monotone_criteria=True)
    if incumbent is not None:
        problem.best = solution_key(Fraction(incumbent), (2,))  # a higher node: ties go to the node considered
    return problem


def test_a_checked_node_bounded_above_the_incumbent_gets_no_weights_query() -> None:
    problem = _problem(incumbent=51)
    assert problem.is_feasible((1,))
    assert problem.consider((1,)) is None
    assert problem.evaluator.queries == [((1,), False)]
    assert problem.best == solution_key(Fraction(51), (2,))


def test_a_checked_node_whose_bound_is_below_the_incumbent_gets_its_value() -> None:
    problem = _problem(incumbent=53)
    assert problem.is_feasible((1,))
    assert problem.consider((1,)) == 56
    assert problem.evaluator.queries == [((1,), False), ((1,), True)]
    assert problem.best == solution_key(Fraction(53), (2,))  # 56 does not beat it


def test_a_bound_equal_to_the_incumbent_loses_on_the_tie_key() -> None:
    problem = _problem()
    problem.best = solution_key(Fraction(52), (0,))  # a lower node with value 52 wins a tie with (1,)
    assert problem.is_feasible((1,))
    assert problem.consider((1,)) is None
    assert problem.evaluator.queries == [((1,), False)]


def test_a_node_tagged_feasible_is_checked_before_its_weights_are_summed() -> None:
    problem = _problem(incumbent=51)
    problem.space.set((1,), True)  # predicted: no check yet
    assert problem.consider((1,)) is None
    assert problem.evaluator.queries == [((1,), False)]
    assert problem.evaluator.evaluated == 1


def test_at_a_level_of_weight_zero_the_check_gives_the_value_and_it_becomes_the_incumbent() -> None:
    problem = _problem(incumbent=53)
    problem.space.set((0,), True)
    assert problem.consider((0,)) == 52
    assert problem.evaluator.queries == [((0,), False), ((0,), True)]
    assert problem.best == solution_key(Fraction(52), (0,))


def test_without_an_incumbent_the_weights_are_summed_at_once() -> None:
    problem = _problem()
    problem.space.set((1,), True)
    assert problem.consider((1,)) == 56
    assert problem.evaluator.queries == [((1,), True)]
    assert problem.best == solution_key(Fraction(56), (1,))


def test_a_metric_read_from_the_check_costs_no_second_query() -> None:
    problem = _problem(DmStarMetric(), incumbent=10)
    problem.space.set((1,), True)
    problem.consider((1,))
    assert problem.evaluator.queries == [((1,), True)]


def test_a_node_below_a_checked_generalization_suppresses_at_least_as_much_and_needs_no_query() -> None:
    """(2,) suppresses 3 records, so (1,) suppresses at least 3: its bound 52 cannot beat 51."""
    problem = _problem(incumbent=51)
    assert problem.is_feasible((2,))
    problem.space.set((1,), True)
    assert problem.outweighed_by_suppression((1,)) and problem.outweighed_by_suppression((0,))
    assert problem.consider((1,)) is None
    assert problem.evaluator.queries == [((2,), False)]


def test_suppression_bounds_need_an_incumbent_to_beat_and_k_anonymity_alone() -> None:
    for problem in (_problem(), _problem(incumbent=51, judged=True)):
        assert problem.is_feasible((2,))
        assert not problem.outweighed_by_suppression((1,))
    loose = _problem(incumbent=53)
    assert loose.is_feasible((2,))
    assert not loose.outweighed_by_suppression((1,))  # 52 could beat 53
    assert loose.outweighed_by_suppression((2,))  # level 2 weighs 36 in all: 40 + 36 = 76
