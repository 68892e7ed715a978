"""k^(m,n)-anonymity of a released table of trees (``method: related_tables``'s node table), in SQL from the
table's rows alone: what a run re-verifies after its write and what ``sqlanon check --trees`` reports."""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

from ..engines.base import EngineAdapter

#: The node table's columns.
COLUMNS = ("record_id", "node_id", "parent_id", "attribute", "value")
#: Trees deeper than this are taken for a cycle (a class per level: no release is that deep).
MAX_DEPTH = 64
#: Nodes per slice of the support statements: the combinations are split by their first label (its number
#: modulo the slices), so that no statement groups more than a slice of them (TPC-H scale factor 1 in one
#: statement outgrew DuckDB's 700 MB memory limit).
PART_NODES = 300_000


@dataclass(frozen=True)
class TreeAudit:
    records: int
    nodes: int
    #: Nodes whose parent is no node of their record, that lie on a cycle, or whose id is repeated.
    broken_nodes: int
    m: int
    n: int
    #: The smallest positive support of any combination of up to m labels and n relations: the largest k the
    #: table meets (None for an empty table).
    largest_k: int | None
    k: int | None = None
    combinations_below_k: int = 0

    @property
    def anonymous(self) -> bool:
        return self.broken_nodes == 0 and (self.k is None or (self.largest_k or 0) >= self.k)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "anonymous": self.anonymous}


def audit_masks(m: int, n: int) -> dict[int, list[int]]:
    """Per size s (1..m): every relation set of 0..n among the 2 * C(s, 2) directed pairs, as bitmasks.

    >>> audit_masks(2, 1)
    {1: [0], 2: [0, 1, 2]}
    >>> len(audit_masks(3, 2)[3])
    22
    """
    out = {}
    for s in range(1, m + 1):
        bits = s * (s - 1)
        out[s] = sorted(sum(1 << b for b in chosen) for size in range(0, min(n, bits) + 1)
                        for chosen in combinations(range(bits), size))
    return out


def audit_trees(adapter: EngineAdapter, table: Sequence[str], m: int, n: int, k: int | None = None) -> TreeAudit:
    """The audit of ``audit_trees.sql.j2``: its tables built, then the supports one size and one slice of the
    combinations at a time (``PART_NODES``), the smallest and the count below k gathered here."""
    prefix = f"sqlanon_{secrets.token_hex(4)}_audit_"
    names = {"nodes": prefix + "nodes", "up": prefix + "up", "items": prefix + "items"}
    context = {"table": tuple(table), "max_depth": MAX_DEPTH, **names}
    try:
        with adapter.aggregate_settings():
            adapter.run("audit_trees.sql.j2", what="nodes", **context)
            adapter.run("audit_trees.sql.j2", what="up", **context)
            records, nodes, broken = adapter.run("audit_trees.sql.j2", what="counts", **context)[0]
            adapter.run("audit_trees.sql.j2", what="items", **context)
            parts = max(1, math.ceil(int(nodes) / PART_NODES))
            smallest, below = None, 0
            masks = audit_masks(m, n)
            for size in range(1, m + 1):
                for part in range(parts):
                    least, under = adapter.run("audit_trees.sql.j2", what="supports", size=size, part=part,
                                               parts=parts, m=m, n=n, masks=masks, k=k, **context)[0]
                    if least is not None:
                        smallest = int(least) if smallest is None else min(smallest, int(least))
                    below += int(under or 0)
    finally:
        adapter.drop_tables(list(names.values()))
    return TreeAudit(records=int(records), nodes=int(nodes), broken_nodes=int(broken or 0), m=m, n=n,
                     largest_k=smallest, k=k, combinations_below_k=below if k is not None else 0)


def check_trees(db: str, table: str, m: int, n: int, k: int | None = None) -> TreeAudit:
    """``sqlanon check --trees``: k^(m,n) of a node table (``COLUMNS``) in the database ``db``."""
    from pathlib import Path

    from ..engines import adapter_for_url
    from ..errors import ConfigError, InputError
    from ..identifiers import parse_spelled_name
    from ..session import DatabaseSession

    if not 1 <= m <= 6:
        raise ConfigError(f"--m: between 1 and 6 labels (got {m})")
    if not 0 <= n <= 3:
        raise ConfigError(f"--n: between 0 and 3 relations (got {n})")
    if k is not None and k < 1:
        raise ConfigError(f"--k: must be at least 1 (got {k})")
    name = parse_spelled_name(table)
    with DatabaseSession(adapter_for_url(db, Path.cwd(), create=False)) as session:
        adapter = session.adapter
        relation = adapter.resolve_relation(name)
        if not relation.exists:
            raise InputError(f"--table: table {table} not found in {adapter.display_url}")
        columns = adapter.column_names(relation.parts)
        missing = [c for c in COLUMNS if c not in columns]
        if missing:
            raise InputError(f"--table: {table} is not a table of trees: no column(s) {', '.join(missing)} (a node "
                             f"table has {', '.join(COLUMNS)}: method related_tables' output)")
        audit = audit_trees(adapter, relation.parts, m, n, k)
    if audit.nodes == 0:
        raise InputError(f"--table: table {table} has no rows")
    return audit
