"""Flash's binary search on a path of generalizations (``FlashStrategy._check_path``), on a stand-in problem:
which nodes it checks, in which order, and what it returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from sqlanon.lattice import Lattice
from sqlanon.lattice.search.flash import FlashStrategy
from sqlanon.lattice.tagging import SolutionSpace
from sqlanon.metrics.dm_star import DmStarMetric
from sqlanon.metrics.loss import LossMetric

#: One QI with nine levels: the path is the whole chain 0..7, and level 8 lies above the incumbent's bound.
LATTICE = Lattice(heights=(9,), max_levels=(8,))
PATH = [(level,) for level in range(8)]


@dataclass
class StandIn:
    """What ``_check_path`` reads of a SearchProblem: nodes from level ``lowest_feasible`` up are feasible,
    and level 8 cannot beat the incumbent (its bound is at least the incumbent's)."""

    metric: object
    lowest_feasible: int
    best: object = "an incumbent"
    lattice: Lattice = LATTICE
    space: SolutionSpace = field(default_factory=lambda: SolutionSpace(LATTICE, monotone=True))
    checked: list[tuple[int, ...]] = field(default_factory=list)

    def prunable(self, node: tuple[int, ...]) -> bool:
        return node[0] == 8

    def dominated(self, node: tuple[int, ...]) -> bool:
        return False

    def is_feasible(self, node: tuple[int, ...]) -> bool:
        tag = self.space.tag(node)
        if tag is None:
            self.checked.append(node)
            tag = node[0] >= self.lowest_feasible
            self.space.set(node, tag)
        return tag


def test_a_path_cut_by_the_loss_bound_is_settled_by_its_top_when_that_is_infeasible() -> None:
    problem = StandIn(LossMetric(), lowest_feasible=9)
    assert FlashStrategy._check_path(problem, PATH) is None
    assert problem.checked == [(7,)]
    assert all(problem.space.tag(node) is False for node in PATH)


@pytest.mark.parametrize("lowest", range(8))
def test_a_feasible_top_is_followed_by_the_binary_search_below_it(lowest: int) -> None:
    problem = StandIn(LossMetric(), lowest_feasible=lowest)
    assert FlashStrategy._check_path(problem, PATH) == (lowest,)
    assert problem.checked[0] == (7,)
    assert len(problem.checked) <= 1 + 3  # the top, then a binary search of the seven nodes below


def test_without_an_incumbent_or_with_a_loose_bound_the_search_starts_in_the_middle() -> None:
    for problem in (StandIn(LossMetric(), lowest_feasible=9, best=None), StandIn(DmStarMetric(), lowest_feasible=9)):
        assert FlashStrategy._check_path(problem, PATH) is None
        assert problem.checked == [(3,), (5,), (6,), (7,)]  # an infeasible path costs the whole binary search


def test_a_path_that_reaches_the_top_of_the_lattice_starts_in_the_middle() -> None:
    problem = StandIn(LossMetric(), lowest_feasible=9)
    problem.prunable = lambda node: False  # type: ignore[method-assign]
    FlashStrategy._check_path(problem, PATH)
    assert problem.checked[0] == (3,)


def test_k_anonymity_alone_is_checked_from_the_top_when_the_models_incumbent_cut_the_path() -> None:
    """Non-monotone models: the core (k-anonymity alone) has no incumbent; the models' search prunes."""
    core = StandIn(LossMetric(), lowest_feasible=9, best=None)
    models = StandIn(LossMetric(), lowest_feasible=9)
    assert FlashStrategy._check_path(core, PATH, bounds=models) is None  # type: ignore[arg-type]
    assert core.checked == [(7,)] and models.checked == []


@dataclass
class Stats:
    certain: float


@dataclass
class CertifyingStandIn:
    """What ``_settle_by_certain_suppression`` reads of a SearchProblem with non-monotone models: the chain's
    nodes up to ``highest_certified`` prove that every specialization suppresses more than the limit (their
    certain suppression is 10 against a limit of 5), the nodes from ``lowest_feasible`` up are feasible,
    and level 8 cannot beat the incumbent."""

    highest_certified: int
    lowest_feasible: int = 9
    lattice: Lattice = LATTICE
    space: SolutionSpace = field(default_factory=lambda: SolutionSpace(LATTICE, monotone=False))
    checked: list[tuple[int, ...]] = field(default_factory=list)
    considered: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.evaluator = SimpleNamespace(cache={}, fset=SimpleNamespace(records=100))
        self.ctx = SimpleNamespace(max_suppressed=5)

    def prunable(self, node: tuple[int, ...]) -> bool:
        return node[0] == 8

    def dominated(self, node: tuple[int, ...]) -> bool:
        return False

    def bound_key(self, node: tuple[int, ...]) -> tuple[int, ...]:
        return node

    def evaluate(self, node: tuple[int, ...], for_metric: bool = True) -> Stats:
        self.checked.append(node)
        stats = self.evaluator.cache[node] = Stats(10.0 if node[0] <= self.highest_certified else 0.0)
        self.space.set(node, node[0] >= self.lowest_feasible)
        return stats

    def consider(self, node: tuple[int, ...]) -> None:
        self.considered.append(node)


@pytest.mark.parametrize("highest", range(3, 8))
def test_certain_suppression_search_goes_on_above_the_first_node_that_settles_the_start(highest: int) -> None:
    """The first probe (the middle of the chain 0..7) already settles the start; the search goes on up, as a
    higher certified node settles a larger down-set, and finds the highest one on the chain."""
    problem = CertifyingStandIn(highest_certified=highest, lowest_feasible=highest + 1)
    FlashStrategy()._settle_by_certain_suppression(problem, (0,))  # type: ignore[arg-type]
    assert problem.checked[0] == (3,)
    assert len(problem.checked) <= 4
    assert all(problem.space.tag((level,)) is False for level in range(highest + 1))
    assert problem.space.tag((highest + 1,)) is not False  # feasible, or never checked


def test_certain_suppression_search_ends_at_the_start_when_nothing_above_settles_it() -> None:
    problem = CertifyingStandIn(highest_certified=-1, lowest_feasible=2)
    FlashStrategy()._settle_by_certain_suppression(problem, (0,))  # type: ignore[arg-type]
    assert problem.checked == [(3,), (1,), (0,)]
    assert problem.considered == [(3,)]  # a feasible node met on the way is a candidate at once
    assert problem.space.tag((0,)) is False and problem.space.tag((2,)) is None
