"""Microaggregation (``method: microaggregation``): MDAV groups of k..2k-1 records whose numeric
quasi-identifiers are released as the group's mean."""

from .method import MicroaggregationMethod

METHOD = MicroaggregationMethod

__all__ = ["METHOD", "MicroaggregationMethod"]
