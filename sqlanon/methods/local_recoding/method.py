"""Local recoding by KACA (seed 002; Li, Wong, Fu, Pei 2006): each equivalence class is generalized only as far
up its hierarchies as its merges take it, so one rare value no longer lifts its whole column (full-domain
generalization) and a column's released values mix levels.

The hierarchies and the frequency set are prepared as for generalization (``generalization/preparation.py``);
the frequency set's distinct combinations are KACA's first classes (``kaca.py``). Suppression, when the limit
allows any, takes whole small classes before any merge: those whose nearest merge costs the most per record.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, ClassVar

from ...criteria import criteria_from_config
from ...errors import InputError
from ...evaluation import NodeEvaluator
from ..base import AnonymizationMethod, Outcome, ProgressCallback, Records, Release
from ..generalization.preparation import Preparation, PreparedData
from ..modification import Modification
from .config import LocalRecodingConfig
from .kaca import TEMPLATES, Clustering, Kaca, scaled_costs


class LocalRecodingMethod(AnonymizationMethod):
    """k-anonymity by KACA local recoding over the quasi-identifiers' hierarchies."""

    name: ClassVar[str] = "local_recoding"

    data: PreparedData
    kaca: Kaca
    clustering: Clustering

    @property
    def config(self) -> LocalRecodingConfig:
        return self.session.config  # type: ignore[return-value]

    def tables_read(self) -> list[tuple[str, str]]:
        return self.config.hierarchy_tables()

    # -- prepare and solve ---------------------------------------------------------------------------------
    def prepare(self) -> None:
        cfg = self.config
        self.data = Preparation(self.session).prepare()
        heights = [h.height for h in self.data.hierarchies]
        weights = cfg.local_recoding.whd
        self.scale, costs = scaled_costs(heights, weights.weights, weights.beta)
        self.attrs = [{"height": h, "cum": c} for h, c in zip(heights, costs, strict=True)]
        self._single_tops()
        classes, members = self.session.scratch("lrc"), self.session.scratch("lrmem")
        self.adapter.run(TEMPLATES + "create_classes.sql.j2", table=classes, fset=self.data.fset.table,
                         attrs=self.attrs)
        self.adapter.run(TEMPLATES + "create_members.sql.j2", table=members, classes=classes, attrs=self.attrs)
        self.evaluator = self._evaluator()
        self.kaca = Kaca(self.adapter, self.session.scratch, classes=classes, members=members, attrs=self.attrs,
                         k=cfg.privacy.k, judge=self._judge if self.evaluator is not None else None)
        self.first_classes = self.kaca.small()[2]

    def _evaluator(self) -> NodeEvaluator | None:
        """With privacy models on sensitive attributes: the generalization's judge of classes, over a frequency
        set whose one quasi-identifier is the class id (judge_classes.sql.j2), so that every model is judged
        exactly as the node queries judge it."""
        fset = self.data.fset
        if not fset.sensitive:
            return None
        self.judged_table = self.session.scratch("lrj")
        self.judgements = 0
        classes_fset = replace(fset, table=self.judged_table, codes_table=None, rollups=(), codes_pending=None,
                               slicing=(), parts=0, part_ranges=None, code_weights=None, population=None,
                               single_code=((True,),))
        return NodeEvaluator(self.adapter, classes_fset, self.config.privacy.k, loss_weights=False,
                             criteria=criteria_from_config(self.config), max_suppressed=self.data.ctx.max_suppressed)

    def _judge(self, classes: str, members: str) -> str:
        """The classes failing k or a model, judged on the current classes (a new table each time)."""
        assert self.evaluator is not None
        self.adapter.drop_tables([self.judged_table])
        self.adapter.run(TEMPLATES + "judge_classes.sql.j2", table=self.judged_table, fset=self.data.fset.table,
                         members=members, attrs=self.attrs, sensitive=len(self.data.fset.sensitive))
        self.judgements += 1
        failing = self.session.scratch(f"lrf{self.judgements}")
        self.adapter.run("find_failing_classes.sql.j2", failing=failing,
                         **self.evaluator.context((0,), False, table=self.judged_table))
        return failing

    def verify_models(self, table: tuple[str, ...]) -> dict[str, Any] | None:
        """Every privacy model re-checked on the written table: its classes (the distinct released combinations)
        read back with their sensitive values, judged by the same model SQL."""
        if self.evaluator is None:
            return None
        cfg = self.config
        self.adapter.drop_tables([self.judged_table])
        self.adapter.run(TEMPLATES + "verification_classes.sql.j2", table=self.judged_table, output=table,
                         qis=cfg.quasi_identifiers, sensitive=list(self.data.fset.sensitive),
                         mask=cfg.output.suppressed_rows == "mask")
        failing = self.session.scratch("lrvf")
        self.adapter.run("find_failing_classes.sql.j2", failing=failing,
                         **self.evaluator.context((0,), False, table=self.judged_table))
        classes = int(self.adapter.run("count_table.sql.j2", table=(failing,))[0][0])
        return {"models_verified": classes == 0, "models_checked": [m["kind"] for m in self.evaluator.models],
                "classes_failing_models": classes}

    def _single_tops(self) -> None:
        """A class may be merged up to the top of every hierarchy, so each must end in one value ('*')."""
        rows = self.adapter.run(TEMPLATES + "count_tops.sql.j2", fset=self.data.fset.table, attrs=self.attrs)[0]
        for h, tops in zip(self.data.hierarchies, rows, strict=True):
            if int(tops) > 1:
                raise InputError(f"{h.where}: the top level has {int(tops)} different values; local recoding may "
                                 f"merge any two classes up to the top, which needs a single top value (e.g. '*')")

    def records(self) -> Records:
        data = self.data
        return Records(rows=data.total_rows, considered=data.ctx.records, removed_for_null=data.removed_for_null,
                       max_suppressed=data.ctx.max_suppressed)

    def solve(self, plan: dict[str, Any] | None, on_violation: str, progress: ProgressCallback | None,
              started: float) -> str:
        # (The session refused a table of fewer than k records: merging ends with classes of k or more.)
        cfg, data = self.config, self.data
        self.kaca.suppress_outliers(data.ctx.max_suppressed)

        def tick(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total, None, time.perf_counter() - started)

        settings = cfg.local_recoding
        self.clustering = self.kaca.run(settings.merging, settings.choice, settings.seed, settings.exact_classes,
                                        tick)
        self._measure()
        return f"kaca ({settings.merging.replace('_', '-')})"

    def _measure(self) -> None:
        qis = [{"coded": h.coded_table, "height": h.height} for h in self.data.hierarchies]
        row = self.adapter.run(TEMPLATES + "measure.sql.j2", members=self.kaca.members, classes=self.kaca.classes,
                               qis=qis)[0]
        self.records_total, self.suppressed, distortion = int(row[0]), int(row[1]), int(row[2])
        self.modified = [int(v) for v in row[3:]]
        self.distortion = distortion / self.scale  # the kept records' WHD; suppressed cells add 1 each
        levels: dict[int, dict[int, int]] = {}
        for qi, level, _classes, records in self.adapter.run(TEMPLATES + "describe_levels.sql.j2",
                                                              classes=self.kaca.classes, attrs=self.attrs):
            levels.setdefault(int(qi), {})[int(level)] = int(records)
        self.levels = levels

    # -- release ----------------------------------------------------------------------------------------------
    def release(self) -> Release:
        cfg, data = self.config, self.data
        mask = cfg.output.suppressed_rows == "mask"
        return Release(
            template=TEMPLATES + "write_local_recoding.sql.j2",
            context={
                "source": data.source,
                "columns": cfg.released_columns(data.columns),
                "qis": [{"column": h.attribute, "coded": h.coded_table, "height": h.height}
                        for h in data.hierarchies],
                "members": self.kaca.members,
                "classes": self.kaca.classes,
                "mask": mask,
                "basic": cfg.privacy.null_handling == "basic",
            },
            qis=cfg.quasi_identifiers,
            k=cfg.privacy.k,
            considered=data.ctx.records,
            max_suppressed=data.ctx.max_suppressed,
            mask=mask,
        )

    # -- what the run tells -----------------------------------------------------------------------------------
    def metrics(self) -> dict[str, float]:
        """WHD distortion (total, and per cell) and the modification rate; a suppressed record's cells count as
        taken to the top (WHD 1 each) and as modified."""
        q, n, s = len(self.attrs), self.records_total, self.suppressed
        distortion = self.distortion + s * q
        cells = n * q
        return {
            "whd": distortion / cells if cells else 0.0,
            "whd_distortion": distortion,
            "modification_rate": self.modification().rate,
        }

    def modification(self) -> Modification:
        return Modification.of([h.attribute for h in self.data.hierarchies], self.records_total, self.suppressed,
                               self.modified)

    def outcome(self) -> Outcome:
        cfg = self.config
        return Outcome(
            suppressed_rows=self.suppressed,
            metrics=self.metrics(),
            details={
                "strategy": f"kaca ({cfg.local_recoding.merging.replace('_', '-')})",
                "whd_weights": cfg.local_recoding.whd.model_dump(),
                "first_classes": self.first_classes,
                "classes": self.clustering.classes,
                "rounds": self.clustering.rounds,
                "blocked_rounds": self.clustering.blocked_rounds,
                "merges": self.clustering.merges,
                "suppressed_classes": self.clustering.suppressed_classes,
                "hierarchy_heights": {h.attribute: h.height for h in self.data.hierarchies},
                "records_by_level": {
                    h.attribute: {str(level): records for level, records in sorted(self.levels.get(i, {}).items())}
                    for i, h in enumerate(self.data.hierarchies)},
                "modification_rate_by_attribute": self.modification().by_attribute,
            },
        )

    def report_sections(self, result: Any, table: tuple[str, ...] | None,
                        class_info: dict[str, Any] | None) -> dict[str, Any]:
        return {"local_recoding": {key: result.details[key] for key in (
            "strategy", "whd_weights", "first_classes", "classes", "rounds", "merges", "suppressed_classes",
            "hierarchy_heights", "records_by_level", "modification_rate_by_attribute")}}

    def validation(self) -> dict[str, Any]:
        cfg = self.config
        small, records, total, _ = self.kaca.small()
        return {
            "quasi_identifiers": cfg.quasi_identifiers,
            "hierarchy_heights": {h.attribute: h.height for h in self.data.hierarchies},
            "classes": total,
            # Below k, or failing a privacy model: the classes KACA starts merging.
            "classes_to_merge": small,
            "records_in_classes_to_merge": records,
            "merging": cfg.local_recoding.merging,
        }

    @classmethod
    def summary_lines(cls, result: Any) -> list[str]:
        levels = "; ".join(
            f"{name} " + ", ".join(f"L{level}:{records}" for level, records in by.items())
            for name, by in result.records_by_level.items())
        return [
            f"  k={result.k}, {len(result.records_by_level)} quasi-identifiers, NULL handling {result.null_handling}, "
            f"strategy {result.strategy}",
            f"  classes: {result.first_classes} -> {result.classes} in {result.rounds} rounds"
            + (f"; {result.suppressed_classes} classes suppressed" if result.suppressed_classes else ""),
            f"  records by level: {levels}",
            f"  suppressed rows: {result.suppressed_rows}"
            + (f"; removed for NULL (basic match): {result.removed_for_null}" if result.removed_for_null else ""),
            f"  WHD per cell {result.metrics['whd']:.6g} (distortion {result.metrics['whd_distortion']:.6g}), "
            f"modification rate {result.metrics['modification_rate']:.4%}",
            f"  {result.statements} SQL statements",
        ]
