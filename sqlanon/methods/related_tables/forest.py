"""The records of related tables as trees in the database (seed 003, section 3.1; spec 003.6).

Every record becomes its set of root-to-leaf paths, each an array of DGH node ids (``paths0``: one row per
path, DuckDB lists or PostgreSQL arrays): the chains of tables from the root down are joined (each child limited
to its first ``limit`` rows by key), each class's value mapped to its level-0 node. The classes' hierarchies
are loaded as lookup tables by the generalization's loader and become one table of DGH nodes, numbered so that
a lower class has the lower ids. Python keeps only the hierarchies' inner nodes (configuration, not data).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...errors import ConfigError, InputError
from ...hierarchy import load_hierarchy
from ...output.target import require_existing, resolve

if TYPE_CHECKING:
    from ...session import Session
    from .config import RelatedTablesConfig, TableSpec

T = "methods/related_tables/"


@dataclass(frozen=True)
class Node:
    """An inner node of a class's hierarchy (level >= 1)."""

    id: int
    cls: int
    lvl: int
    label: str | None
    parent: int
    children: int


@dataclass
class Forest:
    """The prepared trees: table names, the DGH's inner nodes, and counts."""

    dgh: str
    ancestors: str
    paths: str
    #: Each record's value nodes (rid, item).
    leaf_items: str
    classes: list[str]
    heights: list[int]
    #: Inner nodes by id (level >= 1); 0, the root above every class, is not one of them.
    nodes: dict[int, Node] = field(default_factory=dict)
    #: Children of 0 and of every inner node, among inner nodes (leaves are not kept).
    inner_children: dict[int, list[int]] = field(default_factory=dict)
    roots: int = 0
    records: int = 0
    #: Values per class (the width of level 0).
    domain: list[int] = field(default_factory=list)
    #: The longest path's nodes (the deepest chain's classes).
    depth: int = 1
    #: The most paths one record has (projecting through a cut never adds any).
    max_paths: int = 0
    #: The most nodes one record's source paths have together: no tree of the record, under any cut and after
    #: any disassociation, has more nodes, so more leaf paths (``CutEvaluator.tree_bits``).
    max_nodes: int = 0
    #: Whether some record has source paths of different lengths: only then can a cut make one of its paths a
    #: proper prefix of another (a projected path keeps its length), which ``project_paths.sql.j2`` looks for.
    uneven: bool = True

    #: Labels of value nodes looked up for messages (``describe_values``).
    value_labels: dict[int, str] = field(default_factory=dict)

    def describe_values(self, adapter, ids: list[int]) -> None:
        """Fetch the labels of the value nodes among ``ids`` (named in a disassociation rule: released labels)."""
        wanted = sorted({i for i in ids if i not in self.nodes and i not in self.value_labels})
        if wanted:
            for node, cls, label in adapter.run(T + "describe_nodes.sql.j2", dgh=self.dgh, ids=wanted):
                self.value_labels[int(node)] = f"{self.classes[int(cls)]}={label}"

    def cut_nodes(self, expanded: frozenset[int]) -> list[int]:
        """The cut's inner nodes (its nodes that are not values), in id order."""
        out = [c for e in expanded for c in self.inner_children.get(e, []) if c not in expanded]
        return sorted(out)


def _chains(spec: TableSpec, prefix: list[TableSpec]) -> list[list[TableSpec]]:
    chain = [*prefix, spec]
    if not spec.children:
        return [chain]
    return [c for child in spec.children for c in _chains(child, chain)]


def build_forest(session: Session, cfg: RelatedTablesConfig) -> Forest:
    adapter = session.adapter
    classes = cfg.classes
    index = {name: i for i, (name, _, _) in enumerate(classes)}
    created_before = len(session.temporary)
    _check_columns(session, cfg)
    _check_keys(session, cfg)
    chain_tables, first_slot = _create_chains(session, cfg, index)
    loaded = []
    for cls, (name, attr, spec) in enumerate(classes):
        table, slot = first_slot[cls]
        values = session.scratch(f"rv{cls}")
        adapter.run(T + "create_class_values.sql.j2", table=values, chain=table, cls=cls, name=name, slot=slot)
        where_table = cfg.table_key(spec)
        try:
            hierarchy = load_hierarchy(adapter, attr.hierarchy, attribute=name, source=(values,),
                                       resolve=cfg.resolve, prefix=session.prefix, index=cls,
                                       created=session.temporary, check_values=True)
        except (ConfigError, InputError) as exc:
            text = str(exc).replace(f"attributes.{name}.", f"{where_table}.attributes.{name}.")
            raise type(exc)(text) from None
        loaded.append({"cls": cls, "coded": hierarchy.coded_table, "distinct": values, "name": name,
                       "height": hierarchy.height})
    max_height = max(c["height"] for c in loaded)
    rows = session.scratch("rhr")
    adapter.run(T + "create_hierarchy_rows.sql.j2", table=rows, classes=loaded, max_height=max_height)
    dgh = session.scratch("rdgh")
    adapter.run(T + "create_dgh.sql.j2", table=dgh, rows=rows, classes=loaded)
    leaves = session.scratch("rlv")
    adapter.run(T + "create_leaves.sql.j2", table=leaves, rows=rows, dgh=dgh)
    ancestors = session.scratch("ranc")
    adapter.run(T + "create_ancestors.sql.j2", table=ancestors, dgh=dgh, max_height=max_height)
    raw = session.scratch("rraw")
    adapter.run(T + "create_paths.sql.j2", table=raw, leaves=leaves, chains=chain_tables)
    depth = max(len(chain["classes"]) for chain in chain_tables)
    paths = session.scratch("rp0")
    adapter.run(T + "project_paths.sql.j2", table=paths, paths=raw, map=None, depth=depth)
    leaf_items = session.scratch("rli")
    adapter.run(T + "create_path_items.sql.j2", table=leaf_items, paths=paths, depth=depth)
    forest = Forest(dgh=dgh, ancestors=ancestors, paths=paths, leaf_items=leaf_items, classes=[c[0] for c in classes],
                    heights=[c["height"] for c in loaded], depth=depth)
    for row in adapter.run(T + "describe_dgh.sql.j2", dgh=dgh):
        node = Node(int(row[0]), int(row[1]), int(row[2]), row[3], int(row[4]), int(row[5]))
        if node.lvl >= 1:
            forest.nodes[node.id] = node
            forest.inner_children.setdefault(node.parent, []).append(node.id)
    forest.domain = [0] * len(classes)
    for cls, width in adapter.run(T + "count_values.sql.j2", dgh=dgh):
        forest.domain[int(cls)] = int(width)
    roots, records, max_paths, uneven, max_nodes = adapter.run(T + "count_records.sql.j2",
                                                               root=chain_tables[0]["table"], paths=paths)[0]
    forest.roots, forest.records, forest.max_paths = int(roots), int(records), int(max_paths or 0)
    forest.max_nodes = int(max_nodes or 0)
    forest.uneven = int(uneven or 0) > 0
    # The chains, class values and hierarchies' tables are read only to build the forest: dropped now, they do
    # not hold memory through the search (on TPC-H at scale factor 1 a third of what the tables take).
    kept = {dgh, ancestors, paths, leaf_items}
    adapter.drop_tables([t for t in session.temporary[created_before:] if t not in kept])
    if forest.records == 0:
        raise InputError(f"records: table {session.source_shown} has no records")
    if cfg.privacy.k > forest.records:
        raise InputError(f"privacy.k: k={cfg.privacy.k} is larger than the number of records ({forest.records})")
    return forest


def _create_chains(session: Session, cfg: RelatedTablesConfig,
                   index: dict[str, int]) -> tuple[list[dict], dict[int, tuple[str, int]]]:
    """One table per chain of tables from the root down (``create_chain.sql.j2``); where each class is first
    found: (chain table, its slot in the chain's paths)."""
    chain_tables: list[dict] = []
    first_slot: dict[int, tuple[str, int]] = {}
    for number, chain in enumerate(_chains(cfg.records, [])):
        table = session.scratch(f"rch{number}")
        context = []
        slot = 0
        for spec in chain:
            where = cfg.table_key(spec)
            attrs = []
            for name, attr in spec.attributes.items():
                slot += 1
                first_slot.setdefault(index[name], (table, slot))
                lookup = None if attr.lookup is None else {
                    "parts": _parts(session, attr.lookup.table, f"{where}.attributes.{name}.lookup.table"),
                    "key": attr.lookup.key, "column": attr.lookup.column}
                attrs.append({"cls": index[name], "column": attr.column, "lookup": lookup})
            context.append({"parts": _parts(session, spec.table, f"{where}.table"), "key": spec.key,
                            "fk": spec.foreign_key, "limit": spec.limit, "attrs": attrs})
        try:
            session.adapter.run(T + "create_chain.sql.j2", table=table, chain=context)
        except Exception as exc:  # the columns were checked: a type that does not join, say
            names = " -> ".join(spec.table for spec in chain)
            raise InputError(f"records: the tables {names} could not be joined as configured "
                             f"({_first_line(exc)})") from None
        chain_tables.append({"table": table, "classes": [a["cls"] for t in context for a in t["attrs"]]})
    return chain_tables, first_slot


def _check_columns(session: Session, cfg: RelatedTablesConfig) -> None:
    """Every table and column the config names exists (ConfigError naming the key), before any join."""
    adapter = session.adapter

    def require(table: str, where: str, wanted: list[tuple[str, str | None]]) -> None:
        columns = adapter.column_names(_parts(session, table, f"{where}.table"))
        for key, column in wanted:
            if column is not None and column not in columns:
                raise ConfigError(f"{key}: no column {column!r} in table {table} (columns: {', '.join(columns)})")

    for spec, _depth in cfg.tables:
        where = cfg.table_key(spec)
        wanted = [(f"{where}.key", spec.key), (f"{where}.foreign_key", spec.foreign_key)]
        wanted += [(f"{where}.attributes.{name}.column", attr.column) for name, attr in spec.attributes.items()]
        require(spec.table, where, wanted)
        for name, attr in spec.attributes.items():
            if attr.lookup is not None:
                key = f"{where}.attributes.{name}.lookup"
                require(attr.lookup.table, key, [(f"{key}.key", attr.lookup.key),
                                                 (f"{key}.column", attr.lookup.column)])


def _check_keys(session: Session, cfg: RelatedTablesConfig) -> None:
    """A record's root, a parent row its children join to and a lookup row must each be one row."""
    adapter = session.adapter
    checks = []
    for spec, depth in cfg.tables:
        if depth == 0 or spec.children:
            checks.append((f"{cfg.table_key(spec)}.key", spec.table, spec.key))
        for name, attr in spec.attributes.items():
            if attr.lookup is not None:
                checks.append((f"{cfg.table_key(spec)}.attributes.{name}.lookup.key", attr.lookup.table,
                               attr.lookup.key))
    for where, table, key in checks:
        if key is None:
            raise ConfigError(f"{where}: needed (the root table's key numbers the records)")
        try:
            duplicates = int(adapter.run(T + "count_duplicate_keys.sql.j2", parts=_parts(session, table, where),
                                         key=key)[0][0])
        except Exception as exc:
            raise InputError(f"{where}: cannot read column {key!r} of table {table} ({_first_line(exc)})") from None
        if duplicates:
            raise InputError(f"{where}: {duplicates} rows of table {table} repeat a {key} value (or have none); "
                             f"the key must identify one row")


def _parts(session: Session, name: str, where: str) -> tuple[str, ...]:
    """The exact relation a table name of the config denotes (ConfigError naming ``where`` when missing)."""
    adapter = session.adapter
    return require_existing(adapter, resolve(adapter, name), where).parts


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
