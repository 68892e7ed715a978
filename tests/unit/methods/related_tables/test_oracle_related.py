"""The k^(m,n) oracle (``tests/oracle_related.py``) itself: the spec's worked RPD and dtree values, hand-made
forests with known answers, the per-record count against the brute-force enumeration on random forests, and the
node-table parser's checks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.oracle_related import (
    dtree,
    labels,
    largest_k,
    largest_k_brute,
    random_forest,
    relations,
    rpd,
    rpd_record,
    support,
    supports,
    supports_brute,
    trees_from_nodes,
    violations,
)

CLASSES = ["A", "B", "C", "D"]


def label(name: str) -> tuple[str, str | None]:
    """A label by name: "b1" = ("B", "b1"), "b-" = ("B", None)."""
    return name[0].upper(), None if name.endswith("-") else name


def forest(*records: list[tuple[str, ...]]) -> dict:
    """Records given as paths of label names: ("a1", "b1") = A:a1 -> B:b1."""
    return {i: frozenset(tuple(map(label, p)) for p in paths) for i, paths in enumerate(records)}


def rows_of(trees: dict) -> list[tuple]:
    """Node-table rows of a forest of paths (shared prefixes share nodes)."""
    rows, ids = [], {}
    for record, paths in trees.items():
        for path in paths:
            for depth in range(len(path)):
                key = (record, path[:depth + 1])
                if key not in ids:
                    ids[key] = len(ids) + 1
                    parent = ids[record, path[:depth]] if depth else None
                    rows.append((record, ids[key], parent, *path[depth]))
    return rows


# ------------------------------------------------------------------------------------------------ information loss
def test_rpd_example_1():
    sizes = {"A": 12, "B": 6, "C": 6}
    r1 = [("a1", "b1"), ("a2",), ("a1", "b2", "c1")]
    r2 = [("a1", "b1", "c1"), ("a1", "b1", "c2"), ("a2", "b2"), ("a3",)]
    trees = forest(r1, r2)
    size = lambda label: sizes[label[0]]  # noqa: E731
    assert rpd_record(trees[0], size) == pytest.approx(1 / 3 * (1 / (1 * 12 * 2 * 6) + 1 / (1 * 12)
                                                                + 1 / (1 * 12 * 2 * 6 * 3 * 6)))
    assert round(rpd_record(trees[0], size), 4) == 0.0302
    assert round(rpd_record(trees[1], size), 4) == 0.0228
    assert rpd(trees, size) == pytest.approx((rpd_record(trees[0], size) + rpd_record(trees[1], size)) / 2)
    # the same records from node rows
    assert trees_from_nodes(rows_of(trees), CLASSES) == trees


def test_dtree_example_3():
    assert round(dtree([1, 0], 3, relations=1, broken=0), 3) == 0.083
    assert round(dtree([1, 0], 3, relations=1, broken=1), 3) == 0.583
    assert dtree([2], 4, relations=0, broken=0) == 0.25
    with pytest.raises(ValueError):
        dtree([0, 0], 3, relations=1, broken=2)


# ---------------------------------------------------------------------------------------------------- k^(m,n)
def test_paths_labels_relations():
    rows = [(7, 1, None, "A", "x"), (7, 2, 1, "B", None), (7, 3, 2, "D", "z"), (7, 4, 1, "C", "y"),
            (8, 5, None, "B", None)]
    trees = trees_from_nodes(rows, CLASSES)
    a, b, c, d = ("A", "x"), ("B", None), ("C", "y"), ("D", "z")
    assert trees == {7: frozenset({(a, b, d), (a, c)}), 8: frozenset({(b,)})}
    assert labels(trees[7]) == {a, b, c, d}
    assert relations(trees[7]) == {(a, b), (a, d), (b, d), (a, c)}
    assert support(trees, [b]) == 2 and support(trees, [b], [(a, b)]) == 1 and support(trees, [c, ("B", "q")]) == 0


def test_duplicate_siblings_merge():
    rows = [(1, 1, None, "A", "x"), (1, 2, None, "A", "x"), (1, 3, 2, "B", "y"), (1, 4, None, "A", "x")]
    assert trees_from_nodes(rows, CLASSES) == {1: frozenset({(("A", "x"), ("B", "y"))})}


def test_identical_records():
    trees = forest([("a1", "b1"), ("a2",)], [("a1", "b1"), ("a2",)])
    for m in (1, 2, 3):
        for n in (0, 1, 2):
            assert largest_k(trees, m, n) == largest_k_brute(trees, m, n) == 2
    assert violations(trees, 2, 3, 2) == [] and len(violations(trees, 3, 1, 0)) == 3
    assert largest_k({}, 2, 1) is None and largest_k_brute({}, 2, 1) is None


def test_relation_in_one_record_only():
    # same labels; a1 ~> b1 in the first record, a1 and b1 unrelated in the second
    trees = forest([("a1", "b1")], [("a1",), ("b1",)])
    assert largest_k(trees, 2, 0) == largest_k_brute(trees, 2, 0) == 2
    assert largest_k(trees, 2, 1) == largest_k_brute(trees, 2, 1) == 1
    a, b = ("A", "a1"), ("B", "b1")
    assert violations(trees, 2, 2, 1) == [(frozenset({a, b}), frozenset({(a, b)}), 1)]
    assert largest_k(trees, 1, 1) == 2  # one label has no relation to know


def test_sizes_below_m_and_n_are_checked():
    # record 2 has one label: only X of size 1 < m = 3 finds it
    trees = forest([("a1",), ("b1",), ("c1",)], [("a1",), ("b1",), ("c1",)],
                   [("a9",)])
    assert largest_k(trees, 3, 0) == largest_k_brute(trees, 3, 0) == 1
    assert [v[2] for v in violations(trees, 2, 3, 0)] == [1]
    # the third record's only relation: R of size 1 < n = 2 finds it
    trees = forest([("a1",), ("b1",), ("c1",)], [("a1",), ("b1",), ("c1",)],
                   [("a1", "b1"), ("c1",)])
    assert largest_k(trees, 3, 2) == largest_k_brute(trees, 3, 2) == 1
    a, b = ("A", "a1"), ("B", "b1")
    assert (frozenset({a, b}), frozenset({(a, b)}), 1) in violations(trees, 2, 3, 2)
    assert largest_k(trees, 3, 0) == 3


def test_none_is_a_value():
    trees = forest([("a-",)], [("a-", "b1")], [("a1",)])
    assert largest_k(trees, 1, 0) == 1 and support(trees, [("A", None)]) == 2


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), records=st.integers(1, 8), values=st.integers(1, 2), m=st.integers(1, 3),
       n=st.integers(0, 3), copies=st.integers(1, 2))
def test_per_record_count_equals_brute_force(seed, records, values, m, n, copies):
    rng = random.Random(seed)
    rows = random_forest(rng, records, CLASSES[:3], values_per_class=values, max_children=2)
    trees = trees_from_nodes(rows, CLASSES[:3])
    assert len(trees) == records
    k1 = largest_k(trees, m, n)
    trees = {(record, c): t for record, t in trees.items() for c in range(copies)}  # every support x copies
    counted = supports(trees, m, n)
    assert counted == supports_brute(trees, m, n)
    k = largest_k(trees, m, n)
    assert k == largest_k_brute(trees, m, n) == min(counted.values()) == copies * k1
    found = violations(trees, k + 1, m, n)
    assert found and all(s == k == support(trees, X, R) for X, R, s in found)
    assert violations(trees, k, m, n) == []


def test_random_forest_shape():
    rng = random.Random(3)
    rows = random_forest(rng, 30, CLASSES, values_per_class=3, max_children=3)
    assert len({r[1] for r in rows}) == len(rows)
    assert any(r[4] is None for r in rows) and any(r[2] is not None for r in rows)
    siblings = [(r[0], r[2], r[3], r[4]) for r in rows]
    assert len(set(siblings)) == len(siblings)
    trees = trees_from_nodes(rows, CLASSES)
    assert len(trees) == 30  # one node per distinct root path, as siblings differ
    assert sum(len({p[:i] for p in t for i in range(1, len(p) + 1)}) for t in trees.values()) == len(rows)


# ------------------------------------------------------------------------------------------------------ parser
@pytest.mark.parametrize("rows, message", [
    ([(1, 1, None, "B", "x"), (1, 2, 1, "A", "y")], "does not come after"),
    ([(1, 1, None, "A", "x"), (1, 2, 1, "A", "y")], "does not come after"),
    ([(1, 1, None, "A", "x"), (1, 2, 9, "B", "y")], "parent 9 is missing"),
    ([(1, 1, None, "A", "x"), (2, 2, 1, "B", "y")], "parent 1 is missing"),
    ([(1, 1, None, "A", "x"), (1, 1, None, "B", "y")], "duplicate node id"),
    ([(1, 1, None, "E", "x")], "unknown class"),
])
def test_parser_rejects(rows, message):
    with pytest.raises(ValueError, match=message):
        trees_from_nodes(rows, CLASSES)
