"""Search strategies over the generalization lattice, one per module, behind one interface."""

from .base import SearchProblem, SearchResult, SearchStrategy
from .best_first import BestFirstStrategy
from .exhaustive import ExhaustiveStrategy
from .flash import FlashStrategy

STRATEGIES: dict[str, type[SearchStrategy]] = {
    s.name: s for s in (FlashStrategy, BestFirstStrategy, ExhaustiveStrategy)
}

__all__ = ["STRATEGIES", "SearchProblem", "SearchResult", "SearchStrategy"]
