"""The generalization lattice and the search strategies over it."""

from .lattice import Lattice, Node

__all__ = ["Lattice", "Node"]
