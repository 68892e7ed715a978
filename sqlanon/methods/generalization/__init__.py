"""Full-domain generalization (``method: generalization``, the default): the optimal node of the lattice of
hierarchy levels, found by Flash, best-first or exhaustive search."""

from .method import GeneralizationMethod

METHOD = GeneralizationMethod

__all__ = ["METHOD", "GeneralizationMethod"]
