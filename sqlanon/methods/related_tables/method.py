"""k^(m,n)-anonymity of records spread over related tables (seed 003, Gkountouna & Terrovitis): each record is
the tree of rows reachable from one root row through foreign keys, released as a tree of generalized labels
such that an attacker who knows up to m labels of a record and up to n ancestor-descendant relations among them
finds at least k records (or none).

Generalization is by a *cut* of each class's hierarchy (subtree recoding; siblings that become equal merge) and
by *structural disassociation* of relations (Definition 2); the cut is searched by AllCutSearch, GreedyCutSearch
or OnlyCutSearch (``search.py``), each cut evaluated in SQL (``cuts.py``). The trees live in the database as
arrays of DGH node ids, one row per root-to-leaf path (``forest.py``); nothing of a record reaches Python.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from ...audit.trees import audit_trees
from ...errors import ConfigError, NoSolutionError
from ...identifiers import Relation
from ...output import write_output
from ...output.target import check_output_identity, check_output_writable, resolve
from ...paths import check_writable_file, replaced_atomically
from ..base import AnonymizationMethod, Outcome, ProgressCallback, Records, Release
from .config import RelatedTablesConfig
from .cuts import CutEvaluator, Evaluation
from .forest import Forest, T, build_forest
from .loss import measure_ml2
from .search import CutSearch

#: The tables written after the node table, from it alone: config key -> template.
EXTRA_TABLES = {"output.paths": "write_paths.sql.j2", "output.documents": "write_documents.sql.j2"}

STRATEGIES = {"greedy_cut": "GreedyCutSearch (GCS)", "all_cuts": "AllCutSearch (ACS)",
              "only_cuts": "OnlyCutSearch (OCS)"}


class RelatedTablesMethod(AnonymizationMethod):
    """Trees over related tables, k^(m,n)-anonymous by cuts and structural disassociation."""

    name: ClassVar[str] = "related_tables"
    SOURCE_KEY: ClassVar[str] = "records.table"

    forest: Forest
    best: Evaluation
    search: CutSearch
    #: output.paths and output.documents, when set: the tables written after the node table.
    extra_tables: dict[str, Relation]

    @property
    def config(self) -> RelatedTablesConfig:
        return self.session.config  # type: ignore[return-value]

    def tables_read(self) -> list[tuple[str, str]]:
        cfg = self.config
        out = []
        for spec, depth in cfg.tables:
            if depth:
                out.append((f"{cfg.table_key(spec)}.table", spec.table))
            for name, attr in spec.attributes.items():
                if attr.lookup is not None:
                    out.append((f"{cfg.table_key(spec)}.attributes.{name}.lookup.table", attr.lookup.table))
                if attr.hierarchy.table is not None:
                    out.append((f"{cfg.table_key(spec)}.attributes.{name}.hierarchy.table", attr.hierarchy.table))
        return out

    # -- prepare ----------------------------------------------------------------------------------------------
    def prepare(self) -> None:
        session, cfg = self.session, self.config
        _, session.source_shown = session.open_source()
        self.extra_tables = {key: self._check_extra_table(key, name) for key, name in self._extra_names().items()}
        if cfg.output.json_ is not None:
            if not self.adapter.SUPPORTS_CSV_SOURCE:
                raise ConfigError(f"output.json: the {self.adapter.name} engine cannot write client files; leave "
                                  f"it out and set output.documents: a table of one JSON document per record "
                                  f"(or run on DuckDB)")
            check_writable_file(cfg.resolve(cfg.output.json_), "output.json", create_folders=True)
        self.forest = build_forest(session, cfg)

    def records(self) -> Records:
        return Records(rows=self.forest.roots, considered=self.forest.records, removed_for_null=0, max_suppressed=0)

    # -- solve ------------------------------------------------------------------------------------------------
    def solve(self, plan: dict[str, Any] | None, on_violation: str, progress: ProgressCallback | None,
              started: float) -> str:
        cfg = self.config
        privacy, search = cfg.privacy, cfg.search
        self.evaluator = CutEvaluator(self.session, self.forest, privacy.k, privacy.m, privacy.n,
                                      structure=search.strategy != "only_cuts")

        def tick(done: int, best: Evaluation | None) -> None:
            if progress is not None:
                progress(done, 0, None if best is None else best.rpd, time.perf_counter() - started)

        self.search = CutSearch(self.evaluator, self.forest.cut_nodes, search.strategy, search.beam,
                                search.max_cuts, tick, bound=search.bound)
        found = self.search.run()
        self.evaluator.close()
        if found is None:
            raise NoSolutionError(
                f"even the most general cut (every attribute '*') is not k^(m,n)-anonymous for k={privacy.k}, "
                f"m={privacy.m}, n={privacy.n}: fewer than k records have some combination of attributes (which "
                f"tables a record reaches, and how they nest, stays visible); lower k, or leave out a table that "
                f"few records reach" + ("" if search.strategy != "only_cuts" else
                                        ", or use strategy greedy_cut (structural disassociation)"))
        self.best = found
        self.loss = measure_ml2(self.adapter, self.session, self.forest, self.evaluator.best, found)
        return STRATEGIES[search.strategy]

    # -- release and verification -----------------------------------------------------------------------------
    def release(self) -> Release:
        cfg = self.config
        return Release(
            template=T + "write_trees.sql.j2",
            context={"paths": self.evaluator.best, "dgh": self.forest.dgh, "classes": self.forest.classes,
                     },
            qis=[], k=cfg.privacy.k, considered=self.forest.records, max_suppressed=0, classes=False,
        )

    def verify_models(self, table: tuple[str, ...]) -> dict[str, Any] | None:
        """k^(m,n) on the written node table, from its rows alone (``audit/trees.py``)."""
        cfg = self.config
        audit = audit_trees(self.adapter, table, cfg.privacy.m, cfg.privacy.n, cfg.privacy.k)
        problems = []
        if audit.broken_nodes:
            problems.append(f"{audit.broken_nodes} nodes without a parent in their record")
        if audit.records != self.forest.records:
            problems.append(f"{audit.records} records written, {self.forest.records} expected")
        if not audit.anonymous:
            problems.append(f"{audit.combinations_below_k} combinations of up to m={cfg.privacy.m} labels and "
                            f"n={cfg.privacy.n} relations held by fewer than k={cfg.privacy.k} records")
        return {"models_verified": not problems, "models_checked": [f"k^(m,n) with m={cfg.privacy.m}, "
                                                                    f"n={cfg.privacy.n}"],
                "classes_failing_models": audit.combinations_below_k, "reason": "; ".join(problems) or "ok",
                "records": audit.records, "nodes": audit.nodes, "largest_k": audit.largest_k,
                "combinations_below_k": audit.combinations_below_k, "broken_nodes": audit.broken_nodes}

    def _extra_names(self) -> dict[str, str]:
        """The tables of ``EXTRA_TABLES`` the config sets, by key."""
        output = self.config.output
        names = {"output.paths": output.paths, "output.documents": output.documents}
        return {key: name for key, name in names.items() if name is not None}

    def _check_extra_table(self, key: str, name: str) -> Relation:
        """``output.paths`` or ``output.documents``: neither the node table, nor the other, nor a table the run
        reads, and replaced only as ``output.if_exists`` allows (the same checks as ``output.table``'s)."""
        cfg, adapter = self.config, self.adapter
        relation = resolve(adapter, name)
        others = [(other, value) for other, value in self._extra_names().items() if other != key]
        read = [(other, resolve(adapter, value)) for other, value in
                [("output.table", cfg.output.table), *others, ("records.table", cfg.records.table),
                 *self.tables_read()]]
        check_output_identity(adapter, relation, read, key=key, history_schema=cfg.history.schema)
        check_output_writable(adapter, relation, key=key, if_exists=cfg.output.if_exists,
                              replace_hint="set output.if_exists: replace")
        return relation

    def export(self, table: tuple[str, ...]) -> None:
        """``output.paths``, ``output.documents``, then ``output.json``: each built from the verified node table
        alone, each table atomic on its own as the node table is (output/writer.py), written after it."""
        cfg = self.config
        for key, relation in self.extra_tables.items():
            write_output(self.adapter, target=relation.parts, replace=cfg.output.if_exists == "replace",
                         seed=cfg.output.seed, template=T + EXTRA_TABLES[key], nodes=table,
                         classes=self.forest.classes, depth=len(self.forest.classes))
        if cfg.output.json_ is not None:
            self._export_json(table)

    def _export_json(self, table: tuple[str, ...]) -> None:
        """``output.json``: one JSON document per record, written to a temporary file and renamed, so that a
        reader never sees half a file."""
        cfg = self.config
        assert cfg.output.json_ is not None
        with replaced_atomically(cfg.resolve(cfg.output.json_), ".jsonl") as tmp:
            self.adapter.run(T + "export_trees_json.sql.j2", table=table, path=tmp, depth=len(self.forest.classes))

    # -- what the run tells -----------------------------------------------------------------------------------
    def cut_shown(self) -> dict[str, dict[str, Any]]:
        """Per attribute: the generalized labels of the cut, and how many values are released as they are."""
        forest, expanded = self.forest, self.best.expanded
        out: dict[str, dict[str, Any]] = {}
        for cls, name in enumerate(forest.classes):
            labels = [forest.nodes[g].label for g in forest.cut_nodes(expanded) if forest.nodes[g].cls == cls]
            kept = sum(forest.nodes[e].children for e in expanded if e in forest.nodes and forest.nodes[e].cls == cls
                       and forest.nodes[e].lvl == 1)
            out[name] = {"generalized": [("NULL" if label is None else label) for label in labels],
                         "values_kept": kept, "values": forest.domain[cls]}
        return out

    def rules_shown(self) -> list[str]:
        nodes = self.forest.nodes
        names = self.forest.classes

        def label(node: int) -> str:
            if node in nodes:
                return f"{names[nodes[node].cls]}={nodes[node].label}"
            return self.forest.value_labels.get(node, str(node))

        self.forest.describe_values(self.adapter, [x for rule in self.best.rules for x in rule])
        return [f"{label(a)} ~> {label(b)}" for a, b in self.best.rules]

    def outcome(self) -> Outcome:
        cfg = self.config
        metrics = {"rpd": self.best.rpd, "rpd_a": self.best.rpd_a, **self.loss}
        return Outcome(
            suppressed_rows=0,
            metrics=metrics,
            details={
                "strategy": STRATEGIES[cfg.search.strategy],
                "m": cfg.privacy.m, "n": cfg.privacy.n, "beam": cfg.search.beam,
                "cuts_evaluated": self.search.evaluated, "cuts_passed": self.search.passed,
                "subtrees_bounded": self.search.bounded,
                "search_stopped_early": self.search.stopped_early,
                "cut": self.cut_shown(),
                "expanded": [[self.forest.classes[self.forest.nodes[e].cls], self.forest.nodes[e].lvl,
                              self.forest.nodes[e].label] for e in sorted(self.best.expanded - {0})],
                "disassociations": self.rules_shown(),
                "records": self.forest.records, "root_rows": self.forest.roots,
            },
        )

    def history_nodes(self) -> list[tuple[str, str, float | None]]:
        return [(",".join(map(str, sorted(e - {0}))), "passed" if ok else "failed", None)
                for e, ok in self.search.trail]

    def report_sections(self, result: Any, table: tuple[str, ...] | None,
                        class_info: dict[str, Any] | None) -> dict[str, Any]:
        return {"related_tables": {key: result.details[key] for key in (
            "strategy", "m", "n", "beam", "cuts_evaluated", "cuts_passed", "subtrees_bounded", "search_stopped_early",
            "cut", "disassociations", "records", "root_rows")}}

    def validation(self) -> dict[str, Any]:
        forest = self.forest
        return {
            "quasi_identifiers": forest.classes,
            "hierarchy_heights": dict(zip(forest.classes, forest.heights, strict=True)),
            "values": dict(zip(forest.classes, forest.domain, strict=True)),
            "records": forest.records,
            "root_rows": forest.roots,
        }

    @classmethod
    def summary_lines(cls, result: Any) -> list[str]:
        m = result.metrics
        lines = [f"  k={result.k}, m={result.m}, n={result.n}, {result.strategy}: {result.cuts_evaluated} cuts "
                 f"evaluated, {result.cuts_passed} passed" + (" (stopped at search.max_cuts)"
                                                              if result.search_stopped_early else "")
                 + (f"; {result.subtrees_bounded} subtrees skipped by the RPD bound" if result.subtrees_bounded
                    else "")]
        for name, cut in result.cut.items():
            general = ", ".join(cut["generalized"][:6]) + (" ..." if len(cut["generalized"]) > 6 else "")
            lines.append(f"  {name}: {cut['values_kept']} of {cut['values']} values kept"
                         + (f"; generalized to {general}" if general else ""))
        if result.disassociations:
            shown = "; ".join(result.disassociations[:5]) + (" ..." if len(result.disassociations) > 5 else "")
            lines.append(f"  {len(result.disassociations)} structural disassociations: {shown}")
        lines.append(f"  RPD {m['rpd']:.6g}, ML2 {m['ml2']:.4f}, dML2 {m['dml2']:.4f}")
        lines.append(f"  {result.statements} SQL statements")
        return lines


