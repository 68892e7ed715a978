"""A plain-Python oracle of k^(m,n)-anonymity for tree-structured records (Gkountouna & Terrovitis, TKDE), written
from the definitions in /work/shared/specs/seeds-002-003-004.md (SEED 003.1-003.3), for tests of the SQL code.

It is independent of sqlanon (no import of it, no SQL, no synopsis tree, no inverted lists): standard library only.

- A record is the set of its root-to-leaf label paths; a label is ``(attribute, value)``, None a value like any
  other. Sibling nodes with the same label are merged (paths are a set and a path that is a proper prefix of
  another one of the same record is dropped), which is the paper's "no duplicate siblings" tree.
- ``sup(X, R)`` = number of records holding every label of X and every relation a ~> b of R (b strictly below a on
  one path). D is k^(m,n)-anonymous iff every (X, R) with 1 <= |X| <= m, R among X's label pairs, 0 <= |R| <= n has
  support 0 or >= k: ``largest_k`` is the smallest positive support. Sizes BELOW m and n are checked too (the
  paper's Algorithm 1 says "size m" only; that is an error, see the spec).
- Twice: ``largest_k_brute`` enumerates every (X, R) over the whole label domain and scans all records;
  ``largest_k`` enumerates each record's own (X, R) and counts each once per record.
- Information loss: RPD (Eq. 1-3) and dtree (Eq. 5).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from itertools import chain, combinations
from typing import Any

Label = tuple[str, Any]
Path = tuple[Label, ...]
Paths = frozenset[Path]
Relation = tuple[Label, Label]
Key = tuple[frozenset[Label], frozenset[Relation]]


# --------------------------------------------------------------------------------------------- trees from node rows
def trees_from_nodes(rows: Iterable[tuple[Hashable, Hashable, Hashable | None, str, Any]],
                     classes: list[str]) -> dict[Hashable, Paths]:
    """Rows (record_id, node_id, parent_id, attribute, value) -> {record_id: frozenset of root-to-leaf label paths}.

    parent_id None = a node directly under the record's root; node ids are resolved within their record.
    ValueError on an unknown class, a duplicate node id, a missing parent, or a child whose class does not come
    strictly after its parent's (which also rules out cycles)."""
    rank = {c: i for i, c in enumerate(classes)}
    nodes: dict[Hashable, dict[Hashable, tuple[Hashable | None, Label]]] = {}
    for record, node, parent, attribute, value in rows:
        if attribute not in rank:
            raise ValueError(f"record {record!r} node {node!r}: unknown class {attribute!r}")
        if node in nodes.setdefault(record, {}):
            raise ValueError(f"record {record!r}: duplicate node id {node!r}")
        nodes[record][node] = (parent, (attribute, value))
    trees = {}
    for record, tree in nodes.items():
        parents = set()
        for node, (parent, (attribute, _)) in tree.items():
            if parent is None:
                continue
            if parent not in tree:
                raise ValueError(f"record {record!r} node {node!r}: parent {parent!r} is missing")
            if rank[tree[parent][1][0]] >= rank[attribute]:
                raise ValueError(f"record {record!r} node {node!r}: class {attribute!r} does not come after "
                                 f"its parent's class {tree[parent][1][0]!r}")
            parents.add(parent)
        paths = set()
        for leaf in tree.keys() - parents:
            path, node = [], leaf
            while node is not None:
                parent, label = tree[node]
                path.append(label)
                node = parent
            paths.add(tuple(reversed(path)))
        trees[record] = frozenset(p for p in paths if not any(len(q) > len(p) and q[:len(p)] == p for q in paths))
    return trees


def labels(paths: Iterable[Path]) -> set[Label]:
    return {label for path in paths for label in path}


def relations(paths: Iterable[Path]) -> set[Relation]:
    """Ancestor-descendant label pairs (a, b): b strictly below a on some path, at any distance."""
    return {(path[i], path[j]) for path in paths for i in range(len(path)) for j in range(i + 1, len(path))}


# ------------------------------------------------------------------------------------------------- k^(m,n) checks
def support(trees: dict[Hashable, Paths], X: Iterable[Label], R: Iterable[Relation] = ()) -> int:
    X, R = set(X), set(R)
    return sum(1 for t in trees.values() if X <= labels(t) and R <= relations(t))


def _subsets(items: Iterable, low: int, high: int) -> Iterable[tuple]:
    items = list(items)
    return chain.from_iterable(combinations(items, s) for s in range(low, min(high, len(items)) + 1))


def supports_brute(trees: dict[Hashable, Paths], m: int, n: int) -> dict[Key, int]:
    """{(X, R): sup(X, R) > 0} by brute force: every X of 1..m labels of the global domain, every R of 0..n ordered
    pairs of distinct labels of X, support by scanning all records. (The pairs are a superset of the definition's
    class(a) < class(b): a pair against the class order holds in no record, so it only adds zero supports, which
    are left out.) Tiny forests only."""
    domain = set().union(*map(labels, trees.values()))
    found = {}
    for X in _subsets(domain, 1, m):
        pairs = [(a, b) for a in X for b in X if a != b]
        for R in _subsets(pairs, 0, n):
            s = support(trees, X, R)
            if s > 0:
                found[frozenset(X), frozenset(R)] = s
    return found


def supports(trees: dict[Hashable, Paths], m: int, n: int) -> dict[Key, int]:
    """{(X, R): sup(X, R) > 0} per record: each record adds 1 to each (X, R) it holds (X among its own labels, R
    among its own relations between X's labels); a record yields each key once."""
    counts: Counter[Key] = Counter()
    for t in trees.values():
        rel = relations(t)
        for X in _subsets(labels(t), 1, m):
            held = [(a, b) for (a, b) in rel if a in X and b in X]
            for R in _subsets(held, 0, n):
                counts[frozenset(X), frozenset(R)] += 1
    return dict(counts)


def largest_k_brute(trees: dict[Hashable, Paths], m: int, n: int) -> int | None:
    """largest_k from supports_brute."""
    return min(supports_brute(trees, m, n).values(), default=None)


def largest_k(trees: dict[Hashable, Paths], m: int, n: int) -> int | None:
    """The largest k for which the forest is k^(m,n)-anonymous (smallest positive support); None when empty."""
    return min(supports(trees, m, n).values(), default=None)


def violations(trees: dict[Hashable, Paths], k: int, m: int, n: int) -> list[tuple[frozenset, frozenset, int]]:
    """Every (X, R, support) with 0 < support < k, smallest X then R first."""
    found = [(X, R, s) for (X, R), s in supports(trees, m, n).items() if s < k]
    return sorted(found, key=lambda v: (len(v[0]), len(v[1]), repr(sorted(map(repr, v[0]))),
                                        repr(sorted(map(repr, v[1])))))


# ------------------------------------------------------------------------------------------------ information loss
def rpd_path(depths_and_domains: Iterable[tuple[int, int]]) -> float:
    """Eq. 1: RPD(p) = 1 / prod(d(u_i) * |C(u_i)|) over the path's nodes (top nodes have depth 1)."""
    return 1 / math.prod(d * c for d, c in depths_and_domains)


def rpd_record(paths: Iterable[Path], domain_size: Callable[[Label], int]) -> float:
    """Eq. 2: the average RPD of the record's leaf paths; domain_size(label) = |C(u)|."""
    values = [rpd_path((depth, domain_size(label)) for depth, label in enumerate(path, start=1)) for path in paths]
    return sum(values) / len(values)


def rpd(trees: dict[Hashable, Paths], domain_size: Callable[[Label], int]) -> float:
    """Eq. 3: the average RPD of the records."""
    return sum(rpd_record(t, domain_size) for t in trees.values()) / len(trees)


def dtree(nodes_levels: Iterable[int], height: int, relations: int, broken: int) -> float:
    """Eq. 5: 0.5 * mean(level difference / DGH height over the subtree's N nodes) + 0.5 * BR / R (0 if R = 0).

    nodes_levels: one level difference (original -> anonymized) per node of the subtree (the root not counted)."""
    levels = list(nodes_levels)
    if not 0 <= broken <= relations:
        raise ValueError("need 0 <= broken <= relations")
    return 0.5 * sum(d / height for d in levels) / len(levels) + (0.5 * broken / relations if relations else 0.0)


# ---------------------------------------------------------------------------------------------------- random data
def random_forest(rng: random.Random, records: int, classes: list[str], values_per_class: int,
                  max_children: int) -> list[tuple[int, int, int | None, str, str | None]]:
    """Random node-table rows: 1..max_children top nodes per record, 0..max_children children per node, each of a
    class after its parent's, no two siblings with the same label; values '<class><i>' or (about 1 in 5) None.
    Node ids are unique over the whole table."""
    rows: list[tuple[int, int, int | None, str, str | None]] = []
    next_id = iter(range(1, 1 << 62))

    def grow(record: int, parent: int | None, first_class: int, how_many: int) -> None:
        seen = set()
        for _ in range(how_many):
            if first_class >= len(classes):
                return
            c = rng.randrange(first_class, len(classes))
            value = None if rng.random() < 0.2 else f"{classes[c]}{rng.randrange(values_per_class)}"
            if (c, value) in seen:
                continue
            seen.add((c, value))
            node = next(next_id)
            rows.append((record, node, parent, classes[c], value))
            grow(record, node, c + 1, rng.randint(0, max_children))

    for record in range(1, records + 1):
        grow(record, None, 0, rng.randint(1, max_children))
    return rows
