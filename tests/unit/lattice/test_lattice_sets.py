"""Node sets as bitmasks (``Lattice.down_set`` and friends) against their definitions on tuples, and the
solution space's tags, which are propagated with them, against a walk through neighbours."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sqlanon.lattice import Lattice
from sqlanon.lattice.tagging import SolutionSpace


@st.composite
def lattices(draw: st.DrawFn) -> Lattice:
    heights = draw(st.lists(st.integers(1, 5), min_size=1, max_size=5))
    limits = [draw(st.one_of(st.none(), st.integers(0, h - 1))) for h in heights]
    return Lattice.build(heights, limits)


def as_mask(lattice: Lattice, nodes: set) -> int:
    return sum(1 << lattice.index(n) for n in nodes)


@given(lattice=lattices())
def test_indices_follow_the_order_of_nodes(lattice: Lattice) -> None:
    nodes = list(lattice.nodes())
    assert lattice.node_list == nodes
    assert [lattice.index(n) for n in nodes] == list(range(lattice.size))
    assert lattice.full_mask == as_mask(lattice, set(nodes))
    assert lattice.members(lattice.full_mask) == nodes


@given(lattice=lattices(), data=st.data())
def test_up_and_down_sets_are_the_generalizations_and_specializations(lattice: Lattice, data: st.DataObject) -> None:
    nodes = lattice.node_list
    node = data.draw(st.sampled_from(nodes))
    below = {m for m in nodes if all(a <= b for a, b in zip(m, node, strict=True))}
    above = {m for m in nodes if all(a >= b for a, b in zip(m, node, strict=True))}
    assert set(lattice.members(lattice.down_set(node))) == below
    assert set(lattice.members(lattice.up_set(node))) == above


@given(lattice=lattices(), data=st.data())
def test_neighbours_in_a_set(lattice: Lattice, data: st.DataObject) -> None:
    nodes = lattice.node_list
    chosen = set(data.draw(st.lists(st.sampled_from(nodes), unique=True)))
    mask = as_mask(lattice, chosen)
    assert set(lattice.members(lattice.with_successor_in(mask))) == {
        n for n in nodes if any(s in chosen for s in lattice.successors(n))
    }
    assert set(lattice.members(lattice.with_predecessor_in(mask))) == {
        n for n in nodes if any(p in chosen for p in lattice.predecessors(n))
    }


def test_members_reads_every_byte_of_a_wide_set() -> None:
    lattice = Lattice.build((5, 4, 3, 2, 3, 2, 2, 2), [None] * 8)  # ADULT's 2,880 nodes below its limits
    chosen = lattice.node_list[::7] + [lattice.top]
    assert lattice.members(as_mask(lattice, set(chosen))) == sorted(set(chosen), key=lattice.index)


def closure(lattice: Lattice, node: tuple, feasible: bool) -> set:
    """The nodes a monotone tag reaches, by walking neighbours (the definition)."""
    step = lattice.successors if feasible else lattice.predecessors
    seen, stack = set(), [node]
    while stack:
        other = stack.pop()
        if other not in seen:
            seen.add(other)
            stack.extend(step(other))
    return seen


@settings(max_examples=60)
@given(lattice=lattices(), data=st.data(), monotone=st.booleans())
def test_tags_propagate_as_a_walk_would(lattice: Lattice, data: st.DataObject, monotone: bool) -> None:
    nodes = lattice.node_list
    space = SolutionSpace(lattice, monotone)
    expected: dict = {}
    for _ in range(data.draw(st.integers(1, 6))):
        node = data.draw(st.sampled_from(nodes))
        if data.draw(st.booleans()):
            # A monotone model never tags a node above a feasible one infeasible: draw consistent tags.
            feasible = expected.get(node, data.draw(st.booleans()))
            space.set(node, feasible)
            if node not in expected:
                reached = closure(lattice, node, feasible) if monotone else {node}
                expected.update({n: feasible for n in reached if n not in expected})
        else:
            if expected.get(node):
                continue  # set_infeasible_below is only called on nodes proved infeasible
            space.set_infeasible_below(node)
            expected.update({n: False for n in closure(lattice, node, False) if n not in expected})
    assert {n: space.tag(n) for n in nodes if space.tag(n) is not None} == expected
    assert space.tagged == len(expected)
    assert space.feasible == as_mask(lattice, {n for n, f in expected.items() if f})
    assert space.infeasible == as_mask(lattice, {n for n, f in expected.items() if not f})


def test_nodes_sorted_by_bound_as_by_their_bound_keys() -> None:
    """``SearchProblem.by_bound`` builds the keys itself; the order must be ``bound_key``'s (ties: height, levels)."""
    from types import SimpleNamespace

    from sqlanon.lattice.search.base import SearchProblem

    lattice = Lattice.build((3, 4, 2), [None] * 3)
    stand_in = SimpleNamespace(_bounds={n: (sum(n) * 7) % 5 for n in lattice.node_list[::2]})
    stand_in.bound = lambda n: stand_in._bounds.setdefault(n, (n[0] * 3 + n[2]) % 4)
    stand_in.bound_key = lambda n: SearchProblem.bound_key(stand_in, n)
    shuffled = lattice.node_list[::-1]
    assert SearchProblem.by_bound(stand_in, shuffled) == sorted(shuffled, key=stand_in.bound_key)
