"""Full-domain generalization over the lattice of the quasi-identifiers' hierarchy levels (ARX, ANON, OLA):
the first anonymization method. The optimal node is found by a search strategy (``lattice/search/``) that asks
the node evaluator (``evaluation/``), which renders one ``GROUP BY`` per node over the frequency set."""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction
from typing import Any, ClassVar

from ...criteria import PrivacyCriterion, criteria_from_config
from ...errors import ConfigError, NoSolutionError
from ...evaluation import NodeEvaluator
from ...evaluation.evaluator import NodeStats
from ...faults import fault_pause
from ...lattice import Node
from ...lattice.budget import LatticeBudget, lattice_budget
from ...lattice.search import IMPLICIT_STRATEGIES, STRATEGIES, SearchLimits, SearchProblem, SearchResult, run_search
from ...lattice.search.exhaustive import ExhaustiveStrategy
from ...metrics import METRICS, InformationLossMetric
from ...metrics.whd import WhdMetric
from ...output import shuffle_salt
from ...report import data as report_data
from ..base import AnonymizationMethod, Outcome, ProgressCallback, Records, Release
from ..modification import Modification
from . import explaining
from . import report as sections
from .config import AUTO_HEURISTIC_SECONDS, GeneralizationConfig
from .preparation import Preparation, PreparedData, groupable


class GeneralizationMethod(AnonymizationMethod):
    """The optimal full-domain generalization under k-anonymity, the privacy models and the suppression limit."""

    name: ClassVar[str] = "generalization"
    HAS_PLAN: ClassVar[bool] = True

    data: PreparedData
    metric: type[InformationLossMetric]
    criteria: list[PrivacyCriterion]
    evaluator: NodeEvaluator
    problem: SearchProblem
    node: Node
    stats: NodeStats
    strategy: str
    #: Why this strategy (``strategy: auto`` says which it took and why; empty for a configured one).
    strategy_reason: str = ""
    found: SearchResult | None = None

    @property
    def config(self) -> GeneralizationConfig:
        return self.session.config  # type: ignore[return-value]

    def tables_read(self) -> list[tuple[str, str]]:
        cfg = self.config
        read = cfg.hierarchy_tables()
        if cfg.privacy.delta_presence is not None:
            read.append(("privacy.delta_presence.population_table", cfg.privacy.delta_presence.population_table))
        return read

    # -- prepare and solve ------------------------------------------------------------------------------
    def prepare(self) -> None:
        self.data = Preparation(self.session).prepare()
        cfg = self.config
        self.metric = self.data.metric
        self.criteria = criteria_from_config(cfg)
        self.evaluator = NodeEvaluator(
            self.adapter, self.data.fset, cfg.privacy.k, loss_weights=self.metric.needs_loss_weights,
            criteria=self.criteria, class_statistics=self.metric.class_statistics,
            max_suppressed=self.data.ctx.max_suppressed,
        )

    def solve(self, plan: dict[str, Any] | None, on_violation: str, progress: ProgressCallback | None,
              started: float) -> str:
        cfg, data, metric = self.config, self.data, self.metric
        fault_pending = [True]

        def tick(evaluated: int, best: Fraction | None) -> None:
            if fault_pending[0]:
                fault_pending[0] = False
                fault_pause("SQLANON_FAULT_PAUSE_IN_SEARCH")
            if progress is not None:
                bound = self.problem.known_bound
                if bound is not None and hasattr(progress, "bound"):
                    progress.bound(metric.display(bound, data.ctx))
                progress(evaluated, data.lattice.size,
                         None if best is None else metric.display(best, data.ctx), time.perf_counter() - started)

        strategy, self.strategy_reason = self._choose_strategy()
        budget = cfg.search.budget
        seconds = budget.seconds
        if cfg.search.strategy == "auto" and strategy == "top_down" and seconds is None and budget.nodes is None:
            seconds = AUTO_HEURISTIC_SECONDS
            self.strategy_reason += f"; no search.budget is set, so it stops after {seconds:g} seconds"
        self.problem = SearchProblem(data.lattice, self.evaluator, metric, data.ctx, monotone_criteria=self._monotone,
                                     progress=tick, core=self._core(), limits=SearchLimits(budget.nodes, seconds),
                                     implicit=strategy in IMPLICIT_STRATEGIES)
        # The rows each node query scans, for its session settings; unknown where a population's frequency set
        # (delta-presence) is joined by every query, as its size is not counted.
        scanned = data.fset.distinct if data.fset.population is None else None
        with self.evaluator.tuning.node_query_settings(self.adapter, scanned, self.evaluator.judged):
            node = self._apply_transformation(plan, on_violation) if plan is not None else None
            self.strategy = "fixed" if node is not None else strategy
            if node is not None:
                self.strategy_reason = ""
            else:
                if self.strategy not in IMPLICIT_STRATEGIES:
                    try:
                        self._budget().require()  # before anything whose size grows with the lattice
                    except ConfigError as exc:
                        raise self.session.named(exc) from None
                node = self._search()
            self.node = node
            self.stats = self.evaluator.evaluate_full(node)
        return self.strategy

    @property
    def _monotone(self) -> bool:
        return all(c.is_monotonic_with_generalization() for c in self.criteria)

    def _core(self) -> SearchProblem | None:
        """With models that are not monotone, k-anonymity alone (a necessary condition, monotone): the plain
        class-size query over the same frequency set, without the models, which the search may prune with."""
        if self._monotone:
            return None
        data = self.data
        core_fset = replace(data.fset, sensitive=(), population=None)
        core_evaluator = NodeEvaluator(self.adapter, core_fset, self.config.privacy.k, loss_weights=False,
                                       class_statistics=self.metric.class_statistics,
                                       max_suppressed=data.ctx.max_suppressed)
        return SearchProblem(data.lattice, core_evaluator, self.metric, data.ctx, monotone_criteria=True)

    def _budget(self) -> LatticeBudget:
        return lattice_budget(self.config.quasi_identifiers, self.data.lattice.max_levels,
                              self.config.search.max_lattice_nodes)

    def _choose_strategy(self) -> tuple[str, str]:
        """The configured strategy, or for ``auto`` the one it takes and why."""
        cfg = self.config
        if cfg.search.strategy != "auto":
            return cfg.search.strategy, ""
        budget, size = self._budget(), self.data.lattice.size
        if not budget.fits:
            why = (f"more than search.max_lattice_nodes ({budget.limit:,})" if size > budget.limit
                   else "more than half of this machine's memory would hold")
            return "top_down", f"auto: top_down, a heuristic, as the lattice of {size:,} nodes is {why}"
        if cfg.search.budget.nodes is not None or cfg.search.budget.seconds is not None:
            return "top_down", ("auto: top_down, as a search.budget is set (it keeps its best transformation "
                                "and a lower bound whenever it stops)")
        return "flash", f"auto: flash, the optimal search, as the lattice of {size:,} nodes fits"

    def _search(self) -> Node:
        cfg, data = self.config, self.data
        if self.strategy == "exhaustive":
            strategy = ExhaustiveStrategy(cfg.search.max_exhaustive_nodes, cfg.search.force)
        else:
            strategy = STRATEGIES[self.strategy]()
        self.problem.limits.started = time.perf_counter()  # type: ignore[union-attr]
        self.found = found = run_search(strategy, self.problem)
        if found.node is None and found.stopped is not None:
            raise NoSolutionError(
                f"the search stopped because {found.stopped} before any transformation was found feasible "
                f"({found.nodes_evaluated} nodes evaluated); raise search.budget or use strategy top_down, which "
                f"checks the most general transformation first")
        if found.node is None:
            models = ", ".join(c.kind for c in self.criteria)
            raise NoSolutionError(
                f"no transformation within the generalization limits keeps suppression within "
                f"{data.ctx.max_suppressed} of {data.ctx.records} records for k={cfg.privacy.k} ({models}) "
                f"({found.nodes_evaluated} nodes evaluated); "
                + (self._unreachable_models() or "raise max_level, the suppression limit, or lower k")
            )
        return found.node

    def _unreachable_models(self) -> str | None:
        """The models that no class can ever meet, whatever the generalization: more distinct values required
        (``PrivacyCriterion.counts_distinct_values``: l-diversity's l, p-sensitivity's p) than the sensitive
        attribute has."""
        sizes = {s["column"]: s["domain_size"] for s in self.data.fset.sensitive}
        found = []
        for criterion in self.criteria:
            if not criterion.counts_distinct_values:
                continue
            parameter, needed, name = criterion.report.parameter, criterion.limit(), criterion.attribute_name
            if name in sizes and needed > sizes[name]:
                found.append(f"attributes.{name}: {criterion.kind} needs {parameter}={needed} distinct values in "
                             f"every class, but {name!r} has only {sizes[name]} distinct values in the whole table")
        if not found:
            return None
        return "; ".join(found) + f"; lower {'them' if len(found) > 1 else 'it'} to at most the number of values"

    def _apply_transformation(self, transformation: dict[str, Any], on_violation: str) -> Node | None:
        """The plan's transformation (the level per QI that ``apply`` re-applies; the run's strategy is then
        ``fixed``) if this data satisfies the models with it; None to search again."""
        cfg, data = self.config, self.data
        qis = cfg.quasi_identifiers
        if sorted(transformation) != sorted(qis):
            raise ConfigError(
                f"transformation: its attributes ({', '.join(sorted(transformation))}) are not the config's "
                f"quasi-identifiers ({', '.join(sorted(qis))})"
            )
        bad = {q: transformation[q] for q in qis if type(transformation[q]) is not int}
        if bad:
            q, v = next(iter(bad.items()))
            raise ConfigError(f"transformation.{q}: a level must be an integer (got {v!r})")
        node = tuple(transformation[q] for q in qis)
        if not data.lattice.contains(node):
            limits = ", ".join(f"{q}<={m}" for q, m in zip(qis, data.lattice.max_levels, strict=True))
            raise ConfigError(f"transformation: {dict(zip(qis, node, strict=True))} is outside the lattice "
                              f"({limits})")
        stats = self.problem.evaluate(node)
        if stats.suppressed_records <= data.ctx.max_suppressed:
            return node
        if on_violation == "search":
            return None
        raise NoSolutionError(
            f"this batch violates the privacy models under the transformation "
            f"{', '.join(f'{q}={lvl}' for q, lvl in zip(qis, node, strict=True))}: {stats.suppressed_records} of "
            f"{data.ctx.records} records are in classes failing k={cfg.privacy.k}"
            + (" or a privacy model" if self.evaluator.models else "")
            + f", above the suppression limit {data.ctx.max_suppressed}; nothing was written "
            f"(use --on-violation search to search for a new transformation)"
        )

    # -- release and verification ---------------------------------------------------------------------------
    def release(self) -> Release:
        cfg, data = self.config, self.data
        # The classes the chosen node suppresses, for the write to leave out or mask.
        failing = self.session.scratch("fail")
        self.adapter.run("find_failing_classes.sql.j2", failing=failing, **self.evaluator.context(self.node, False))
        columns = cfg.released_columns(data.columns)
        context: dict[str, Any] = {
            "source": data.source, "columns": columns, "qis": self._levels(), "failing": failing,
            "mask": cfg.output.suppressed_rows == "mask", "basic": cfg.privacy.null_handling == "basic",
        }
        template = "write_output.sql.j2"
        grouped = data.grouped
        if grouped is not None:  # the source grouped once already (Preparation._grouping): read that
            context.update(source=(grouped.table,), counted=grouped.counted)
        if grouped or groupable(self.adapter, data.source, [c["name"] for c in columns if c["qi_index"] is None]):
            # The released rows' kinds in random order, then each repeated: only the kinds are sorted.
            kinds = self.session.scratch("kinds")
            with self.adapter.aggregate_settings(hashed=True):  # a GROUP BY of every row, as the frequency set's
                self.adapter.run("release_kinds.sql.j2", table=kinds, salt=shuffle_salt(cfg.output.seed), **context)
            template, context = "write_kinds.sql.j2", {"kinds": kinds, "columns": columns}
        return Release(
            template=template,
            context=context,
            qis=cfg.quasi_identifiers,
            k=cfg.privacy.k,
            considered=data.ctx.records,
            max_suppressed=data.ctx.max_suppressed,
            mask=cfg.output.suppressed_rows == "mask",
        )

    def _levels(self) -> list[dict[str, Any]]:
        return [{"column": h.attribute, "coded": h.coded_table, "level": level}
                for h, level in zip(self.data.hierarchies, self.node, strict=True)]

    def verify_models(self, table: tuple[str, ...]) -> dict[str, Any] | None:
        """Every privacy model re-checked on the written table, read back and mapped to hierarchy codes."""
        if not self.evaluator.models:
            return None
        vfs = self.session.scratch("vfs")
        self.adapter.run("build_verification_set.sql.j2", table=vfs, output=table, qis=self._levels(),
                         sensitive=list(self.data.fset.sensitive))
        context = {**self.evaluator.context(self.node, False), "table": vfs}
        row = self.adapter.run(self.evaluator.template(False), **context)[0]
        stats = self.evaluator.stats_from_row(self.node, row, False)
        # No written class may fail, in either mode. Masked rows ('*' in every QI) are no label of the chosen
        # levels, so they drop out of the verification set (verify_output counts them against the limit); only
        # where every chosen level has a '*' label (the top) do they form a class, and then it is a released one.
        return {
            "models_verified": stats.suppressed_records == 0,
            "models_checked": [m["kind"] for m in self.evaluator.models],
            "classes_failing_models": stats.suppressed_classes,
        }

    # -- what the run tells -------------------------------------------------------------------------------
    def records(self) -> Records:
        data = self.data
        return Records(rows=data.total_rows, considered=data.ctx.records, removed_for_null=data.removed_for_null,
                       max_suppressed=data.ctx.max_suppressed)

    def outcome(self) -> Outcome:
        cfg, data, node = self.config, self.data, self.node
        modification = self.modification()
        metrics = {name: cls().display(cls().value(node, self.stats, data.ctx), data.ctx)
                   for name, cls in METRICS.items()}
        # The table's WHD distortion (the sum over its cells; seed 002), beside its average per cell.
        cells = data.ctx.records * len(node)
        metrics["whd_distortion"] = float(WhdMetric().value(node, self.stats, data.ctx) * cells)
        metrics["modification_rate"] = modification.rate
        return Outcome(
            suppressed_rows=self.stats.suppressed_records,
            metrics=metrics,
            details={
                "transformation": self.plan(),
                "metric": cfg.search.metric,
                "strategy": self.strategy,
                **self._proof(),
                "nodes_evaluated": self.problem.nodes_evaluated,
                "lattice_size": data.lattice.size,
                "full_lattice_size": data.lattice.full_size,
                "hierarchy_heights": {h.attribute: h.height for h in data.hierarchies},
                "modification_rate_by_attribute": modification.by_attribute,
            },
        )

    def _proof(self) -> dict[str, Any]:
        """Whether the transformation is proven optimal, and if not, the lower bound on the optimum the search
        proved and the gap to it (relative to the transformation's value), and why the search stopped."""
        found, ctx, metric = self.found, self.data.ctx, self.metric
        if found is None:  # a plan re-applied: nothing was searched
            return {"optimal": None, "lower_bound": None, "optimality_gap": None, "stopped": None,
                    "strategy_reason": self.strategy_reason}
        value = metric.display(found.value, ctx) if found.value is not None else None
        bound = metric.display(found.lower_bound, ctx) if found.lower_bound is not None else None
        gap = None
        if value is not None and bound is not None:
            gap = 0.0 if found.optimal else ((value - bound) / value if value else 0.0)
        return {"optimal": found.optimal, "lower_bound": bound, "optimality_gap": gap, "stopped": found.stopped,
                "strategy_reason": self.strategy_reason}

    def modification(self) -> Modification:
        """The modification rate of the chosen node (seed 002), measured once by one statement over the frequency
        set (``measure_modification.sql.j2``): the share of the considered records' quasi-identifier cells whose
        released label differs from the value; a suppressed record's cells are all modified."""
        if not hasattr(self, "_modification"):
            levels = [{"coded": h.coded_table, "level": level,
                       "listed": h.modified_codes[level] if h.modified_codes else None}
                      for h, level in zip(self.data.hierarchies, self.node, strict=True)]
            row = self.adapter.run("measure_modification.sql.j2", hierarchies=levels,
                                   **self.evaluator.context(self.node, False, table=self.data.fset.table))[0]
            self._modification = Modification.of([h.attribute for h in self.data.hierarchies], int(row[0]),
                                                  int(row[1]), [int(v) for v in row[2:]])
        return self._modification

    def plan(self) -> dict[str, Any]:
        return dict(zip(self.config.quasi_identifiers, self.node, strict=True))

    def _search_section(self) -> dict[str, Any]:
        """Every lattice node's outcome (for the report and the history's node rows), computed once."""
        if not hasattr(self, "_search_info"):
            self._search_info = sections.search(self.problem, self.data, self.node, self.config.quasi_identifiers)
        return self._search_info

    def report_sections(self, result: Any, table: tuple[str, ...] | None,
                        class_info: dict[str, Any] | None) -> dict[str, Any]:
        cfg = self.config
        search_info = {**self._search_section(), "strategy": self.strategy, "seconds": result.seconds,
                       "statements": result.statements, **self._proof()}
        return {
            "transformation": result.transformation,
            "metric": cfg.search.metric,
            "attributes": [{**a, "modification_rate": result.details["modification_rate_by_attribute"][a["name"]]}
                           for a in sections.attributes(self.adapter, cfg, self.data, self.node, self.stats)],
            "models": report_data.models(self.adapter, cfg, table, class_info, result.verification),
            "search": search_info,
        }

    def history_nodes(self) -> list[tuple[str, str, float | None]]:
        return [(",".join(map(str, n["levels"])), n["state"], n["metric"])
                for n in self._search_section()["nodes"] or []]

    def validation(self) -> dict[str, Any]:
        data = self.data
        return {
            "distinct_combinations": data.fset.distinct,
            "hierarchy_heights": {h.attribute: h.height for h in data.hierarchies},
            "lattice_size": data.lattice.size,
            "search": self._search_plan(),
        }

    def _search_plan(self) -> dict[str, Any]:
        """What ``anonymize`` would do with this lattice: its strategy, or why it would refuse."""
        cfg, budget = self.config, self._budget()
        strategy, reason = self._choose_strategy()
        implicit = strategy in IMPLICIT_STRATEGIES
        plan = {"strategy": strategy, "reason": reason or None, "lattice_size": budget.size,
                "max_lattice_nodes": budget.limit,
                "estimated_memory_bytes": None if implicit else budget.estimated_bytes,
                "runs": budget.fits or implicit, "refusal": None if implicit else (budget.message or None)}
        if (budget.fits and strategy == "exhaustive" and budget.size > cfg.search.max_exhaustive_nodes
                and not cfg.search.force):
            plan["runs"] = False
            plan["refusal"] = (f"search.strategy: exhaustive search of {budget.size} nodes exceeds "
                               f"search.max_exhaustive_nodes ({cfg.search.max_exhaustive_nodes})")
        return plan

    def explain(self, node: dict[str, int] | None) -> str:
        return explaining.explain(self.session, self.data, node or {})

    @classmethod
    def summary_lines(cls, result: Any) -> list[str]:
        return [
            f"  k={result.k}, suppression limit {result.suppression_limit} records, "
            f"NULL handling {result.null_handling}, strategy {result.strategy}, metric {result.metric}",
            "  transformation: " + ", ".join(f"{a}={lvl}/{result.hierarchy_heights[a] - 1}"
                                             for a, lvl in result.transformation.items()),
            f"  suppressed rows: {result.suppressed_rows} ({result.suppressed_rows_mode})"
            + (f"; removed for NULL (basic match): {result.removed_for_null}" if result.removed_for_null else ""),
            "  metrics: " + ", ".join(f"{k}={v:.6g}" for k, v in result.metrics.items()),
            f"  nodes evaluated: {result.nodes_evaluated} of {result.lattice_size:,} ({result.statements} SQL "
            f"statements)",
            *cls._proof_lines(result),
        ]

    @staticmethod
    def _proof_lines(result: Any) -> list[str]:
        lines = [f"  {result.strategy_reason}"] if result.strategy_reason else []
        if result.optimal is False:
            bound = "unknown" if result.lower_bound is None else f"{result.lower_bound:.6g}"
            gap = "" if result.optimality_gap is None else f", gap at most {result.optimality_gap:.2%}"
            why = f": the search stopped because {result.stopped}" if result.stopped else ""
            lines.append(f"  NOT PROVEN OPTIMAL{why}; the optimum is at least {bound}{gap}")
        return lines
