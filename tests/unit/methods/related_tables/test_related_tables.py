"""Related tables (``method: related_tables``, seed 003) on both engines: every release checked by the plain-Python
oracle (``tests/oracle_related.py``) from the written node table alone; AllCutSearch with n = 0 against an
exhaustive search of every cut (the optimal k^m cut); GreedyCutSearch with a beam wider than any step against
AllCutSearch; the released trees against the cut applied in Python; the engines against each other."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.config import parse_config
from sqlanon.errors import NoSolutionError
from sqlanon.methods.related_tables.cuts import PATH_BITS
from tests import oracle_related as oracle
from tests.helpers import Engine
from tests.strategies import SETTINGS

#: Each class: value -> its labels up to the top ('*'). NULL has no row: the loader adds one (NULL below the top).
HIERARCHIES = {
    "grp": {"a1": ["A", "*"], "a2": ["A", "*"], "b1": ["B", "*"], "b2": ["B", "*"]},
    "day": {"d1": ["D12", "W1", "*"], "d2": ["D12", "W1", "*"], "d3": ["D34", "W1", "*"], "d4": ["D34", "W1", "*"],
            "d5": ["D56", "W2", "*"], "d6": ["D56", "W2", "*"]},
    "kind": {"x": ["XY", "*"], "y": ["XY", "*"], "z": ["Z", "*"]},
}
CLASSES = ["grp", "day", "kind"]
TABLES = {
    "cust": {"id": "INTEGER", "grp": "VARCHAR"},
    "ord": {"id": "INTEGER", "cust": "INTEGER", "day": "VARCHAR"},
    "item": {"id": "INTEGER", "ord": "INTEGER", "kind": "VARCHAR"},
}


@dataclass(frozen=True)
class Data:
    cust: list[tuple]
    ord: list[tuple]
    item: list[tuple]
    orders: int | None
    items: int | None


@st.composite
def forests(draw: st.DrawFn) -> Data:
    customers = draw(st.integers(2, 8))
    value = {name: st.one_of(st.sampled_from(sorted(h)), st.none()) if draw(st.booleans())
             else st.sampled_from(sorted(h)) for name, h in HIERARCHIES.items()}
    cust = [(i, draw(value["grp"])) for i in range(customers)]
    ords, items = [], []
    for c in range(customers):
        for _ in range(draw(st.integers(0, 3))):
            ords.append((len(ords), c, draw(value["day"])))
    for o in range(len(ords)):
        for _ in range(draw(st.integers(0, 3))):
            items.append((len(items), o, draw(value["kind"])))
    # Duplicated records make passing cuts more likely.
    copies = draw(st.integers(1, 2))
    if copies > 1:
        cust, ords, items = _copies(cust, ords, items, copies)
    return Data(cust, ords, items, draw(st.sampled_from([None, 1, 2])), draw(st.sampled_from([None, 2])))


def _copies(cust: list[tuple], ords: list[tuple], items: list[tuple], copies: int) -> tuple[list, list, list]:
    c2, o2, i2 = [], [], []
    for n in range(copies):
        c2 += [(c + n * 1000, g) for c, g in cust]
        o2 += [(o + n * 1000, c + n * 1000, d) for o, c, d in ords]
        i2 += [(i + n * 10000, o + n * 1000, k) for i, o, k in items]
    return c2, o2, i2


def load(engine: Engine, data: Data) -> None:
    """The tables, replacing those of an earlier example (hypothesis reuses the fixture's database)."""
    for name in TABLES:
        engine.execute(f"DROP TABLE IF EXISTS {name}")
        engine.create_table(name, TABLES[name], getattr(data, name))


def config(data: Data, url: str | None, *, k: int, m: int, n: int, strategy: str = "greedy_cut", beam: int = 2,
           output: str = "trees", **extra: Any) -> dict[str, Any]:
    def attr(name: str) -> dict[str, Any]:
        return {"column": name, "hierarchy": {"inline": HIERARCHIES[name]}}

    items = {"table": "item", "foreign_key": "ord", "key": "id", "attributes": {"kind": attr("kind")}}
    if data.items is not None:
        items["limit"] = data.items
    orders = {"table": "ord", "foreign_key": "cust", "key": "id", "attributes": {"day": attr("day")},
              "children": [items]}
    if data.orders is not None:
        orders["limit"] = data.orders
    return {
        "method": "related_tables",
        **({"source": {"url": url}} if url else {}),
        "records": {"table": "cust", "key": "id", "attributes": {"grp": attr("grp")}, "children": [orders]},
        "privacy": {"k": k, "m": m, "n": n},
        "search": {"strategy": strategy, "beam": beam},
        "output": {"table": output, "if_exists": "replace", **extra},
        "history": {"enabled": False},
    }


# -- the test's own model of the data and of cuts -----------------------------------------------------------------
def chain(cls: str, value: Any) -> list[tuple[int, Any]]:
    """(level, label) from the value up to the class's top."""
    if value is None:  # the loader's NULL row: NULL below the top
        top = len(next(iter(HIERARCHIES[cls].values())))
        return [(lvl, None) for lvl in range(top)] + [(top, "*")]
    return [(0, value)] + [(i + 1, label) for i, label in enumerate(HIERARCHIES[cls][value])]


def source_trees(data: Data) -> dict[int, list[list[tuple[str, Any]]]]:
    """Each customer's root-to-leaf paths of (class, value), the fan-out limits applied (first by id)."""
    orders: dict[int, list[tuple]] = {}
    for o in sorted(data.ord):
        orders.setdefault(o[1], []).append(o)
    items: dict[int, list[tuple]] = {}
    for i in sorted(data.item):
        items.setdefault(i[1], []).append(i)
    out = {}
    for cid, grp in data.cust:
        paths = []
        kept = orders.get(cid, [])[:data.orders] if data.orders else orders.get(cid, [])
        if not kept:
            paths.append([("grp", grp)])
        for oid, _, day in kept:
            below = items.get(oid, [])[:data.items] if data.items else items.get(oid, [])
            if not below:
                paths.append([("grp", grp), ("day", day)])
            for _, _, kind in below:
                paths.append([("grp", grp), ("day", day), ("kind", kind)])
        out[cid] = paths
    return out


def node_key(cls: str, lvl: int, label: Any) -> tuple[str, int, Any]:
    return cls, lvl, label


def inner_nodes(data: Data) -> dict[tuple, tuple]:
    """Inner DGH nodes the data reaches (level >= 1) -> their parent (None above a class's top)."""
    out: dict[tuple, tuple | None] = {}
    for cls, column in (("grp", data.cust), ("day", data.ord), ("kind", data.item)):
        index = {"grp": 1, "day": 2, "kind": 2}[cls]
        for row in column:
            ups = chain(cls, row[index])
            for (lvl, label), parent in zip(ups[1:], [*ups[2:], None], strict=True):
                out[(cls, lvl, label)] = None if parent is None else (cls, *parent)
    return out


def all_cuts(inner: dict[tuple, tuple]) -> list[frozenset[tuple]]:
    """Every set of expanded inner nodes closed under ancestors (a cut each), the class tops never all closed."""
    nodes = sorted(inner, key=lambda n: (n[0], -n[1], str(n[2])))
    cuts = []
    for size in range(len(nodes) + 1):
        for chosen in itertools.combinations(nodes, size):
            s = set(chosen)
            if all(inner[n] is None or inner[n] in s for n in s):
                cuts.append(frozenset(s))
    return cuts


def cut_label(cls: str, value: Any, expanded: frozenset[tuple]) -> tuple[int, Any]:
    ups = chain(cls, value)
    for lvl, label in reversed(ups):
        if (cls, lvl, label) not in expanded:
            return lvl, label
    raise AssertionError("a value is never expanded")


def cut_trees(source: dict[int, list[list[tuple[str, Any]]]], expanded: frozenset[tuple]):
    """Records under the cut: oracle trees (labels (class, label text)) and each node's (class, level)."""
    trees, levels = {}, {}
    for rid, paths in source.items():
        projected = set()
        for path in paths:
            out = []
            for cls, value in path:
                lvl, label = cut_label(cls, value, expanded)
                out.append((cls, label))
                levels[(cls, label)] = lvl
            projected.add(tuple(out))
        trees[rid] = frozenset(p for p in projected
                               if not any(len(q) > len(p) and q[:len(p)] == p for q in projected))
    return trees, levels


def widths(data: Data) -> dict[tuple[str, int], int]:
    """|C(u)|: the DGH nodes of a class at a level that the data reaches."""
    seen: dict[tuple[str, int], set] = {}
    for cls, column in (("grp", data.cust), ("day", data.ord), ("kind", data.item)):
        index = {"grp": 1, "day": 2, "kind": 2}[cls]
        for row in column:
            for lvl, label in chain(cls, row[index]):
                seen.setdefault((cls, lvl), set()).add(label)
    return {key: len(v) for key, v in seen.items()}


def rpd(trees: dict, levels: dict, data: Data) -> float:
    width = widths(data)
    return oracle.rpd(trees, lambda label: width[(label[0], levels[label])])


def rpd_a(trees: dict, levels: dict, data: Data) -> float:
    """RPD_a (Eq. 6-7) of the trees: on their synopsis (every rooted label path any record holds, with the records
    holding it), per leaf the supports of its prefixes summed times 1 / prod(i * |C(u_i)|), summed, over the
    synopsis's nodes times its leaves."""
    width = widths(data)
    support: dict[tuple, int] = {}
    for paths in trees.values():
        for prefix in {p[:i] for p in paths for i in range(1, len(p) + 1)}:
            support[prefix] = support.get(prefix, 0) + 1
    inner = {p[:-1] for p in support if len(p) > 1}
    leaves = [p for p in support if p not in inner]
    total = sum(sum(support[leaf[:i]] for i in range(1, len(leaf) + 1))
                * math.prod(1 / (i * width[(label[0], levels[label])]) for i, label in enumerate(leaf, 1))
                for leaf in leaves)
    return total / (len(support) * len(leaves)) if leaves else 0.0


def shape(trees: dict[Any, frozenset]) -> list[list[str]]:
    """The trees as a sorted list, record ids forgotten (labels may be None: compared as text)."""
    return sorted(sorted(map(repr, t)) for t in trees.values())


def label_sets(trees: dict[Any, frozenset]) -> list[list[str]]:
    return sorted(sorted(map(repr, oracle.labels(t))) for t in trees.values())


def released(engine: Engine, table: str = "trees") -> dict[Any, frozenset]:
    rows = engine.execute(f"SELECT record_id, node_id, parent_id, attribute, value FROM {table}")
    return oracle.trees_from_nodes(rows, CLASSES)


def used_data(data: Data) -> Data:
    """The rows the records reach (the fan-out limits applied): only their values count in a class's widths."""
    orders: dict[int, list[tuple]] = {}
    for o in sorted(data.ord):
        orders.setdefault(o[1], []).append(o)
    kept_orders = [o for rows in orders.values() for o in (rows[:data.orders] if data.orders else rows)
                   if o[1] in {c[0] for c in data.cust}]
    items: dict[int, list[tuple]] = {}
    for i in sorted(data.item):
        items.setdefault(i[1], []).append(i)
    kept_ids = {o[0] for o in kept_orders}
    kept_items = [i for oid, rows in items.items() if oid in kept_ids
                  for i in (rows[:data.items] if data.items else rows)]
    return Data(data.cust, kept_orders, kept_items, data.orders, data.items)


# -- tests --------------------------------------------------------------------------------------------------------
@pytest.mark.spark
@settings(max_examples=8, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(1, 3), n=st.integers(0, 2),
       strategy=st.sampled_from(["greedy_cut", "all_cuts", "only_cuts"]))
def test_every_release_is_k_mn_anonymous(engine: Engine, data: Data, k: int, m: int, n: int, strategy: str) -> None:
    """Whatever the data and the search, the written trees pass the oracle; their labels are the cut's projection
    of the source's (disassociation moves nodes, never changes a record's labels); a refusal is right."""
    assume(k <= len(data.cust))
    load(engine, data)
    source = source_trees(used_data(data))
    try:
        cfg = parse_config(config(data, None, k=k, m=m, n=n, strategy=strategy))
        result = sqlanon.anonymize(cfg, db=engine.url)
    except NoSolutionError:
        top, _ = cut_trees(source, frozenset())
        assert (oracle.largest_k(top, m, 0) or k) < k or strategy == "only_cuts"
        return
    trees = released(engine)
    assert oracle.largest_k(trees, m, n) >= k
    assert result.verification["largest_k"] == oracle.largest_k(trees, m, n)
    assert result.verified
    assert len(trees) == len(source) == result.rows_considered
    # Disassociation moves nodes but never changes a record's labels: they are the cut's projection.
    expanded = frozenset((cls, lvl, label) for cls, lvl, label in result.expanded)
    projected, _ = cut_trees(source, expanded)
    assert label_sets(trees) == label_sets(projected)
    if strategy == "only_cuts" or n == 0:
        assert result.disassociations == []
        assert shape(trees) == shape(projected)


@settings(max_examples=6, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(1, 3))
def test_all_cuts_with_n_0_is_the_optimal_k_m_cut(duckdb_engine: Engine, data: Data, k: int, m: int) -> None:
    """n = 0 is k^m-anonymity: AllCutSearch finds the cut of lowest RPD that an exhaustive search over every cut
    finds, and writes exactly its trees."""
    assume(k <= len(data.cust))
    load(duckdb_engine, data)
    used = used_data(data)
    source = source_trees(used)
    best: tuple[float, list] | None = None  # the lowest RPD, and the trees of every cut that has it
    for expanded in all_cuts(inner_nodes(used)):
        trees, levels = cut_trees(source, expanded)
        if (oracle.largest_k(trees, m, 0) or 0) >= k:
            cost = rpd(trees, levels, used)
            shown = shape(trees)
            if best is None or cost < best[0] * (1 - 1e-9):
                best = (cost, [shown])
            elif math.isclose(cost, best[0], rel_tol=1e-9):
                best[1].append(shown)
    cfg = parse_config(config(data, None, k=k, m=m, n=0, strategy="all_cuts"))
    try:
        result = sqlanon.anonymize(cfg, db=duckdb_engine.url)
    except NoSolutionError:
        assert best is None
        return
    assert best is not None
    assert math.isclose(result.metrics["rpd"], best[0], rel_tol=1e-9)
    written = released(duckdb_engine)
    assert (oracle.largest_k(written, m, 0) or 0) >= k
    assert shape(written) in best[1]


@settings(max_examples=8, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(2, 3), n=st.integers(0, 2))
def test_greedy_with_a_wide_beam_agrees_with_all_cuts(duckdb_engine: Engine, data: Data, k: int, m: int,
                                                      n: int) -> None:
    assume(k <= len(data.cust))
    load(duckdb_engine, data)
    outcomes = []
    for strategy, beam in (("all_cuts", 2), ("greedy_cut", 64)):
        try:
            result = sqlanon.anonymize(parse_config(config(data, None, k=k, m=m, n=n, strategy=strategy, beam=beam)),
                                       db=duckdb_engine.url)
            outcomes.append((round(result.metrics["rpd"], 12), result.cuts_passed))
        except NoSolutionError:
            outcomes.append(None)
    assert outcomes[0] == outcomes[1]


def paths_back(rows: list[tuple], columns: list[str]) -> dict[Any, frozenset]:
    """The trees the path table gives back: each row's labels in path_attributes' order."""
    out: dict[Any, set] = {}
    for row in rows:
        values = dict(zip(columns, row, strict=True))
        path = tuple((name, values[name]) for name in values["path_attributes"].split(","))
        out.setdefault(values["record_id"], set()).add(path)
    return {rid: frozenset(paths) for rid, paths in out.items()}


@settings(max_examples=6, **SETTINGS)
@given(data=forests(), k=st.integers(2, 3), n=st.integers(0, 2))
def test_the_path_table_gives_the_trees_back(engine: Engine, data: Data, k: int, n: int) -> None:
    """output.paths: one row per root-to-leaf path, disassociated trees included, from which the node table's
    trees come back exactly (NULL labels told from missing nodes by path_attributes)."""
    assume(k <= len(data.cust))
    load(engine, data)
    cfg = parse_config(config(data, None, k=k, m=3, n=n, paths="tree_paths"))
    try:
        sqlanon.anonymize(cfg, db=engine.url)
    except NoSolutionError:
        return
    columns = ["record_id", "path_id", *CLASSES, "path_attributes"]
    rows = engine.execute(f"SELECT {', '.join(columns)} FROM tree_paths")
    assert paths_back(rows, columns) == released(engine)
    assert len({(r[0], r[1]) for r in rows}) == len(rows)



def _fresh_checks(engine: Engine, data: Data, k: int, m: int, n: int, strategy: str, monkeypatch,
                  path_bits: bool = True) -> list[bool]:
    """Run a search with every check of a specialization on the records it changes compared with the oracle's
    on the whole specialized forest; the structure's answers given. ``path_bits``: the labels read with the
    source paths they are on (``CutEvaluator.check_fresh``, values and structure at once; the default below 64
    paths a record), else their trees projected and labels related by looking them up in arrays
    (``CutEvaluator.fresh_violation``, after the value check passed, so a violation there is structural)."""
    from sqlanon.methods.related_tables import cuts
    from sqlanon.methods.related_tables.cuts import CutEvaluator

    # Set either way: a test's monkeypatch lasts through its loops and hypothesis examples.
    monkeypatch.setattr(cuts, "PATH_BITS", PATH_BITS if path_bits else 0)

    source = source_trees(used_data(data))
    answers: list[bool] = []
    original_violation, original_check = CutEvaluator.fresh_violation, CutEvaluator.check_fresh

    def largest_k(self: CutEvaluator, parent: frozenset[int], node: int, n: int) -> int:
        nodes = self.forest.nodes
        expanded = frozenset((self.forest.classes[nodes[e].cls], nodes[e].lvl, nodes[e].label)
                             for e in parent | {node} if e != 0)
        trees, _ = cut_trees(source, expanded)
        return oracle.largest_k(trees, m, n) or k

    def fresh_violation(self: CutEvaluator, parent: frozenset[int], node: int) -> bool:
        found = original_violation(self, parent, node)
        assert found == (largest_k(self, parent, node, n) < k)
        answers.append(found)
        return found

    def check_fresh(self: CutEvaluator, parent: frozenset[int], node: int, structure: bool) -> tuple[bool, bool]:
        values, found = original_check(self, parent, node, structure)
        assert values == (largest_k(self, parent, node, 0) >= k)
        if values and structure:
            assert found == (largest_k(self, parent, node, n) < k)
            answers.append(found)
        return values, found

    monkeypatch.setattr(CutEvaluator, "fresh_violation", fresh_violation)
    monkeypatch.setattr(CutEvaluator, "check_fresh", check_fresh)
    _run_then_undo(engine, data, k, m, n, strategy, monkeypatch)
    return answers


def _run_then_undo(engine: Engine, data: Data, k: int, m: int, n: int, strategy: str, monkeypatch) -> Any:
    """Load the data and run a search, then take back the test's monkeypatches: its result (None: refused)."""
    load(engine, data)
    try:
        return sqlanon.anonymize(parse_config(config(data, None, k=k, m=m, n=n, strategy=strategy)),
                                 db=engine.url)
    except NoSolutionError:
        return None
    finally:  # hypothesis runs every example with the same fixture: no wrapper around the last one's
        monkeypatch.undo()


@settings(max_examples=8, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(2, 3), n=st.integers(1, 2),
       strategy=st.sampled_from(["greedy_cut", "only_cuts"]), path_bits=st.booleans())
def test_the_structure_check_of_a_specialization_on_its_changed_records(engine: Engine, data: Data, k: int, m: int,
                                                                        n: int, strategy: str, path_bits: bool,
                                                                        monkeypatch) -> None:
    """A specialization of a cut that needed no disassociation is checked for structural violations on the
    records it changes alone (``CutEvaluator.fresh_violation``): each answer is the oracle's on the whole forest,
    with labels related by the paths they share and by array lookups."""
    assume(k <= len(data.cust))
    _fresh_checks(engine, data, k, m, n, strategy, monkeypatch, path_bits)


def crossed() -> Data:
    """Four records with the same labels, two orders each (d1, d3) and one item under each (x, y), crossed in
    half of them: under week W1 or kind XY every record has the same relations, but specializing both to D12
    and x gives D12 ~> x to two records only. With k = 3 some cuts need a disassociation."""
    cust = [(c, "a1") for c in range(4)]
    ords = [(2 * c + j, c, day) for c in range(4) for j, day in enumerate(("d1", "d3"))]
    items = [(o, o, kind) for o, kind in enumerate(["x", "y", "y", "x"] * 2)]
    return Data(cust, ords, items, None, None)


def test_a_specialization_that_breaks_the_structure_is_seen_on_its_changed_records(engine: Engine,
                                                                                   monkeypatch) -> None:
    """The crossed forest (``crossed``): specializing both day and kind to D12 and x gives D12 ~> x to two
    records only (k = 3). The changed-records check must see it, and pass others."""
    data = crossed()
    for strategy in ("only_cuts", "greedy_cut"):
        for path_bits in (True, False):
            answers = _fresh_checks(engine, data, 3, 2, 1, strategy, monkeypatch, path_bits)
            assert True in answers and False in answers, (strategy, path_bits, answers)


def test_labels_on_different_paths_of_a_record_are_not_related(engine: Engine, monkeypatch) -> None:
    """A record whose order d3 holds item z and whose order d1 does not has D12 and z, unrelated: two records
    with one order d1 -> z, one with d1 -> x and d3 -> z, one with d1 -> x, z and d3 -> z (k = 2, m = 2, n = 1).
    Under D12/D34 and Z every relation has two records or more, while D12 and Z unrelated are held by one:
    a check that took "on different paths" for "related" (or missed a shared path) would see a violation."""
    data = Data([(c, "a1") for c in range(4)],
                [(0, 0, "d1"), (1, 1, "d1"), (2, 2, "d1"), (3, 2, "d3"), (4, 3, "d1"), (5, 3, "d3")],
                [(0, 0, "z"), (1, 1, "z"), (2, 2, "x"), (3, 3, "z"), (4, 4, "x"), (5, 4, "z"), (6, 5, "z")],
                None, None)
    for strategy in ("only_cuts", "greedy_cut"):
        for path_bits in (True, False):
            answers = _fresh_checks(engine, data, 2, 2, 1, strategy, monkeypatch, path_bits)
            assert False in answers, (strategy, path_bits, answers)


def test_a_path_that_becomes_a_prefix_of_another_is_dropped_where_paths_differ_in_length(engine: Engine,
                                                                                        monkeypatch) -> None:
    """A cut projects a path to one of its own length, so only a record with paths of two lengths can have one
    become a proper prefix of another, and only then is one looked for (``Forest.uneven``). Four records with an
    order holding item x and an order without items, on days d1 and d2 crossed in half of them: at the days,
    d1 ~> x holds for two records only (k = 4, n = 1), so OnlyCutSearch stays at D12, where each record's
    [grp, D12] is a prefix of its [grp, D12, x] and must be dropped (it is no node of the release, but a leaf path
    of RPD). Every order of the second forest has an
    item: nothing to look for."""
    from sqlanon.methods.related_tables import method as rt_method

    forests_built = []
    build = rt_method.build_forest

    def build_forest(session, cfg):
        forests_built.append(build(session, cfg))
        return forests_built[-1]

    monkeypatch.setattr(rt_method, "build_forest", build_forest)
    cust = [(c, "a1") for c in range(4)]
    days = [("d1", "d2"), ("d2", "d1")]  # the first order of each record has the item
    uneven = Data(cust, [(2 * c + j, c, day) for c in range(4) for j, day in enumerate(days[c % 2])],
                  [(c, 2 * c, "x") for c in range(4)], None, None)
    even = Data(cust, [(c, c, ("d1", "d2")[c % 2]) for c in range(4)], [(c, c, "x") for c in range(4)], None, None)
    for data, expected in ((uneven, True), (even, False)):
        load(engine, data)
        result = sqlanon.anonymize(parse_config(config(data, None, k=4, m=2, n=1, strategy="only_cuts")),
                                   db=engine.url)
        assert forests_built[-1].uneven is expected
        expanded = frozenset((cls, lvl, label) for cls, lvl, label in result.expanded)
        projected, levels = cut_trees(source_trees(used_data(data)), expanded)
        assert shape(released(engine)) == shape(projected)
        # A prefix left among a record's paths adds no node to the release, but it is one more leaf path to RPD.
        assert result.metrics["rpd"] == pytest.approx(rpd(projected, levels, used_data(data)), rel=1e-12)
        if expected:
            assert ("day", 1, "D12") not in expanded and all(len(paths) == 1 for paths in projected.values())


def single_labels_pass(trees: dict[Any, frozenset], k: int) -> bool:
    """Whether every label of the trees is held by k records or more (k^m at size 1: no cut a search keeps has a
    label held by 1 to k - 1 records)."""
    held: dict[Any, int] = {}
    for tree in trees.values():
        for label in oracle.labels(tree):
            held[label] = held.get(label, 0) + 1
    return all(count >= k for count in held.values())


def disassociated_paths(paths: set[tuple] | frozenset[tuple], a: Any, b: Any) -> set[tuple]:
    """Definition 2 of the relation a ~> b on one record's tree, in plain Python: a path through a above b loses b,
    b hangs under a's parent, and paths that became copies or proper prefixes of another merge."""
    out = set()
    for path in paths:
        if a in path and b in path and path.index(a) < path.index(b):
            out.add(tuple(x for x in path if x != b))
            out.add(path[:path.index(a)] + (b,))
        else:
            out.add(path)
    return {q for q in out if not any(len(r) > len(q) and r[:len(q)] == q for r in out)}


def disassociated(trees: dict[Any, frozenset], a: tuple, b: tuple) -> dict[Any, frozenset]:
    """The relation a ~> b disassociated in every record's tree."""
    return {rid: frozenset(disassociated_paths(paths, a, b)) for rid, paths in trees.items()}


def lifted_rpds(trees: dict[Any, frozenset], levels: dict, data: Data, seed: int) -> list[float]:
    """The RPD of the trees after each single disassociation of a relation they hold, and after 20 random
    sequences of two or three (whatever FixStructure would choose: the bound holds for any)."""
    def held(now: dict[Any, frozenset]) -> list[tuple]:
        return sorted({(p[i], p[j]) for paths in now.values() for p in paths
                       for i in range(len(p)) for j in range(i + 1, len(p))}, key=repr)

    out = [rpd(disassociated(trees, a, b), levels, data) for a, b in held(trees)]
    rng = random.Random(seed)
    for _ in range(20):
        now = trees
        for _ in range(rng.randint(2, 3)):
            relations = held(now)
            if not relations:
                break
            now = disassociated(now, *rng.choice(relations))
        out.append(rpd(now, levels, data))
    return out


def _bound_checks(engine: Engine, data: Data, k: int, m: int, n: int, strategy: str,
                  monkeypatch) -> list[tuple[float, float]]:
    """Run a search with every ``CutEvaluator.bound`` compared with the RPD of every cut below its cut that leaves
    its closed nodes unexpanded and holds no label of 1 to k - 1 records (the test's own projection and RPD, every
    cut of the hierarchies enumerated) and, where the strategy disassociates (GreedyCutSearch and AllCutSearch
    with n >= 1 and m >= 2), with the RPD of those cuts after disassociations (``lifted_rpds``); the (bound,
    lowest RPD below) pairs."""
    from sqlanon.methods.related_tables.cuts import CutEvaluator

    used = used_data(data)
    source = source_trees(used)
    every_cut = [cut for cut in all_cuts(inner_nodes(used)) if single_labels_pass(cut_trees(source, cut)[0], k)]
    lifts = strategy != "only_cuts" and n >= 1 and m >= 2
    lowest_of: dict[frozenset, float] = {}
    for i, cut in enumerate(every_cut):
        trees, levels = cut_trees(source, cut)
        lowest_of[cut] = min([rpd(trees, levels, used)] + (lifted_rpds(trees, levels, used, i) if lifts else []))
    checked: list[tuple[float, float]] = []
    original = CutEvaluator.bound

    def bound(self: CutEvaluator, expanded: frozenset[int], closed: frozenset[int]) -> float:
        found = original(self, expanded, closed)
        nodes = self.forest.nodes

        def key(e: int) -> tuple:
            return self.forest.classes[nodes[e].cls], nodes[e].lvl, nodes[e].label

        here = frozenset(key(e) for e in expanded if e != 0)
        fixed = {key(e) for e in closed}
        below = [cut for cut in every_cut if here <= cut and not cut & fixed]
        lowest = min(lowest_of[cut] for cut in below)
        assert found <= lowest * (1 + 1e-9), (sorted(here, key=repr), sorted(fixed, key=repr), found, lowest)
        checked.append((found, lowest))
        return found

    monkeypatch.setattr(CutEvaluator, "bound", bound)
    _run_then_undo(engine, data, k, m, n, strategy, monkeypatch)
    return checked


@settings(max_examples=8, **SETTINGS)
@given(data=forests(), k=st.integers(2, 3), m=st.integers(1, 3), n=st.integers(0, 2),
       strategy=st.sampled_from(["greedy_cut", "all_cuts", "only_cuts"]))
def test_the_rpd_bound_is_never_above_a_cut_below(duckdb_engine: Engine, data: Data, k: int, m: int, n: int,
                                                  strategy: str, monkeypatch) -> None:
    """``CutEvaluator.bound``, asked by the search before it specializes a cut, is at most the RPD of every cut
    below it that keeps its closed values (enumerated and measured in Python)."""
    assume(k <= len(data.cust))
    _bound_checks(duckdb_engine, data, k, m, n, strategy, monkeypatch)


@settings(max_examples=10, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4))
def test_the_nodes_a_search_may_expand_are_those_whose_children_k_records_hold(duckdb_engine: Engine, data: Data,
                                                                               k: int, monkeypatch) -> None:
    """``CutEvaluator.expandable`` (the nodes whose specialization ``specializations`` asks the database about, and
    below which ``bound`` counts wider levels) is every inner node each of whose children, inner node or value, is
    held by k records or more: the test's own count over the source trees."""
    from sqlanon.methods.related_tables.cuts import CutEvaluator

    assume(k <= len(data.cust))
    used = used_data(data)
    holders: dict[tuple, set] = {}
    for rid, paths in source_trees(used).items():
        for cls, value in (label for path in paths for label in path):
            for lvl, label in chain(cls, value):
                holders.setdefault((cls, lvl, label), set()).add(rid)
    parents: dict[tuple, list[tuple]] = {}
    for node in holders:
        cls, lvl, label = node
        ups = chain(cls, label) if lvl == 0 else None
        parent = (cls, 1, ups[1][1]) if ups is not None else inner_nodes(used)[node]
        if parent is not None:
            parents.setdefault(parent, []).append(node)
    expected = {node for node, children in parents.items() if all(len(holders[c]) >= k for c in children)}
    seen: list[CutEvaluator] = []
    original = CutEvaluator.__init__

    class Seen(Exception):
        """Raised once the evaluator is made: the search itself is not the test's."""

    def init(self: CutEvaluator, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        seen.append(self)
        raise Seen

    monkeypatch.setattr(CutEvaluator, "__init__", init)
    load(duckdb_engine, data)
    try:
        sqlanon.anonymize(parse_config(config(data, None, k=k, m=2, n=1)), db=duckdb_engine.url)
    except Seen:
        pass
    finally:
        monkeypatch.undo()
    assert seen
    nodes = seen[0].forest.nodes
    found = {(seen[0].forest.classes[nodes[g].cls], nodes[g].lvl, nodes[g].label) for g in seen[0].expandable}
    assert found == expected


#: Records whose bound is tight: customers without orders have one path, the class grp alone, so once the best
#: cut keeps every grp value, a subtree that closed grp's top (or A, B) has a bound above it.
SKIPPED = Data(cust=[(c, ["a1", "a2", "b1", "b2"][c % 4]) for c in range(16)],
               ord=[(o, 8 + o % 8, ["d1", "d3", "d5"][o % 3]) for o in range(16)],
               item=[(i, i % 16, ["x", "y", "z"][i % 3]) for i in range(24)], orders=None, items=None)


def test_the_rpd_bound_is_checked_where_it_skips(duckdb_engine: Engine, monkeypatch) -> None:
    """On data where subtrees are skipped, every bound asked is at most the lowest RPD below its cut, and some
    bound is above the best RPD (the skip the other tests then rely on)."""
    checked = _bound_checks(duckdb_engine, SKIPPED, 2, 2, 1, "greedy_cut", monkeypatch)
    assert checked
    result = sqlanon.anonymize(parse_config(config(SKIPPED, None, k=2, m=2, n=1)), db=duckdb_engine.url)
    assert result.subtrees_bounded > 0
    assert any(found > result.metrics["rpd"] for found, _ in checked)


def test_the_rpd_bound_counts_lifted_leaves_where_cuts_disassociate(duckdb_engine: Engine, monkeypatch) -> None:
    """Which bound each search asks for (``rpd_bound.sql.j2``, whose forms the template tests check on paper
    values): on a forest whose records' paths are equally long (SKIPPED), the leaf-path bound, and with it the
    lifted leaves' where cuts may have disassociations (GreedyCutSearch and AllCutSearch with n >= 1, m >= 2); on
    one with a record whose paths differ in length, the least general path's where cuts may disassociate."""
    from sqlanon.methods.related_tables import cuts

    uneven = Data(SKIPPED.cust, SKIPPED.ord + [(16, 8, "d3")], SKIPPED.item, None, None)  # order 16: no item
    for data, strategy, n, expected in [(SKIPPED, "greedy_cut", 1, (True, True)),
                                        (SKIPPED, "all_cuts", 1, (True, True)),
                                        (SKIPPED, "only_cuts", 1, (True, False)),
                                        (SKIPPED, "greedy_cut", 0, (True, False)),
                                        (uneven, "greedy_cut", 1, (False, False)),
                                        (uneven, "only_cuts", 1, (True, False))]:
        asked: list[tuple[bool, bool]] = []
        run = cuts.CutEvaluator.bound

        def bound(self: Any, expanded: frozenset[int], closed: frozenset[int], run: Any = run,
                  asked: list = asked) -> float:
            original = self.adapter.run

            def seen(template: str, **context: Any) -> Any:
                if template.endswith("rpd_bound.sql.j2"):
                    asked.append((bool(context.get("leaves")), bool(context.get("lifted"))))
                return original(template, **context)

            self.adapter.run = seen
            try:
                return run(self, expanded, closed)
            finally:
                del self.adapter.run

        monkeypatch.setattr(cuts.CutEvaluator, "bound", bound)
        _run_then_undo(duckdb_engine, data, 2, 2, n, strategy, monkeypatch)
        assert asked and set(asked) == {expected}, (strategy, n, asked)


@pytest.mark.spark
@settings(max_examples=8, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(1, 3), n=st.integers(0, 2),
       strategy=st.sampled_from(["greedy_cut", "all_cuts", "only_cuts"]))
def test_the_rpd_bound_changes_no_cut_found(engine: Engine, data: Data, k: int, m: int, n: int,
                                            strategy: str) -> None:
    """With ``search.bound`` (the default) every search finds the cut and disassociations it finds without, having
    evaluated no more cuts."""
    assume(k <= len(data.cust))
    load(engine, data)
    outcomes = []
    for bound in (False, True):
        cfg = parse_config(config(data, None, k=k, m=m, n=n, strategy=strategy))
        cfg = cfg.model_copy(update={"search": cfg.search.model_copy(update={"bound": bound})})
        try:
            result = sqlanon.anonymize(cfg, db=engine.url)
        except NoSolutionError:
            outcomes.append(None)
            continue
        outcomes.append((result.expanded, result.disassociations, result.metrics["rpd"],
                         result.cuts_evaluated, result.subtrees_bounded))
    if outcomes[0] is None:
        assert outcomes[1] is None
        return
    assert outcomes[1] is not None
    assert outcomes[0][:2] == outcomes[1][:2]
    assert math.isclose(outcomes[0][2], outcomes[1][2], rel_tol=1e-9)
    assert outcomes[1][3] <= outcomes[0][3]
    assert outcomes[0][4] == 0


def _pop_orders(engine: Engine, data: Data, k: int, m: int, n: int, beam: int, bound: bool,
                monkeypatch) -> dict[bool, tuple[tuple | None, list[list[int]]]]:
    """GreedyCutSearch run with the cuts with disassociations popped last (``CutSearch.DISASSOCIATED_LAST``) and
    in the paper's order (RPD_a alone): per order, the cut and disassociations found (None: no cut passes) and the
    cuts evaluated, in order."""
    from sqlanon.methods.related_tables.search import CutSearch

    load(engine, data)
    run = CutSearch.run
    out = {}
    for last in (False, True):
        searches: list[CutSearch] = []

        def spy(self: CutSearch, searches: list = searches) -> Any:
            searches.append(self)
            return run(self)

        monkeypatch.setattr(CutSearch, "run", spy)
        monkeypatch.setattr(CutSearch, "DISASSOCIATED_LAST", last)
        cfg = parse_config(config(data, None, k=k, m=m, n=n, beam=beam))
        cfg = cfg.model_copy(update={"search": cfg.search.model_copy(update={"bound": bound})})
        try:
            result = sqlanon.anonymize(cfg, db=engine.url)
            found: tuple | None = (result.expanded, result.disassociations)
        except NoSolutionError:
            found = None
        finally:
            monkeypatch.undo()
        out[last] = (found, [sorted(cut) for cut, _ in searches[0].trail])
    return out


@settings(max_examples=8, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(2, 3), n=st.integers(1, 2), beam=st.integers(1, 3))
def test_greedy_cut_search_evaluates_the_same_cuts_whatever_it_pops_first(duckdb_engine: Engine, data: Data, k: int,
                                                                          m: int, n: int, beam: int,
                                                                          monkeypatch) -> None:
    """Without the bound, GreedyCutSearch evaluates the same cuts and finds the same cut and disassociations
    whether it pops the cuts with disassociations last or in the paper's order; with it, the same cut."""
    assume(k <= len(data.cust))
    free = _pop_orders(duckdb_engine, data, k, m, n, beam, False, monkeypatch)
    assert free[False][0] == free[True][0]
    assert sorted(free[False][1]) == sorted(free[True][1])
    bounded = _pop_orders(duckdb_engine, data, k, m, n, beam, True, monkeypatch)
    assert bounded[False][0] == bounded[True][0] == free[False][0]


#: Five customers, twice each, where GreedyCutSearch (k = 3, m = 2, n = 1) queues a cut with a disassociation
#: that the paper's order pops before a cut without one (found by a random search over forests).
POPPED_LATE = Data(*_copies(
    [(0, "a2"), (1, "b2"), (2, "a1"), (3, "a1"), (4, "a1")],
    [(0, 0, "d5"), (1, 0, "d1"), (2, 1, "d2"), (3, 1, "d1"), (4, 1, "d1"), (5, 2, "d4"), (6, 2, "d1"), (7, 3, "d1"),
     (8, 4, "d4"), (9, 4, "d1"), (10, 4, "d5")],
    [(i, o, kind) for i, (o, kind) in enumerate(
        [(0, "x"), (1, "z"), (1, "z"), (1, "x"), (2, "z"), (2, "y"), (2, "x"), (3, "x"), (4, "x"), (4, "y"), (4, "y"),
         (5, "z"), (6, "z"), (7, "z"), (7, "z"), (8, "x"), (9, "z"), (9, "z"), (9, "x"), (10, "x"), (10, "z")])],
    2), None, None)


def test_greedy_cut_search_pops_the_cuts_with_disassociations_last(duckdb_engine: Engine, monkeypatch) -> None:
    """On POPPED_LATE the two orders evaluate the same cuts in different orders (so the test above compares two
    orders, not one twice), and find the same cut."""
    free = _pop_orders(duckdb_engine, POPPED_LATE, 3, 2, 1, 2, False, monkeypatch)
    assert free[False][1] != free[True][1]
    assert sorted(free[False][1]) == sorted(free[True][1])
    assert free[False][0] == free[True][0] is not None


def _violating_relations(adapter: Any, check: dict, relations: str) -> list[tuple[int, int, int]]:
    """The relations of the check's violations with the records (weighted) holding each in ``relations``
    (create_relations.sql.j2's rid, a, b of the current trees), fewest first, then by ids, at most its limit."""
    found: set[tuple[int, int]] = set()
    for size, *key, mask in adapter.execute(f'SELECT * FROM "{check["violations"]}"'):
        pairs = [(p, q) for p in range(int(size)) for q in range(p + 1, int(size))]
        found |= {(int(key[p]), int(key[q])) for bit, (p, q) in enumerate(pairs) if int(mask) >> bit & 1}
    weights = check["weights"]
    supports = []
    for a, b in sorted(found):
        holders = f'SELECT DISTINCT rid FROM "{relations}" WHERE a = {a} AND b = {b}'
        total = (f'SELECT sum(w.weight) FROM ({holders}) AS h JOIN "{weights}" AS w ON w.rid = h.rid' if weights
                 else f"SELECT count(*) FROM ({holders}) AS h")
        supports.append((int(adapter.execute(total)[0][0] or 0), a, b))
    return [(a, b, support) for support, a, b in sorted(supports)[:check["limit"]]]


def _structure_run(engine: Engine, data: Data, k: int, m: int, n: int, strategy: str, monkeypatch,
                   bits: bool) -> tuple:
    """A search whose FixStructure relates labels by the leaf paths they share (``bits``) or by array lookups
    (``CutEvaluator.tree_bits``); every tree it leaves is checked to have no more leaves than its record's source
    paths have nodes together (``Forest.max_nodes``, the bound that makes PATH_BITS bits enough). Its outcome:
    every FixStructure's cut and disassociations, then the cut, disassociations, RPD and cuts evaluated of the
    result (None: refused), then whether each FixStructure used bits."""
    from sqlanon.methods.related_tables.cuts import CutEvaluator
    from sqlanon.methods.related_tables.forest import T

    init, fix = CutEvaluator.__init__, CutEvaluator.fix_structure
    fixed: list[tuple] = []
    used: list[bool] = []

    def forced(self: CutEvaluator, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        assert self.tree_bits == (0 < self.forest.max_nodes <= PATH_BITS)
        self.tree_bits = bits
        run = self.adapter.run

        def compared(template: str, **context: Any) -> Any:
            """Each round's relations and their supports (read from the check's counts) are those of a table of
            the current trees' relations, fewest records first; and the trees holding them read from the labels'
            bits are those of that table."""
            out = run(template, **context)
            name = template.rsplit("/", 1)[-1]
            rules = name == "structure_check.sql.j2" and context["what"] == "rules"
            holders = name == "select_holders.sql.j2" and context.get("items")
            if rules or holders:
                relations = "test_relations"
                self.adapter.drop_tables([relations])
                run(T + "create_relations.sql.j2", table=relations, paths=self.current, depth=self.forest.depth)
                if holders:
                    run(template, **{**context, "items": None, "relations": relations, "table": "test_holders"})
                    assert sorted(self.adapter.execute(f'SELECT rid FROM "{context["table"]}"')) == sorted(
                        self.adapter.execute('SELECT rid FROM "test_holders"'))
                    self.adapter.drop_tables(["test_holders"])
                else:
                    assert [tuple(map(int, r)) for r in out] == _violating_relations(
                        self.adapter, context, relations)
                self.adapter.drop_tables([relations])
            return out

        self.adapter.run = compared

    def checked(self: CutEvaluator) -> Any:
        rules = fix(self)
        used.append(self.tree_bits)
        fixed.append((sorted(self.map_cut or ()), rules))
        leaves = self.adapter.execute(
            f'SELECT max(c) FROM (SELECT count(*) AS c FROM "{self.current}" GROUP BY rid) AS t')
        assert int(leaves[0][0] or 0) <= self.forest.max_nodes
        return rules

    monkeypatch.setattr(CutEvaluator, "__init__", forced)
    monkeypatch.setattr(CutEvaluator, "fix_structure", checked)
    result = _run_then_undo(engine, data, k, m, n, strategy, monkeypatch)
    if result is None:
        return fixed, None, used
    return fixed, (result.expanded, result.disassociations, round(result.metrics["rpd"], 12),
                   result.cuts_evaluated), used


@settings(max_examples=8, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(2, 3), n=st.integers(1, 2),
       strategy=st.sampled_from(["greedy_cut", "all_cuts"]))
def test_fix_structure_relates_labels_by_shared_paths_as_by_lookups(engine: Engine, data: Data, k: int, m: int,
                                                                    n: int, strategy: str, monkeypatch) -> None:
    """FixStructure's check relates two labels by the leaf paths of their tree they share (bits of a BIGINT, where
    no record's source paths have more than 63 nodes together) or by looking one up below the other: the same
    cuts, disassociations and losses either way."""
    assume(k <= len(data.cust))
    outcomes = [_structure_run(engine, data, k, m, n, strategy, monkeypatch, bits)[:2] for bits in (False, True)]
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("m, n", [(2, 1), (3, 2)])
def test_fix_structure_by_shared_paths_disassociates_as_by_lookups(engine: Engine, m: int, n: int,
                                                                   monkeypatch) -> None:
    """The crossed forest, whose specializations break the structure: AllCutSearch
    runs FixStructure, with bits and with lookups, and both disassociate the same relations in every cut (with
    m = 3, n = 2, relations of several supports, read from combinations of both sizes)."""
    data = crossed()
    outcomes = []
    for bits in (False, True):
        *outcome, used = _structure_run(engine, data, 3, m, n, "all_cuts", monkeypatch, bits)
        assert used and set(used) == {bits}
        outcomes.append(outcome)
    assert outcomes[0] == outcomes[1]
    assert any(rules for _, rules in outcomes[0][0]), outcomes


def _delta_checks(engine: Engine, data: Data, k: int, m: int, n: int, strategy: str, monkeypatch,
                  delta_from: int = 1) -> list[tuple[float, float]]:
    """Run a search with every specialization measured from its parent's parts (``CutEvaluator._measure_delta``)
    also measured on every record's trees (``measure_rpd.sql.j2``) and by the test's own projection and losses;
    ``delta_from``: the fewest clean specializations of a cut for which its parts are kept (in a forest of any
    size). The (RPD, RPD_a) pairs measured from parts."""
    from sqlanon.methods.related_tables import cuts
    from sqlanon.methods.related_tables.cuts import CutEvaluator

    monkeypatch.setattr(cuts, "DELTA_FROM", delta_from)
    monkeypatch.setattr(cuts, "DELTA_RECORDS", 0)
    used = used_data(data)
    source = source_trees(used)
    measured: list[tuple[float, float]] = []
    original = CutEvaluator._measure_delta

    def measure_delta(self: CutEvaluator, parent: frozenset[int], expanded: frozenset[int]) -> tuple[float, float]:
        found = original(self, parent, expanded)
        assert self.map_cut == expanded
        whole = self.measure(self.project(grouped=False))
        assert found == pytest.approx(whole, rel=1e-9, abs=1e-12), (sorted(expanded), found, whole)
        nodes = self.forest.nodes
        cut = frozenset((self.forest.classes[nodes[e].cls], nodes[e].lvl, nodes[e].label) for e in expanded if e)
        trees, levels = cut_trees(source, cut)
        assert found == pytest.approx((rpd(trees, levels, used), rpd_a(trees, levels, used)), rel=1e-9, abs=1e-12)
        self.current = None  # as _measure_delta leaves it: ``keep`` projects the cut again
        measured.append(found)
        return found

    monkeypatch.setattr(CutEvaluator, "_measure_delta", measure_delta)
    _run_then_undo(engine, data, k, m, n, strategy, monkeypatch)
    return measured


@pytest.mark.spark
@settings(max_examples=6, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(1, 3), n=st.integers(0, 2),
       strategy=st.sampled_from(["greedy_cut", "all_cuts", "only_cuts"]))
def test_a_specialization_measured_from_its_parents_parts_is_measured_as_on_every_tree(
        engine: Engine, data: Data, k: int, m: int, n: int, strategy: str, monkeypatch) -> None:
    """A specialization that needs no disassociation is measured from its parent's parts and the trees of the
    records it changes (``rpd_state.sql.j2``, ``measure_rpd_delta.sql.j2``): RPD and RPD_a as on every record's
    trees, and as the test's own projection and losses give them."""
    assume(k <= len(data.cust))
    _delta_checks(engine, data, k, m, n, strategy, monkeypatch)


@pytest.mark.spark
def test_the_specializations_of_a_cut_are_measured_from_its_parts(engine: Engine, monkeypatch) -> None:
    """On SKIPPED (16 records), with the default DELTA_FROM and any forest size, each strategy measures
    specializations from their parents' parts, and releases the same trees (verified) after evaluating the same
    cuts as measuring each on every record's trees, as it does by default on a forest below DELTA_RECORDS."""
    from sqlanon.methods.related_tables import cuts

    assert len(SKIPPED.cust) < cuts.DELTA_RECORDS
    searches = [("greedy_cut", 1), ("all_cuts", 0), ("only_cuts", 2)]
    spark = engine.name == "spark"
    # On Spark, one search and its measures checked (each search takes minutes there; the engines' releases are
    # compared elsewhere).
    for strategy, n in searches[:1] if spark else searches:
        measured = _delta_checks(engine, SKIPPED, 2, 2, n, strategy, monkeypatch, cuts.DELTA_FROM)
        assert measured, strategy
        if spark:
            continue
        load(engine, SKIPPED)
        releases = []
        for records in (0, cuts.DELTA_RECORDS):
            monkeypatch.setattr(cuts, "DELTA_RECORDS", records)
            result = sqlanon.anonymize(parse_config(config(SKIPPED, None, k=2, m=2, n=n, strategy=strategy)),
                                       db=engine.url)
            assert result.verified
            releases.append((result.cuts_evaluated, shape(released(engine)), result.metrics["rpd"]))
        monkeypatch.undo()
        assert releases[0][:2] == releases[1][:2], strategy
        assert releases[0][2] == pytest.approx(releases[1][2], rel=1e-12), strategy


def _grouping_run(engine: Engine, data: Data, k: int, m: int, n: int, strategy: str, monkeypatch,
                  share: float) -> tuple:
    """A search with ``cuts.GROUP_SHARE`` set to ``share`` (infinity: FixStructure always works on the distinct
    trees; 0: always on each record's own). Its outcome: every FixStructure's cut and disassociations, then the
    result's cut, disassociations, cuts evaluated, released trees and RPD (None: refused); and, per FixStructure,
    whether its trees were grouped, with the cut's count of distinct trees (``CutEvaluator.distinct``)."""
    from sqlanon.methods.related_tables import cuts
    from sqlanon.methods.related_tables.cuts import CutEvaluator

    monkeypatch.setattr(cuts, "GROUP_SHARE", share)
    fix = CutEvaluator.fix_structure
    fixed: list[tuple] = []
    grouped: list[tuple[frozenset[int], bool, int]] = []

    def checked(self: CutEvaluator) -> Any:
        cut = self.current_cut
        assert cut is not None
        grouped.append((cut, self.current != self.records, self.distinct.get(cut, 0)))
        rules = fix(self)
        fixed.append((sorted(cut), rules))
        return rules

    monkeypatch.setattr(CutEvaluator, "fix_structure", checked)
    result = _run_then_undo(engine, data, k, m, n, strategy, monkeypatch)
    if result is None:
        return (fixed, None), grouped
    assert result.verified
    return (fixed, (result.expanded, result.disassociations, result.cuts_evaluated, shape(released(engine)),
                    round(result.metrics["rpd"], 12))), grouped


def _same_either_way(engine: Engine, data: Data, k: int, m: int, n: int, strategy: str, monkeypatch) -> list:
    """FixStructure on the distinct trees and on each record's: the same disassociations in every cut, the same
    release; a cut's count of distinct trees is never below that of a cut it specializes (GROUP_SHARE's lower
    bound). The FixStructure runs of the grouped search."""
    outcome, grouped = _grouping_run(engine, data, k, m, n, strategy, monkeypatch, float("inf"))
    assert all(was for _, was, _ in grouped)
    counts = {cut: count for cut, _, count in grouped}
    for cut, count in counts.items():
        for other, fewer in counts.items():
            if other < cut:
                assert fewer <= count, (sorted(other), fewer, sorted(cut), count)
    ungrouped, never = _grouping_run(engine, data, k, m, n, strategy, monkeypatch, 0.0)
    assert not any(was for _, was, _ in never)
    assert outcome == ungrouped
    return grouped


@settings(max_examples=8, **SETTINGS)
@given(data=forests(), k=st.integers(2, 4), m=st.integers(2, 3), n=st.integers(1, 2),
       strategy=st.sampled_from(["greedy_cut", "all_cuts"]))
def test_fix_structure_on_each_records_tree_is_fix_structure_on_the_distinct_trees(
        engine: Engine, data: Data, k: int, m: int, n: int, strategy: str, monkeypatch) -> None:
    """FixStructure works on the distinct trees at coarse cuts and on each record's own where a cut it
    specializes had at least GROUP_SHARE of the records' count of them: the same cuts, disassociations and
    release either way."""
    assume(k <= len(data.cust))
    _same_either_way(engine, data, k, m, n, strategy, monkeypatch)


@pytest.mark.spark
def test_fix_structure_groups_trees_only_below_a_share_of_distinct_trees(engine: Engine, monkeypatch) -> None:
    """The crossed forest, whose cuts disassociate: either way the same disassociations
    and release; with a share of a quarter, a cut is grouped unless a coarser cut was grouped into at least a
    quarter as many distinct trees as records (here the first cut, with 1 tree of 4 records)."""
    data = crossed()
    grouped = _same_either_way(engine, data, 3, 2, 1, "all_cuts", monkeypatch)
    assert any(cut != frozenset({0}) for cut, _, _ in grouped)
    _, quarter = _grouping_run(engine, data, 3, 2, 1, "all_cuts", monkeypatch, 0.25)
    assert {was for _, was, _ in quarter} == {True, False}
    for cut, was, _ in quarter:
        known = max([count for other, had, count in quarter if had and other < cut], default=0)
        assert was == (known < 0.25 * len(data.cust)), (sorted(cut), was, known)


@pytest.mark.spark
def test_only_the_best_cuts_trees_outlive_the_search(engine: Engine, monkeypatch) -> None:
    """When the search ends, of the tables made since the evaluator was (every cut's trees, labels, checks and
    parts), only the best cut's trees remain: the losses, the write and its verification run without the others
    beside them. The crossed forest, some of whose cuts disassociate: FixStructure's tables exist."""
    from sqlanon.methods.related_tables.cuts import CutEvaluator

    load(engine, crossed())
    init, close = CutEvaluator.__init__, CutEvaluator.close
    seen: dict[str, Any] = {}

    def made_from(self: CutEvaluator, session: Any, *args: Any, **kwargs: Any) -> None:
        seen["forest"] = len(session.temporary)
        init(self, session, *args, **kwargs)

    def closed(self: CutEvaluator) -> None:
        names = self.session.temporary
        seen["before"] = {t for t in names[seen["forest"]:] if self.adapter.table_exists((t,))}
        close(self)
        seen["forest_after"] = {t for t in names[:seen["forest"]] if self.adapter.table_exists((t,))}
        seen["after"] = {t for t in names[seen["forest"]:] if self.adapter.table_exists((t,))}
        seen["best"] = self.best

    monkeypatch.setattr(CutEvaluator, "__init__", made_from)
    monkeypatch.setattr(CutEvaluator, "close", closed)
    cfg = parse_config(config(crossed(), None, k=3, m=2, n=1, strategy="all_cuts"))
    result = sqlanon.anonymize(cfg, db=engine.url)
    assert result.verified
    assert {name for name in seen["before"] if name.endswith(("_rheld", "_rviol"))}  # FixStructure's checks
    assert seen["best"] in seen["before"]
    assert seen["after"] == {seen["best"]}
    assert seen["forest_after"]  # the forest's own tables stay: the losses read its paths
