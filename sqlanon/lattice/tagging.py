"""Predictive tagging (ARX, seed 001): with a monotone privacy model, a generalization of a feasible
node is feasible and a specialization of an infeasible node is infeasible."""

from __future__ import annotations

from .lattice import Lattice, Node


class SolutionSpace:
    """Feasibility tags of lattice nodes, propagated upward (feasible) and downward (infeasible).

    The tagged nodes are also kept as bitmasks (``Lattice.down_set``): a propagation is one up- or down-set
    minus what is already tagged, with no walk through neighbours."""

    def __init__(self, lattice: Lattice, monotone: bool) -> None:
        self.lattice = lattice
        self.monotone = monotone
        self.tags: dict[Node, bool] = {}
        #: The nodes tagged feasible and infeasible, as bitmasks.
        self.feasible = 0
        self.infeasible = 0

    def tag(self, node: Node) -> bool | None:
        return self.tags.get(node)

    def set(self, node: Node, feasible: bool) -> None:
        if node in self.tags:
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
        if not new:
            return
        if feasible:
            self.feasible |= new
        else:
            self.infeasible |= new
        self.tags.update(dict.fromkeys(self.lattice.members(new), feasible))
