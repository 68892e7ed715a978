"""Local recoding (``method: local_recoding``): KACA clusters the equivalence classes over the quasi-identifiers'
hierarchies, so that each class is generalized only as far as it must be."""

from .method import LocalRecodingMethod

METHOD = LocalRecodingMethod

__all__ = ["METHOD", "LocalRecodingMethod"]
