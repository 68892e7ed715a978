"""The config of k^(m,n)-anonymity over related tables (``method: related_tables``, seed 003).

A record is the tree of rows reachable from one row of ``records.table`` through foreign keys. Each table's
attributes form a chain in the order they are declared, and a child table's chain hangs under the last
attribute of its parent row's chain; the attributes, in declaration order from the root down, are the tree's
classes (so that classes strictly increase along every path, as the model needs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, model_validator

from ...config.models import AnonymizeConfig, AttributeConfig, HierarchyConfig, PrivacyConfig, _Strict
from ...identifiers import parse_spelled_name


class LookupSpec(_Strict):
    """The attribute's value is read from another table: ``column`` of the row of ``table`` whose ``key``
    equals the attribute's column (``brand: {column: l_partkey, lookup: {table: part, key: p_partkey,
    column: p_brand}}``)."""

    table: str
    key: str
    column: str


class TreeAttribute(_Strict):
    """One class of the tree: a column of its table (or of a lookup table), and its generalization hierarchy
    (the paper's DGH), loaded as a lookup table as for generalization."""

    column: str
    lookup: LookupSpec | None = None
    hierarchy: HierarchyConfig


class TableSpec(_Strict):
    """One table of the record tree."""

    table: str
    #: The table's key: what its children's ``foreign_key`` refers to, and the order in which ``limit`` keeps
    #: the first children of a parent.
    key: str | None = None
    #: The child's column referring to the parent's ``key`` (not given for the root table).
    foreign_key: str | None = None
    #: At most this many rows under one parent row (the paper's fan-out limits), the first by ``key``.
    limit: int | None = Field(default=None, ge=1)
    attributes: dict[str, TreeAttribute] = Field(default_factory=dict)
    children: list[TableSpec] = Field(default_factory=list)


class RelatedPrivacy(PrivacyConfig):
    """k^(m,n)-anonymity: an attacker who knows up to ``m`` labels of a record and up to ``n``
    ancestor-descendant relations among them finds it among at least ``k`` records (or none)."""

    m: StrictInt = Field(default=3, ge=1, le=6)
    n: StrictInt = Field(default=2, ge=0, le=3)


class CutSearch(_Strict):
    """How the cuts of the hierarchies are searched (seed 003, section 3.4)."""

    #: greedy_cut (GCS: the g lowest-cost passing cuts of each step are specialized further), all_cuts (ACS:
    #: every passing cut), only_cuts (OCS: GCS without structural disassociation; a cut that needs it fails).
    strategy: Literal["greedy_cut", "all_cuts", "only_cuts"] = "greedy_cut"
    #: g of GreedyCutSearch (and OnlyCutSearch): how many of a step's best cuts are specialized further.
    beam: int = Field(default=2, ge=1, le=64)
    #: The most cuts evaluated before the search stops with the best found so far (0: no limit).
    max_cuts: int = Field(default=0, ge=0)
    #: Skip the cuts below a cut when a lower bound on their RPD is above the best RPD found: the same cut is
    #: found with fewer evaluated. false evaluates every cut the paper's search does (to compare with its figures).
    bound: StrictBool = True


class RelatedOutput(_Strict):
    table: str
    if_exists: Literal["fail", "replace"] = "fail"
    seed: float | None = Field(default=None, ge=-1, le=1, description="seed for the random record order")
    #: Also write every record as one JSON document per line (JSON Lines) to this file (engines that write
    #: client files: DuckDB).
    json_: Path | None = Field(default=None, alias="json")
    #: Also write the relational release: one row per root-to-leaf path, a column per attribute (``paths``).
    paths: str | None = None
    #: Also write every record as one JSON document in a table (``record_id``, ``document``; any engine).
    documents: str | None = None
    suppressed_rows: Literal["remove"] = "remove"
    csv: None = None

    model_config = _Strict.model_config | {"populate_by_name": True}


#: Columns of the path table (``output.paths``) besides one per attribute.
RESERVED = ("record_id", "path_id", "path_attributes")


def _tables(spec: TableSpec, depth: int = 0):
    yield spec, depth
    for child in spec.children:
        yield from _tables(child, depth + 1)


class RelatedTablesConfig(AnonymizeConfig):
    """Records over related tables released as trees of generalized labels, k^(m,n)-anonymous."""

    method: Literal["related_tables"]
    records: TableSpec
    privacy: RelatedPrivacy  # type: ignore[assignment]
    search: CutSearch = CutSearch()
    output: RelatedOutput  # type: ignore[assignment]
    attributes: dict[str, AttributeConfig] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _source_from_records(cls, data: Any) -> Any:
        """``source.table`` is the root table (``records.table``); ``source`` may give only the url."""
        if isinstance(data, dict) and isinstance(data.get("records"), dict):
            source = data.get("source") or {}
            if isinstance(source, dict) and "table" not in source and "csv" not in source:
                data = {**data, "source": {**source, "table": data["records"].get("table")}}
        return data

    @model_validator(mode="after")
    def _has_qi(self) -> RelatedTablesConfig:  # replaces the base's check: the classes are in records
        if self.attributes:
            raise ValueError("attributes: method related_tables declares its attributes under records (and its "
                             "children), in the order of the tree's classes")
        if self.source.table != self.records.table:
            raise ValueError(f"source.table: method related_tables reads records.table ({self.records.table!r}); "
                             f"leave source.table out")
        self._check_tables()
        if self.privacy.suppression_limit:
            raise ValueError("privacy.suppression_limit: method related_tables suppresses no record (cuts and "
                             "structural disassociation only); leave it out")
        if self.privacy.null_handling != "extended":
            raise ValueError("privacy.null_handling: method related_tables matches NULL as a label of its own "
                             "(extended); basic is not available")
        if self.privacy.delta_presence is not None:
            raise ValueError("privacy.delta_presence: not available with method related_tables")
        if self.privacy.k < 2:
            raise ValueError("privacy.k: must be at least 2 for method related_tables")
        return self

    def _check_tables(self) -> None:
        """Each table's keys as its place in the tree needs them; attribute names unique over the tree."""
        names: dict[str, str] = {}
        if self.records.foreign_key is not None:
            raise ValueError("records.foreign_key: the root table has no parent")
        if self.records.key is None:
            raise ValueError("records.key: the root table's key is needed (it tells the records apart)")
        for spec, depth in _tables(self.records):
            where = self.table_key(spec)
            parse_spelled_name(spec.table)
            if depth and spec.foreign_key is None:
                raise ValueError(f"{where}.foreign_key: a child table needs the column that refers to its parent's "
                                 f"key")
            if (spec.children or spec.limit is not None) and spec.key is None:
                raise ValueError(f"{where}.key: needed by a table with children or a limit")
            if depth == 0 and spec.limit is not None:
                raise ValueError(f"{where}.limit: the root table has no parent to limit")
            for name in spec.attributes:
                if name in names:
                    raise ValueError(f"{where}.attributes.{name}: the attribute name is also used in {names[name]}; "
                                     f"each class needs a name of its own")
                names[name] = where
        if not names:
            raise ValueError("records.attributes: declare at least one attribute (a class of the tree)")
        for name, where in names.items():
            if name in RESERVED or "," in name:
                raise ValueError(f"{where}.attributes.{name}: the name is taken by a column of the path table "
                                 f"({', '.join(RESERVED)}) or holds a comma; rename the attribute")

    def table_key(self, spec: TableSpec) -> str:
        """Where ``spec`` is in the config, for messages: records, records.children[0], ..."""

        def find(node: TableSpec, path: str) -> str | None:
            if node is spec:
                return path
            for i, child in enumerate(node.children):
                found = find(child, f"{path}.children[{i}]")
                if found:
                    return found
            return None

        return find(self.records, "records") or "records"

    @property
    def tables(self) -> list[tuple[TableSpec, int]]:
        """Every table of the tree, depth first, with its depth."""
        return list(_tables(self.records))

    @property
    def classes(self) -> list[tuple[str, TreeAttribute, TableSpec]]:
        """The tree's classes in order: (attribute name, its spec, its table)."""
        return [(name, attr, spec) for spec, _ in self.tables for name, attr in spec.attributes.items()]

    @property
    def quasi_identifiers(self) -> list[str]:
        return [name for name, _, _ in self.classes]


CONFIG = RelatedTablesConfig

__all__ = ["CONFIG", "RelatedTablesConfig"]
