"""Generalization lattice: one level per quasi-identifier, bounded by the generalization limits."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import prod

Node = tuple[int, ...]


@dataclass(frozen=True)
class Lattice:
    """Full-domain generalization lattice.

    ``heights[i]`` is the height of hierarchy i (levels ``0 .. heights[i] - 1``); ``max_levels[i]`` is the
    generalization limit (ANON "limits"), at most ``heights[i] - 1``.

    >>> lat = Lattice(heights=(3, 2), max_levels=(2, 1))
    >>> lat.size, lat.bottom, lat.top
    (6, (0, 0), (2, 1))
    >>> sorted(lat.successors((0, 0)))
    [(0, 1), (1, 0)]
    >>> lat.predecessors((2, 1))
    [(1, 1), (2, 0)]
    """

    heights: tuple[int, ...]
    max_levels: tuple[int, ...]

    @classmethod
    def build(cls, heights: Sequence[int], limits: Sequence[int | None]) -> Lattice:
        return cls(
            heights=tuple(heights),
            max_levels=tuple(h - 1 if m is None else min(m, h - 1) for h, m in zip(heights, limits, strict=True)),
        )

    @property
    def size(self) -> int:
        """Number of nodes within the limits."""
        return prod(m + 1 for m in self.max_levels)

    @property
    def full_size(self) -> int:
        """Product of the hierarchy heights (the lattice without limits)."""
        return prod(self.heights)

    @property
    def bottom(self) -> Node:
        return tuple(0 for _ in self.heights)

    @property
    def top(self) -> Node:
        return self.max_levels

    @property
    def max_height(self) -> int:
        return sum(self.max_levels)

    def contains(self, node: Node) -> bool:
        if len(node) != len(self.max_levels):
            return False
        return all(0 <= v <= m for v, m in zip(node, self.max_levels, strict=True))

    def successors(self, node: Node) -> list[Node]:
        """Direct generalizations (one attribute one level up)."""
        out = []
        for i, (v, m) in enumerate(zip(node, self.max_levels, strict=True)):
            if v < m:
                out.append(node[:i] + (v + 1,) + node[i + 1 :])
        return out

    def predecessors(self, node: Node) -> list[Node]:
        """Direct specializations (one attribute one level down)."""
        out = []
        for i, v in enumerate(node):
            if v > 0:
                out.append(node[:i] + (v - 1,) + node[i + 1 :])
        return out

    def nodes(self) -> Iterator[Node]:
        """All nodes, in lexicographic order."""
        return itertools.product(*(range(m + 1) for m in self.max_levels))

    def nodes_by_height(self) -> list[list[Node]]:
        """Nodes grouped by height (sum of levels), each group in lexicographic order."""
        groups: list[list[Node]] = [[] for _ in range(self.max_height + 1)]
        for node in self.nodes():
            groups[sum(node)].append(node)
        return groups


def tie_key(node: Node) -> tuple[int, Node]:
    """Deterministic tie-break among equal metric values: lowest height, then lexicographic levels.

    >>> sorted([(1, 0), (0, 2), (0, 1)], key=tie_key)
    [(0, 1), (1, 0), (0, 2)]
    """
    return (sum(node), node)
