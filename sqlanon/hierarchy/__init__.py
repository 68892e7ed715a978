"""Generalization hierarchies: parsed from config, loaded as lookup tables, validated against the data."""

from .loading import LoadedHierarchy, load_hierarchy

__all__ = ["LoadedHierarchy", "load_hierarchy"]
