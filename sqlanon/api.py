"""The Python API; the CLI and ETL callers both use it.

>>> import sqlanon                                        # doctest: +SKIP
>>> result = sqlanon.anonymize("configs/demo.yaml")       # doctest: +SKIP
>>> result.transformation, result.verified                # doctest: +SKIP
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .audit import CheckResult, check  # noqa: F401  (re-exported: sqlanon.check, sqlanon.api.check)
from .config import AnonymizeConfig, load_config
from .criteria import criteria_from_config
from .errors import ConfigError, NoSolutionError
from .evaluation import NodeEvaluator
from .identifiers import display_name, parse_qualified_name
from .lattice import Node
from .lattice.search import STRATEGIES, SearchProblem
from .lattice.search.exhaustive import ExhaustiveStrategy
from .metrics import METRICS, metric_by_name
from .output import verify_output, write_output
from .session import PreparedData, Session

ProgressCallback = Callable[[int, int, float | None, float], None]


@dataclass
class AnonymizationResult:
    """What one anonymization run did; ``to_dict()`` is the CLI's ``--json`` object."""

    status: str
    transformation: dict[str, int]
    rows: int
    rows_considered: int
    removed_for_null: int
    suppressed_rows: int
    suppressed_rows_mode: str
    metrics: dict[str, float]
    metric: str
    strategy: str
    k: int
    suppression_limit: int
    nodes_evaluated: int
    lattice_size: int
    full_lattice_size: int
    statements: int
    seconds: float
    source_table: str
    output_table: str | None
    output_rows: int | None
    verified: bool | None
    verification: dict[str, Any] | None
    database: str
    dry_run: bool
    null_handling: str
    hierarchy_heights: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _as_config(config: AnonymizeConfig | str | Path) -> AnonymizeConfig:
    return config if isinstance(config, AnonymizeConfig) else load_config(config)


def anonymize(
    config: AnonymizeConfig | str | Path,
    *,
    db: str | None = None,
    dry_run: bool = False,
    progress: ProgressCallback | None = None,
) -> AnonymizationResult:
    """Find the optimal transformation, write the output table atomically and re-verify it.

    Raises ConfigError/InputError (exit 2), NoSolutionError (exit 3), EngineError (exit 1).
    """
    cfg = _as_config(config)
    started = time.perf_counter()
    target = parse_qualified_name(cfg.output.table)
    with Session(cfg, db) as session:
        adapter = session.adapter
        data = session.prepare()
        if target == data.source:
            raise session.named(
                ConfigError(f"output.table: the output must not be the source table ({display_name(target)})")
            )
        if adapter.table_exists(target) and cfg.output.if_exists == "fail":
            raise session.named(ConfigError(
                f"output.table: table {display_name(target)} already exists in {adapter.display_url} "
                f"(set output.if_exists: replace to overwrite it)"
            ))
        metric = metric_by_name(cfg.search.metric)
        criteria = criteria_from_config(cfg)
        evaluator = NodeEvaluator(
            adapter, data.fset, cfg.privacy.k, loss_weights=metric.needs_loss_weights, criteria=criteria
        )
        tick = None
        if progress is not None:
            def tick(evaluated: int, best: Fraction | None) -> None:
                progress(evaluated, data.lattice.size,
                         None if best is None else metric.display(best, data.ctx), time.perf_counter() - started)
        problem = SearchProblem(
            data.lattice, evaluator, metric, data.ctx,
            monotone_criteria=all(c.is_monotonic_with_generalization() for c in criteria), progress=tick,
        )
        if cfg.search.strategy == "exhaustive":
            strategy = ExhaustiveStrategy(cfg.search.max_exhaustive_nodes, cfg.search.force)
        else:
            strategy = STRATEGIES[cfg.search.strategy]()
        found = strategy.search(problem)
        if found.node is None:
            models = ", ".join(c.kind for c in criteria)
            raise NoSolutionError(
                f"no transformation within the generalization limits keeps suppression within "
                f"{data.ctx.max_suppressed} of {data.ctx.records} records for k={cfg.privacy.k} ({models}) "
                f"({found.nodes_evaluated} nodes evaluated); raise max_level, the suppression limit, or lower k"
            )
        node = found.node
        stats = evaluator.evaluate_full(node)
        metrics = {
            name: cls().display(cls().value(node, stats, data.ctx), data.ctx) for name, cls in METRICS.items()
        }
        qis = cfg.quasi_identifiers
        verification = None
        output_rows = None
        if not dry_run:
            verification = _write_and_verify(session, cfg, data, node, target, evaluator)
            output_rows = verification["rows"]
        return AnonymizationResult(
            status="dry_run" if dry_run else ("ok" if verification and verification["verified"] else "unverified"),
            transformation=dict(zip(qis, node, strict=True)),
            rows=data.total_rows,
            rows_considered=data.ctx.records,
            removed_for_null=data.removed_for_null,
            suppressed_rows=stats.suppressed_records,
            suppressed_rows_mode=cfg.output.suppressed_rows,
            metrics=metrics,
            metric=cfg.search.metric,
            strategy=cfg.search.strategy,
            k=cfg.privacy.k,
            suppression_limit=data.ctx.max_suppressed,
            nodes_evaluated=found.nodes_evaluated,
            lattice_size=data.lattice.size,
            full_lattice_size=data.lattice.full_size,
            statements=adapter.statements,
            seconds=round(time.perf_counter() - started, 4),
            source_table=data.source_display,
            output_table=None if dry_run else display_name(target),
            output_rows=output_rows,
            verified=None if dry_run else bool(verification and verification["verified"]),
            verification=verification,
            database=adapter.display_url,
            dry_run=dry_run,
            null_handling=cfg.privacy.null_handling,
            hierarchy_heights={h.attribute: h.height for h in data.hierarchies},
        )


def _write_and_verify(
    session: Session, cfg: AnonymizeConfig, data: PreparedData, node: Node, target: tuple[str, ...],
    evaluator: NodeEvaluator,
) -> dict[str, Any]:
    adapter = session.adapter
    qis = cfg.quasi_identifiers
    failing = f"{session.prefix}fail"
    session.temporary.append(failing)
    adapter.run("find_failing_classes.sql.j2", failing=failing, **evaluator.context(node, False))
    write_output(
        adapter,
        target=target,
        replace=cfg.output.if_exists == "replace",
        seed=cfg.output.seed,
        source=data.source,
        columns=session.output_columns(data.columns),
        qis=[
            {"column": h.attribute, "coded": h.coded_table, "level": level}
            for h, level in zip(data.hierarchies, node, strict=True)
        ],
        failing=failing,
        mask=cfg.output.suppressed_rows == "mask",
        basic=cfg.privacy.null_handling == "basic",
    )
    verification = verify_output(
        adapter, table=target, qis=qis, k=cfg.privacy.k, considered=data.ctx.records,
        max_suppressed=data.ctx.max_suppressed, mask=cfg.output.suppressed_rows == "mask",
    ).to_dict()
    if evaluator.models:
        verification.update(_verify_models(session, cfg, data, node, target, evaluator))
        verification["verified"] = verification["verified"] and verification["models_verified"]
    if cfg.output.csv is not None:
        export_csv(session, target, cfg.resolve(cfg.output.csv))
    return verification


def _verify_models(
    session: Session, cfg: AnonymizeConfig, data: PreparedData, node: Node, target: tuple[str, ...],
    evaluator: NodeEvaluator,
) -> dict[str, Any]:
    """Re-check every privacy model on the written table (read back and mapped to hierarchy codes)."""
    adapter = session.adapter
    table = f"{session.prefix}vfs"
    session.temporary.append(table)
    adapter.run(
        "build_verification_set.sql.j2", table=table, output=target,
        qis=[{"column": h.attribute, "coded": h.coded_table, "level": level}
             for h, level in zip(data.hierarchies, node, strict=True)],
        sensitive=list(data.fset.sensitive),
    )
    context = {**evaluator.context(node, False), "table": table}
    row = adapter.run("evaluate_node.sql.j2", **context)[0]
    failed_classes, failed_records = int(row[2]), int(row[1])
    mask = cfg.output.suppressed_rows == "mask"
    # Removed: nothing written may fail. Masked: only the all-'*' class may (when every QI is at its top).
    ok = failed_records == 0 if not mask else failed_records <= data.ctx.max_suppressed
    return {
        "models_verified": ok,
        "models_checked": [m["kind"] for m in evaluator.models],
        "classes_failing_models": failed_classes,
    }


def export_csv(session: Session, table: tuple[str, ...], path: Path) -> None:
    """Export via a temporary file and rename, so a reader never sees half a file."""
    adapter = session.adapter
    if not adapter.SUPPORTS_CSV_SOURCE:
        raise ConfigError(f"output.csv: the {adapter.name} engine cannot write client CSV files")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".sqlanon-", suffix=".csv", dir=path.parent)
    os.close(fd)
    try:
        adapter.run("export_csv.sql.j2", table=table, path=tmp, delimiter=";")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def validate(config: AnonymizeConfig | str | Path, *, db: str | None = None) -> dict[str, Any]:
    """Validate the config and every hierarchy against the data, without searching."""
    cfg = _as_config(config)
    with Session(cfg, db) as session:
        data = session.prepare()
        return {
            "status": "valid",
            "source_table": data.source_display,
            "rows": data.total_rows,
            "rows_considered": data.ctx.records,
            "removed_for_null": data.removed_for_null,
            "distinct_combinations": data.fset.distinct,
            "hierarchy_heights": {h.attribute: h.height for h in data.hierarchies},
            "lattice_size": data.lattice.size,
            "suppression_limit": data.ctx.max_suppressed,
            "database": session.adapter.display_url,
        }


def explain(config: AnonymizeConfig | str | Path, *, node: dict[str, int] | None = None,
            db: str | None = None) -> str:
    """The SQL that builds the frequency set and evaluates one node (default: the bottom node)."""
    cfg = _as_config(config)
    qis = cfg.quasi_identifiers
    node = node or {}
    unknown = [a for a in node if a not in qis]
    if unknown:
        raise ConfigError(f"--node: {', '.join(unknown)} is not a quasi-identifier (they are: {', '.join(qis)})")
    with Session(cfg, db) as session:
        data = session.prepare()
        levels = tuple(node.get(q, 0) for q in qis)
        if not data.lattice.contains(levels):
            limits = ", ".join(f"{q}<={m}" for q, m in zip(qis, data.lattice.max_levels, strict=True))
            raise ConfigError(f"--node: {levels} is outside the lattice ({limits})")
        metric = metric_by_name(cfg.search.metric)
        evaluator = NodeEvaluator(session.adapter, data.fset, cfg.privacy.k, metric.needs_loss_weights,
                                  criteria_from_config(cfg))
        fs_sql, fs_params = session.adapter.render(
            "build_frequency_set.sql.j2", table=data.fset.table, source=data.source,
            qis=[{"column": h.attribute, "coded": h.coded_table, "height": h.height} for h in data.hierarchies],
            basic=cfg.privacy.null_handling == "basic", sensitive=list(data.fset.sensitive),
        )
        sql, params = evaluator.sql(levels)
        shown = ", ".join(f"{q}={lvl}" for q, lvl in zip(qis, levels, strict=True))
        return (
            f"-- engine: {session.adapter.name}\n-- frequency set (built once per run)\n"
            f"{session.adapter.display_sql(fs_sql)}-- bind parameters: {fs_params}\n\n-- node {shown}\n"
            f"{session.adapter.display_sql(sql)}-- bind parameters: {params}\n"
        )
