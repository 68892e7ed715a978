"""Microaggregation (seed 004; Domingo-Ferrer & Mateo-Sanz 2002): numeric quasi-identifiers are replaced by the
mean of groups of k..2k-1 similar records, formed by MDAV in the database. The released table keeps numbers
(not intervals) and most of their variance; the information loss is IL = 100 * SSE / SST on the standardized
quasi-identifiers.

NULL quasi-identifiers (extended matching, the default): records are grouped only with records NULL in the same
quasi-identifiers, and a NULL is released as NULL; a pattern of NULLs that fewer than k records share cannot form
a group and its records are suppressed, within the suppression limit. Basic matching removes every record with a
NULL quasi-identifier first, as for generalization.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from ...audit import numeric_kind
from ...errors import ConfigError, NoSolutionError
from ..base import AnonymizationMethod, Outcome, ProgressCallback, Records, Release
from . import mdav
from .config import MicroaggregationConfig

#: The row id column of the records' scratch copy (a source column of that name is refused).
RID = "sqlanon_rid"


class MicroaggregationMethod(AnonymizationMethod):
    """k-anonymity by MDAV microaggregation of numeric quasi-identifiers."""

    name: ClassVar[str] = "microaggregation"

    @property
    def config(self) -> MicroaggregationConfig:
        return self.session.config  # type: ignore[return-value]

    # -- prepare and solve ---------------------------------------------------------------------------------
    def prepare(self) -> None:
        session, adapter = self.session, self.adapter
        table = session.describe_source()
        cfg = self.config
        qis = cfg.quasi_identifiers
        if RID in table.columns:
            raise ConfigError(f"source: a column named {RID!r} is reserved by microaggregation; rename it")
        types = adapter.run("audit_column_types.sql.j2", table=table.parts, columns=qis)[0]
        for name, type_name in zip(qis, types, strict=True):
            if numeric_kind(str(type_name)) is None:
                raise ConfigError(
                    f"attributes.{name}: microaggregation replaces a quasi-identifier by its group's mean and "
                    f"needs a numeric column; {name!r} is {type_name} (give it a hierarchy and use method: "
                    f"generalization)")
        for name in cfg.sensitive_with_models:
            unsupported = [m.kind for m in cfg.attributes[name].models if m.kind not in _MODELS]
            if unsupported:
                raise ConfigError(f"attributes.{name}.models: {', '.join(unsupported)} is not available with "
                                  f"method microaggregation (it supports: {', '.join(_MODELS)})")
        self.total, self.removed = session.count_records(table, qis)
        self.considered = self.total - self.removed
        self.max_suppressed = cfg.privacy.max_suppressed(self.considered)
        self.columns = table.columns
        self.records_table = session.scratch("mr")
        others = [c for c in table.columns if c not in qis]
        adapter.run(mdav.TEMPLATES + "create_records.sql.j2", table=self.records_table, source=table.parts, qis=qis,
                    others=others, rid=RID, basic=cfg.privacy.null_handling == "basic")
        self.groups_table = session.scratch("mz")
        adapter.run(mdav.TEMPLATES + "standardize_records.sql.j2", table=self.groups_table, records=self.records_table,
                    rid=RID, qis=qis, scale=cfg.microaggregation.standardize)
        adapter.run(mdav.TEMPLATES + "suppress_small_parts.sql.j2", table=self.groups_table, k=cfg.privacy.k)
        self.suppressed = mdav.describe_parts(adapter, self.groups_table)[1]

    def solve(self, plan: dict[str, Any] | None, on_violation: str, progress: ProgressCallback | None,
              started: float) -> str:
        cfg = self.config
        if self.suppressed > self.max_suppressed:
            raise NoSolutionError(
                f"{self.suppressed} records have a pattern of NULL quasi-identifiers that fewer than "
                f"k={cfg.privacy.k} records share, so they cannot be grouped; the suppression limit is "
                f"{self.max_suppressed}: raise privacy.suppression_limit, or use privacy.null_handling: basic to "
                f"leave out every record with a NULL quasi-identifier")

        def tick(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total, None, time.perf_counter() - started)

        self.grouping = mdav.group(
            self.adapter, self.groups_table, k=cfg.privacy.k,
            d=len(cfg.quasi_identifiers), limit=max(cfg.microaggregation.partition_size, 2 * cfg.privacy.k),
            suppressed=self.suppressed, progress=tick)
        self._measure()
        return self.strategy_name()

    def _measure(self) -> None:
        qis = self.config.quasi_identifiers
        row = self.adapter.run(mdav.TEMPLATES + "measure_information_loss.sql.j2", table=self.groups_table,
                               d=len(qis))[0]
        self.loss = {q: (float(row[2 * j]), float(row[2 * j + 1])) for j, q in enumerate(qis)}
        count, smallest, largest, grouped = self.adapter.run(mdav.TEMPLATES + "describe_groups.sql.j2",
                                                             table=self.groups_table)[0]
        self.group_sizes = (int(count), smallest and int(smallest), largest and int(largest), int(grouped))

    # -- release ----------------------------------------------------------------------------------------------
    def release(self) -> Release:
        cfg = self.config
        return Release(
            template=mdav.TEMPLATES + "write_microaggregated.sql.j2",
            context={"records": self.records_table, "rid": RID, "groups": self.groups_table,
                     "columns": cfg.released_columns(self.columns),
                     "qis": [{"column": q, "round": cfg.attributes[q].round} for q in cfg.quasi_identifiers]},
            qis=cfg.quasi_identifiers,
            k=cfg.privacy.k,
            considered=self.considered,
            max_suppressed=self.max_suppressed,
            starred=False,
        )

    # -- what the run tells -----------------------------------------------------------------------------------
    def records(self) -> Records:
        return Records(rows=self.total, considered=self.considered, removed_for_null=self.removed,
                       max_suppressed=self.max_suppressed)

    def _information_loss(self) -> dict[str, Any]:
        sse = sum(e for e, _ in self.loss.values())
        sst = sum(t for _, t in self.loss.values())
        return {"sse": sse, "sst": sst, "information_loss": 100 * sse / sst if sst else 0.0}

    def outcome(self) -> Outcome:
        count, smallest, largest, _ = self.group_sizes
        return Outcome(
            suppressed_rows=self.suppressed,
            metrics=self._information_loss(),
            details={
                "strategy": self.strategy_name(),
                "standardize": self.config.microaggregation.standardize,
                "groups": count,
                "smallest_group": smallest,
                "largest_group": largest,
                "parts": self.grouping.parts,
                "rounds": self.grouping.rounds,
                "information_loss_by_attribute": {
                    q: {"sse": e, "sst": t, "information_loss": 100 * e / t if t else 0.0}
                    for q, (e, t) in self.loss.items()},
            },
        )

    def strategy_name(self) -> str:
        return "mdav" if self.grouping.split_rounds == 0 else "mdav (partitioned)"

    def report_sections(self, result: Any, table: tuple[str, ...] | None,
                        class_info: dict[str, Any] | None) -> dict[str, Any]:
        from ...report import data as report_data

        return {
            "microaggregation": {key: result.details[key] for key in (
                "strategy", "standardize", "groups", "smallest_group", "largest_group", "parts", "rounds",
                "information_loss_by_attribute")},
            "models": report_data.models(self.adapter, self.config, table, class_info, result.verification),
        }

    def validation(self) -> dict[str, Any]:
        cfg = self.config
        parts = mdav.describe_parts(self.adapter, self.groups_table)[0]
        return {
            "quasi_identifiers": cfg.quasi_identifiers,
            "standardize": cfg.microaggregation.standardize,
            "null_patterns": len(parts),
            "records_that_cannot_be_grouped": self.suppressed,
        }

    @classmethod
    def summary_lines(cls, result: Any) -> list[str]:
        by_attribute = result.information_loss_by_attribute
        return [
            f"  k={result.k}, MDAV on {len(by_attribute)} quasi-identifiers ({result.standardize}), "
            f"NULL handling {result.null_handling}, strategy {result.strategy}",
            f"  groups: {result.groups} of {result.smallest_group}..{result.largest_group} records"
            + (f" in {result.parts} parts" if result.parts > 1 else ""),
            f"  suppressed rows: {result.suppressed_rows}"
            + (f"; removed for NULL (basic match): {result.removed_for_null}" if result.removed_for_null else ""),
            f"  information loss: IL={result.metrics['information_loss']:.4f} (SSE {result.metrics['sse']:.6g} / "
            f"SST {result.metrics['sst']:.6g}); by attribute: "
            + ", ".join(f"{q}={v['information_loss']:.3g}" for q, v in by_attribute.items()),
            f"  {result.rounds} MDAV rounds ({result.statements} SQL statements)",
        ]


#: The privacy models microaggregation can build groups for (beyond k-anonymity).
_MODELS: tuple[str, ...] = ()
