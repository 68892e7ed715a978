"""Generalization lattice: one level per quasi-identifier, bounded by the generalization limits."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
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

    # -- node sets as bitmasks -------------------------------------------------------------------------
    # A set of nodes is an int whose bit ``index(node)`` is set for each member (``nodes()`` order, the last
    # level varying fastest). Up- and down-sets are then built with a few big-int multiplications instead
    # of a walk that builds every neighbour tuple, which took a noticeable share of a small run.

    @cached_property
    def strides(self) -> tuple[int, ...]:
        """Index distance between nodes one level apart in each attribute."""
        out, stride = [], 1
        for m in reversed(self.max_levels):
            out.append(stride)
            stride *= m + 1
        return tuple(reversed(out))

    @cached_property
    def node_list(self) -> list[Node]:
        """All nodes, position = index."""
        return list(self.nodes())

    @cached_property
    def positions(self) -> dict[Node, int]:
        """Each node's index (its bit in a node set), looked up: ~20x faster than computing it from the strides,
        and searches look up nodes' tags by it (``SolutionSpace.tag``) thousands of times a run."""
        return {node: i for i, node in enumerate(self.node_list)}

    def index(self, node: Node) -> int:
        """The node's position in ``nodes()`` order, its bit in a node set.

        >>> Lattice(heights=(3, 2), max_levels=(2, 1)).index((1, 1))
        3
        """
        return self.positions[node]

    def holds(self, mask: int, node: Node) -> bool:
        """Whether the node set ``mask`` holds the node.

        >>> lat = Lattice(heights=(3, 2), max_levels=(2, 1))
        >>> lat.holds(lat.up_set((1, 0)), (2, 0)), lat.holds(lat.up_set((1, 0)), (0, 1))
        (True, False)
        """
        return bool(mask >> self.positions[node] & 1)

    @cached_property
    def full_mask(self) -> int:
        return (1 << self.size) - 1

    @cached_property
    def below_top_masks(self) -> tuple[int, ...]:
        """Per attribute: the nodes below its limit there (those with a successor in that attribute)."""
        return tuple(self._level_range_mask(i, 0, m) for i, m in enumerate(self.max_levels))

    @cached_property
    def above_bottom_masks(self) -> tuple[int, ...]:
        """Per attribute: the nodes above level 0 there (those with a predecessor in that attribute)."""
        return tuple(self._level_range_mask(i, 1, m + 1) for i, m in enumerate(self.max_levels))

    def _level_range_mask(self, attribute: int, low: int, high: int) -> int:
        """Nodes whose level of the attribute is in ``range(low, high)``."""
        bounds = [(0, m + 1) for m in self.max_levels]
        bounds[attribute] = (low, high)
        return self._box(bounds)

    def _box(self, bounds: Sequence[tuple[int, int]]) -> int:
        """The nodes with level i in ``range(*bounds[i])`` for every i. The box over the attributes after i
        fits in one stride of i, so its copies at each level of i are shifted, non-overlapping blocks: a
        product with a repunit in base 2**stride lays them all down at once."""
        mask = 1
        repunits = self._repunits
        for (low, high), stride in zip(reversed(bounds), reversed(self.strides), strict=True):
            if high <= low:
                return 0
            copies = high - low
            repunit = repunits.get((stride, copies))
            if repunit is None:  # a division of big ints: ~half of an up-set's cost, and few distinct ones
                repunit = repunits[stride, copies] = ((1 << (stride * copies)) - 1) // ((1 << stride) - 1)
            mask = (mask * repunit) << (low * stride)
        return mask

    @cached_property
    def _repunits(self) -> dict[tuple[int, int], int]:
        """The repunits of ``_box``, by (stride, copies), as they are first needed."""
        return {}

    def down_set(self, node: Node) -> int:
        """The node and every specialization of it."""
        return self._box([(0, level + 1) for level in node])

    def up_set(self, node: Node) -> int:
        """The node and every generalization of it (within the limits)."""
        return self._box([(level, m + 1) for level, m in zip(node, self.max_levels, strict=True)])

    def with_successor_in(self, mask: int) -> int:
        """The nodes that have a direct generalization in ``mask``."""
        out = 0
        for stride, below in zip(self.strides, self.below_top_masks, strict=True):
            out |= (mask >> stride) & below
        return out

    def with_predecessor_in(self, mask: int) -> int:
        """The nodes that have a direct specialization in ``mask``."""
        out = 0
        for stride, above in zip(self.strides, self.above_bottom_masks, strict=True):
            out |= (mask << stride) & above
        return out

    def indices(self, mask: int) -> list[int]:
        """The indices of the nodes in ``mask``, ascending. The regular expression skips empty bytes in C, so
        a few nodes of a large lattice cost little more than a few bytes."""
        out: list[int] = []
        for match in _NONZERO.finditer(mask.to_bytes((mask.bit_length() + 7) // 8, "little")):
            base = 8 * match.start()
            out.extend(base + bit for bit in _BITS[match[0][0]])
        return out

    def members(self, mask: int) -> list[Node]:
        nodes = self.node_list
        return [nodes[i] for i in self.indices(mask)]

    def nodes_by_height(self) -> list[list[Node]]:
        """Nodes grouped by height (sum of levels), each group in lexicographic order."""
        groups: list[list[Node]] = [[] for _ in range(self.max_height + 1)]
        for node in self.nodes():
            groups[sum(node)].append(node)
        return groups


_NONZERO = re.compile(rb"[^\x00]")
#: The set bits of every byte value.
_BITS = tuple(tuple(bit for bit in range(8) if byte >> bit & 1) for byte in range(256))


def tie_key(node: Node) -> tuple[int, Node]:
    """Deterministic tie-break among equal metric values: lowest height, then lexicographic levels.

    >>> sorted([(1, 0), (0, 2), (0, 1)], key=tie_key)
    [(0, 1), (1, 0), (0, 2)]
    """
    return (sum(node), node)
