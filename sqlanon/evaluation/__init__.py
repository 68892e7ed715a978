"""Node evaluation: lattice node -> SQL over the frequency set -> class statistics."""

from . import rollup, slicing
from .evaluator import NodeEvaluator, NodeStats
from .frequency_set import FrequencySet

__all__ = ["FrequencySet", "NodeEvaluator", "NodeStats", "rollup", "slicing"]
