"""Search strategies over the generalization lattice, one per module, behind one interface."""

from .base import SearchProblem, SearchResult, SearchStrategy
from .best_first import BestFirstStrategy
from .exhaustive import ExhaustiveStrategy
from .flash import FlashStrategy
from .lightning import LightningStrategy
from .limits import SearchLimits
from .run import run_search
from .top_down import TopDownStrategy

STRATEGIES: dict[str, type[SearchStrategy]] = {
    s.name: s for s in (FlashStrategy, BestFirstStrategy, ExhaustiveStrategy, TopDownStrategy, LightningStrategy)
}
#: The strategies that keep state only for the nodes they explore, and so may search any lattice.
IMPLICIT_STRATEGIES = frozenset({TopDownStrategy.name, LightningStrategy.name})

__all__ = ["IMPLICIT_STRATEGIES", "STRATEGIES", "SearchLimits", "SearchProblem", "SearchResult", "SearchStrategy",
           "run_search"]
