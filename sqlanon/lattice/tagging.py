"""Predictive tagging (ARX, seed 001): with a monotone privacy model, a generalization of a feasible
node is feasible and a specialization of an infeasible node is infeasible."""

from __future__ import annotations

from .lattice import Lattice, Node


class SolutionSpace:
    """Feasibility tags of lattice nodes, propagated upward (feasible) and downward (infeasible)."""

    def __init__(self, lattice: Lattice, monotone: bool) -> None:
        self.lattice = lattice
        self.monotone = monotone
        self.tags: dict[Node, bool] = {}
        #: Nodes in the order they were tagged (searches read what a check settled from its tail).
        self.log: list[Node] = []
        #: Nodes whose whole down-set is tagged infeasible by ``set_infeasible_below``.
        self._closed_below: set[Node] = set()

    def tag(self, node: Node) -> bool | None:
        return self.tags.get(node)

    def set(self, node: Node, feasible: bool) -> None:
        if node in self.tags:
            return
        self.tags[node] = feasible
        self.log.append(node)
        if not self.monotone:
            return
        step = self.lattice.successors if feasible else self.lattice.predecessors
        stack = step(node)
        while stack:
            other = stack.pop()
            if other in self.tags:
                # Already tagged: its closure was propagated when it was tagged.
                continue
            self.tags[other] = feasible
            self.log.append(other)
            stack.extend(step(other))

    def set_infeasible_below(self, node: Node) -> None:
        """Tag a node and every specialization of it infeasible, also without a monotone model: the
        caller has proved that each of them suppresses too many records (FlashStrategy, certain
        suppression). Nodes already tagged feasible are left alone (none can be below such a node)."""
        stack = [node]
        while stack:
            other = stack.pop()
            if other in self._closed_below:
                continue
            self._closed_below.add(other)
            if other not in self.tags:
                self.tags[other] = False
                self.log.append(other)
            stack.extend(self.lattice.predecessors(other))
