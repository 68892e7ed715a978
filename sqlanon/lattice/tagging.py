"""Predictive tagging (ARX, seed 001): with a monotone privacy model, a generalization of a feasible
node is feasible and a specialization of an infeasible node is infeasible."""

from __future__ import annotations

from .lattice import Lattice, Node


class SolutionSpace:
    """Feasibility tags of lattice nodes, propagated upward (feasible) and downward (infeasible).

    The tagged nodes are kept as bitmasks (``Lattice.down_set``): a propagation is one up- or down-set minus
    what is already tagged, with no walk through neighbours, and a node's tag is its bit in them. A dict of
    tags beside the masks cost more to fill (listing each new up- or down-set's nodes) than its lookups
    saved."""

    def __init__(self, lattice: Lattice, monotone: bool) -> None:
        self.lattice = lattice
        self.monotone = monotone
        #: The nodes tagged feasible and infeasible, as bitmasks.
        self.feasible = 0
        self.infeasible = 0

    @property
    def tagged(self) -> int:
        """How many nodes are tagged."""
        return (self.feasible | self.infeasible).bit_count()

    def tag(self, node: Node) -> bool | None:
        position = self.lattice.positions[node]
        if self.feasible >> position & 1:
            return True
        if self.infeasible >> position & 1:
            return False
        return None

    def set(self, node: Node, feasible: bool) -> None:
        if self.tag(node) is not None:
            return
        if not self.monotone:
            self._add(1 << self.lattice.index(node), feasible)
        elif feasible:
            self._add(self.lattice.up_set(node), True)
        else:
            self._add(self.lattice.down_set(node), False)

    def set_infeasible_below(self, node: Node) -> None:
        """Tag a node and every specialization of it infeasible, also without a monotone model: the
        caller has proved that each of them suppresses too many records (FlashStrategy, certain
        suppression). Nodes already tagged feasible are left alone (none can be below such a node)."""
        self._add(self.lattice.down_set(node), False)

    def _add(self, mask: int, feasible: bool) -> None:
        """Tag the nodes of ``mask`` that are not tagged yet (a tag, once set, is never changed)."""
        new = mask & ~(self.feasible | self.infeasible)
        if feasible:
            self.feasible |= new
        else:
            self.infeasible |= new
