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
from fractions import Fraction
from typing import Any, ClassVar

from ...errors import ConfigError, NoSolutionError
from ...measures import numeric_kind
from ..base import AnonymizationMethod, Outcome, ProgressCallback, Records, Release
from ..modification import Modification
from . import kpqr, mdav
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
        self.sensitive, self.need = self._requirement(types_of=table.parts)
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
                    rid=RID, qis=qis, scale=cfg.microaggregation.standardize, sensitive=self.sensitive,
                    numeric_sensitive=self.numeric_sensitive)
        adapter.run(mdav.TEMPLATES + "suppress_small_parts.sql.j2", table=self.groups_table, k=cfg.privacy.k)
        self.suppressed = mdav.describe_parts(adapter, self.groups_table)[1]

    def _requirement(self, types_of: tuple[str, ...]) -> tuple[str | None, kpqr.Requirement | None]:
        """The sensitive attribute the groups are built around, and what its groups must meet: (k,p,q,r) from
        kpqr_anonymity, p from p_sensitivity or distinct_l_diversity (the larger p applies)."""
        cfg = self.config
        self.numeric_sensitive = False
        names = cfg.sensitive_with_models
        if not names:
            return None, None
        if len(names) > 1:
            raise ConfigError(f"attributes: microaggregation builds its groups around one sensitive attribute; "
                              f"{', '.join(names)} all have models")
        name = names[0]
        p, spec = 1, None
        for model in cfg.attributes[name].models:
            if model.kind not in _MODELS:
                raise ConfigError(f"attributes.{name}.models: {model.kind} is not available with method "
                                  f"microaggregation (it supports: {', '.join(_MODELS)})")
            if model.kind == "kpqr_anonymity":
                spec = model.spec
            p = max(p, int(getattr(model.spec, "p", None) or getattr(model.spec, "l", None) or 1))
        type_name = str(self.adapter.run("audit_column_types.sql.j2", table=types_of, columns=[name])[0][0])
        self.numeric_sensitive = numeric_kind(type_name) is not None
        r = Fraction(str(spec.r)) if spec is not None else Fraction(0)
        if r > 0 and not self.numeric_sensitive:
            raise ConfigError(f"attributes.{name}.models: kpqr_anonymity with r > 0 compares variances and needs a "
                              f"numeric column; {name!r} is {type_name}")
        return name, kpqr.Requirement(
            k=cfg.privacy.k, p=p, q=None if spec is None else Fraction(str(spec.q)), r=r,
            prefer_variance=spec is not None)

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

        self.heuristic = None
        if self.need is not None:
            # Seeds in [-1, 1] as an integer for the heuristic's order of first records.
            seed = int(abs(cfg.microaggregation.seed) * (1 << 30)) + (cfg.microaggregation.seed < 0)
            self.heuristic = kpqr.build_groups(self.adapter, self.groups_table, self.need,
                                               d=len(cfg.quasi_identifiers), seed=seed)
            self.adapter.run(mdav.TEMPLATES + "absorb_small_remainders.sql.j2", table=self.groups_table,
                             k=cfg.privacy.k, first_group=kpqr.FIRST_GROUP)
        self.grouping = mdav.group(
            self.adapter, self.groups_table, k=cfg.privacy.k,
            d=len(cfg.quasi_identifiers), limit=max(cfg.microaggregation.partition_size, 2 * cfg.privacy.k),
            part_size=max(cfg.microaggregation.part_size, 2 * cfg.privacy.k),
            suppressed=self.suppressed, global_rounds=cfg.microaggregation.global_rounds, progress=tick)
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
        row = self.adapter.run(mdav.TEMPLATES + "measure_modification.sql.j2", records=self.records_table, rid=RID,
                               groups=self.groups_table, qis=self._released_qis())[0]
        self.modification = Modification.of(qis, int(row[0]), int(row[1]), [int(v) for v in row[2:]])

    def _released_qis(self) -> list[dict[str, Any]]:
        cfg = self.config
        return [{"column": q, "round": cfg.attributes[q].round} for q in cfg.quasi_identifiers]

    # -- release ----------------------------------------------------------------------------------------------
    def release(self) -> Release:
        cfg = self.config
        return Release(
            template=mdav.TEMPLATES + "write_microaggregated.sql.j2",
            context={"records": self.records_table, "rid": RID, "groups": self.groups_table,
                     "columns": cfg.released_columns(self.columns),
                     "qis": self._released_qis()},
            qis=cfg.quasi_identifiers,
            k=cfg.privacy.k,
            considered=self.considered,
            max_suppressed=self.max_suppressed,
            starred=False,
        )

    def verify_models(self, table: tuple[str, ...]) -> dict[str, Any] | None:
        """The groups' model re-checked on the written table by the shared measure (``audit_kpqr.sql.j2``)."""
        if self.need is None:
            return None
        need = self.need
        # p-sensitivity alone: every value counts as rare (n_v < 2n always holds).
        q = need.q if need.q is not None else Fraction(2)
        classes, rare_classes, fewest, smallest_ratio = self.adapter.run(
            "audit_kpqr.sql.j2", table=table, qis=self.config.quasi_identifiers, column=self.sensitive,
            num=q.numerator, den=q.denominator, numeric=self.numeric_sensitive)[0]
        ok = rare_classes == 0 or (int(fewest) >= need.p
                                   and (need.r == 0 or float(smallest_ratio) + 1e-12 >= float(need.r)))
        kinds = [m.kind for m in self.config.attributes[self.sensitive].models]
        return {"models_verified": bool(ok), "models_checked": kinds,
                "classes_failing_models": 0 if ok else int(rare_classes),
                "classes_with_rare_values": int(rare_classes),
                "fewest_distinct_values": None if fewest is None else int(fewest),
                "smallest_variance_ratio": None if smallest_ratio is None else float(smallest_ratio)}

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
            metrics={**self._information_loss(), "modification_rate": self.modification.rate},
            details={
                "strategy": self.strategy_name(),
                "standardize": self.config.microaggregation.standardize,
                "groups": count,
                "smallest_group": smallest,
                "largest_group": largest,
                "parts": self.grouping.parts,
                "rounds": self.grouping.rounds,
                "sensitive_groups": None if self.heuristic is None else {
                    "attribute": self.sensitive, "groups": self.heuristic.groups, "merged": self.heuristic.merged,
                    "rare_records_taken_in": self.heuristic.absorbed_rest, "min_variance": self.heuristic.min_var},
                "information_loss_by_attribute": {
                    q: {"sse": e, "sst": t, "information_loss": 100 * e / t if t else 0.0}
                    for q, (e, t) in self.loss.items()},
                "modification_rate_by_attribute": self.modification.by_attribute,
            },
        )

    def strategy_name(self) -> str:
        name = "mdav" if self.grouping.split_rounds == 0 else "mdav (partitioned)"
        if self.need is None:
            return name
        return ("(k,p,q,r) heuristic + " if self.need.q is not None else "p-sensitive heuristic + ") + name

    def report_sections(self, result: Any, table: tuple[str, ...] | None,
                        class_info: dict[str, Any] | None) -> dict[str, Any]:
        from ...report import data as report_data

        return {
            "microaggregation": {key: result.details[key] for key in (
                "strategy", "standardize", "groups", "smallest_group", "largest_group", "parts", "rounds",
                "sensitive_groups", "information_loss_by_attribute", "modification_rate_by_attribute")},
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
        lines = [
            f"  k={result.k}, {len(by_attribute)} quasi-identifiers ({result.standardize}), "
            f"NULL handling {result.null_handling}, strategy {result.strategy}",
            f"  groups: {result.groups} of {result.smallest_group}..{result.largest_group} records"
            + (f" in {result.parts} parts" if result.parts > 1 else "") + f", {result.rounds} MDAV rounds",
        ]
        around = result.sensitive_groups
        if around:
            lines.append(f"  groups built around {around['attribute']}: {around['groups']} "
                         f"({around['merged']} merged into the one before, {around['rare_records_taken_in']} rare "
                         f"records taken in at the end), minimum variance {around['min_variance']:.6g}")
        lines += [
            f"  suppressed rows: {result.suppressed_rows}"
            + (f"; removed for NULL (basic match): {result.removed_for_null}" if result.removed_for_null else ""),
            f"  information loss: IL={result.metrics['information_loss']:.4f} (SSE {result.metrics['sse']:.6g} / "
            f"SST {result.metrics['sst']:.6g}); by attribute: "
            + ", ".join(f"{q}={v['information_loss']:.3g}" for q, v in by_attribute.items()),
            f"  modification rate {result.metrics['modification_rate']:.4%}",
            f"  {result.statements} SQL statements",
        ]
        return lines

#: The privacy models microaggregation can build groups for (beyond k-anonymity).
_MODELS: tuple[str, ...] = ("kpqr_anonymity", "p_sensitivity", "distinct_l_diversity")
