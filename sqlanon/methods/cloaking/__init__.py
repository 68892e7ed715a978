"""Spatial and temporal cloaking (``method: cloaking``): locations and times released as quadtree boxes and
nested time intervals holding k records or subjects."""

from .method import CloakingMethod

METHOD = CloakingMethod

__all__ = ["CloakingMethod", "METHOD"]
