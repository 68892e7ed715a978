"""The Python API; the CLI and ETL callers both use it.

>>> import sqlanon                                        # doctest: +SKIP
>>> result = sqlanon.anonymize("configs/demo.yaml")       # doctest: +SKIP
>>> result.transformation, result.verified                # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from .audit import CheckResult, check  # noqa: F401  (re-exported: sqlanon.check, sqlanon.api.check)
from .config import AnonymizeConfig, load_config
from .criteria import criteria_from_config
from .errors import ConfigError, EngineError, InputError, NoSolutionError, WriteConflict
from .evaluation import NodeEvaluator
from .history import DEFAULT_SCHEMA, RunRecorder
from .identifiers import Relation, display_name, parse_qualified_name
from .lattice import Node
from .lattice.budget import LatticeBudget, lattice_budget
from .lattice.search import STRATEGIES, SearchProblem
from .lattice.search.exhaustive import ExhaustiveStrategy
from .metrics import METRICS, metric_by_name
from .output import verify_output, write_output
from .output.target import check_output_identity, check_output_writable, require_existing, resolve
from .paths import check_writable_file
from .report.formats import report_format
from .session import PreparedData, Session, SmallerThanKError

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
    #: Id of the run in the history schema (None when history is disabled).
    run_id: str | None = None
    #: The report content (``--report``); not part of ``to_dict()``.
    report: dict[str, Any] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["report"]
        return out

    def transformation_document(self) -> dict[str, Any]:
        """What ``sqlanon apply --transformation FILE`` needs: the config and the chosen levels."""
        if self.report is None:
            raise ValueError("no report content was collected for this run")
        return {key: self.report[key] for key in ("format", "version", "sqlanon_version", "run_id", "config",
                                                   "base_dir", "transformation")} | {
            "format": "sqlanon-transformation"}


def _as_config(config: AnonymizeConfig | str | Path) -> AnonymizeConfig:
    return config if isinstance(config, AnonymizeConfig) else load_config(config)


def anonymize(
    config: AnonymizeConfig | str | Path,
    *,
    db: str | Any = None,
    dry_run: bool = False,
    progress: ProgressCallback | None = None,
    report: str | Path | Sequence[str | Path] | None = None,
) -> AnonymizationResult:
    """Find the optimal transformation, write the output table atomically and re-verify it.

    ``db``: a database URL that overrides the config's ``source.url``, or an open connection of the caller's
    (``duckdb.DuckDBPyConnection``, or a ``psycopg.Connection`` in autocommit mode). Such a connection is
    left open, with its settings restored and every table sqlanon created in it dropped; it lets a Python job
    anonymize a table it holds in an in-memory DuckDB database.

    ``report``: one or more paths (``.html`` / ``.json``) to write the run report to. The run is recorded in
    the history schema unless ``history.enabled`` is false. Raises ConfigError/InputError (exit 2),
    NoSolutionError (exit 3), EngineError (exit 1).
    """
    return _execute(_as_config(config), db=db, dry_run=dry_run, progress=progress, reports=_paths(report),
                    command="anonymize")


def _paths(report: str | Path | Sequence[str | Path] | None) -> list[Path]:
    if report is None:
        return []
    if isinstance(report, str | Path):
        return [Path(report)]
    return [Path(r) for r in report]


def _execute(
    cfg: AnonymizeConfig, *, db: str | Any, dry_run: bool, progress: ProgressCallback | None,
    reports: list[Path], command: str, fixed: dict[str, int] | None = None, on_violation: str = "fail",
) -> AnonymizationResult:
    from .report import write_report

    for path in reports:  # refuse an unknown format or an unwritable path before any work
        report_format(path)
        check_writable_file(path, "--report")
    started = time.perf_counter()
    with Session(cfg, db) as session:
        # An in-memory database vanishes with the run: recording history there would only cost time.
        record = cfg.history.enabled and not session.adapter.ephemeral
        recorder = RunRecorder.start(session.adapter, cfg, command) if record else None
        try:
            result = _run(session, cfg, started, dry_run, progress, fixed, on_violation,
                          want_report=bool(reports) or recorder is not None)
            if recorder is not None:
                result.run_id = recorder.run_id
                if result.report is not None:
                    result.report["run_id"] = recorder.run_id
                recorder.succeeded(result, result.report, _node_rows(result.report) if cfg.history.store_nodes else [])
        except BaseException as exc:
            if recorder is not None:
                recorder.failed(exc)
            raise
    for path in reports:
        write_report(result.report, path)
    return result


def _run(
    session: Session, cfg: AnonymizeConfig, started: float, dry_run: bool, progress: ProgressCallback | None,
    fixed: dict[str, int] | None, on_violation: str, want_report: bool,
) -> AnonymizationResult:
    adapter = session.adapter
    keys = _APPLY_KEYS if fixed is not None else {}
    output = _resolve_names(session, cfg, keys)
    target = output.parts
    try:
        data = session.prepare()
    except SmallerThanKError as exc:
        if fixed is None:
            raise
        # A batch with fewer records than k violates k under every transformation: for a scheduled apply that
        # is a batch to hold back (exit 3), not a configuration mistake.
        raise NoSolutionError(f"this batch violates k: {exc}; nothing was written") from None
    if not dry_run:  # a dry run writes nothing, so where it would write is not its concern
        try:
            check_output_writable(adapter, output, key=keys.get("output.table", "output.table"),
                                  if_exists=cfg.output.if_exists,
                                  replace_hint=keys.get("output.if_exists", "set output.if_exists: replace"))
            if cfg.output.csv is not None:
                if not adapter.SUPPORTS_CSV_SOURCE:
                    raise ConfigError(f"output.csv: the {adapter.name} engine cannot write client CSV files")
                check_writable_file(cfg.resolve(cfg.output.csv), "output.csv", create_folders=True)
        except ConfigError as exc:
            raise session.named(exc) from None
    metric = metric_by_name(cfg.search.metric)
    criteria = criteria_from_config(cfg)
    evaluator = NodeEvaluator(
        adapter, data.fset, cfg.privacy.k, loss_weights=metric.needs_loss_weights, criteria=criteria,
        class_statistics=metric.class_statistics, max_suppressed=data.ctx.max_suppressed,
    )
    fault_pending = [True]

    def tick(evaluated: int, best: Fraction | None) -> None:
        if fault_pending[0]:
            fault_pending[0] = False
            _fault_pause("SQLANON_FAULT_PAUSE_IN_SEARCH")
        if progress is not None:
            progress(evaluated, data.lattice.size,
                     None if best is None else metric.display(best, data.ctx), time.perf_counter() - started)
    monotone = all(c.is_monotonic_with_generalization() for c in criteria)
    core = None
    if not monotone:
        # k-anonymity alone: the plain class-size query over the same frequency set, without the models.
        core_fset = replace(data.fset, sensitive=(), population=None)
        core_evaluator = NodeEvaluator(adapter, core_fset, cfg.privacy.k, loss_weights=False,
                                       class_statistics=metric.class_statistics,
                                       max_suppressed=data.ctx.max_suppressed)
        core = SearchProblem(data.lattice, core_evaluator,
                             metric, data.ctx, monotone_criteria=True)
    problem = SearchProblem(data.lattice, evaluator, metric, data.ctx, monotone_criteria=monotone, progress=tick,
                            core=core)
    # A population's frequency set (delta-presence) is joined by every query and its size is not counted.
    scanned = data.fset.distinct if data.fset.population is None else None
    with adapter.node_query_settings(scanned, evaluator.judged):
        node = _apply_fixed(cfg, data, problem, fixed, on_violation) if fixed is not None else None
        strategy = "fixed" if node is not None else cfg.search.strategy
        if node is None:
            try:
                _budget(cfg, data).require()  # before anything sized by the lattice
            except ConfigError as exc:
                raise session.named(exc) from None
            node = _search(cfg, data, problem, criteria)
        stats = evaluator.evaluate_full(node)
    metrics = {
        name: cls().display(cls().value(node, stats, data.ctx), data.ctx) for name, cls in METRICS.items()
    }
    qis = cfg.quasi_identifiers
    verification = None
    output_rows = None
    histogram: list[list[int]] | None = None
    if not dry_run:
        verification, histogram = _write_and_verify(session, cfg, data, node, target, evaluator)
        output_rows = verification["rows"]
    result = AnonymizationResult(
        status="dry_run" if dry_run else ("ok" if verification and verification["verified"] else "unverified"),
        transformation=dict(zip(qis, node, strict=True)),
        rows=data.total_rows,
        rows_considered=data.ctx.records,
        removed_for_null=data.removed_for_null,
        suppressed_rows=stats.suppressed_records,
        suppressed_rows_mode=cfg.output.suppressed_rows,
        metrics=metrics,
        metric=cfg.search.metric,
        strategy=strategy,
        k=cfg.privacy.k,
        suppression_limit=data.ctx.max_suppressed,
        nodes_evaluated=problem.nodes_evaluated,
        lattice_size=data.lattice.size,
        full_lattice_size=data.lattice.full_size,
        statements=adapter.statements,
        seconds=round(time.perf_counter() - started, 4),
        source_table=data.source_display,
        # As written, but each part as the engine spells it (PostgreSQL folds unquoted names).
        output_table=None if dry_run else display_name(target[len(target) - len(parse_qualified_name(
            cfg.output.table)):]),
        output_rows=output_rows,
        verified=None if dry_run else bool(verification and verification["verified"]),
        verification=verification,
        database=adapter.display_url,
        dry_run=dry_run,
        null_handling=cfg.privacy.null_handling,
        hierarchy_heights={h.attribute: h.height for h in data.hierarchies},
    )
    if want_report:
        result.report = _report(session, cfg, data, node, stats, problem, result, None if dry_run else target,
                                histogram)
    return result


#: What apply's messages call the config keys it fills from its options.
_APPLY_KEYS = {"source.table": "--source", "output.table": "--output", "output.if_exists": "add --if-exists replace"}


def _resolve_names(session: Session, cfg: AnonymizeConfig, keys: dict[str, str]) -> Relation:
    """Every table name of the config as the database resolves it, before any work: the source (kept on the
    session for the run to read), and the output, refused when it is or would replace a relation the run reads
    (the source, a hierarchy table, a delta-presence population) or lies in the history schema
    (``output.target``)."""
    adapter = session.adapter
    read: list[tuple[str, Relation]] = []
    try:
        if cfg.source.table is not None:
            source_key = keys.get("source.table", "source.table")
            session.source_relation = require_existing(adapter, resolve(adapter, cfg.source.table), source_key)
            read.append((source_key, session.source_relation))
        for name, attr in cfg.attributes.items():
            if attr.hierarchy is not None and attr.hierarchy.table is not None:
                read.append((f"attributes.{name}.hierarchy.table", resolve(adapter, attr.hierarchy.table)))
        if cfg.privacy.delta_presence is not None:
            read.append(("privacy.delta_presence.population_table",
                         resolve(adapter, cfg.privacy.delta_presence.population_table)))
        output = resolve(adapter, cfg.output.table)
        check_output_identity(adapter, output, read, key=keys.get("output.table", "output.table"),
                              history_schema=cfg.history.schema)
    except ConfigError as exc:
        raise session.named(exc) from None
    return output


def _budget(cfg: AnonymizeConfig, data: PreparedData) -> LatticeBudget:
    return lattice_budget(cfg.quasi_identifiers, data.lattice.max_levels, cfg.search.max_lattice_nodes)


def _node_rows(report: dict[str, Any] | None) -> list[tuple[str, str, float | None]]:
    """The history's run_nodes rows (``history.store_nodes``): every lattice node the report lists."""
    listed = report["search"]["nodes"] if report is not None else None
    return [(",".join(map(str, n["levels"])), n["state"], n["metric"]) for n in listed or []]


def _search(cfg: AnonymizeConfig, data: PreparedData, problem: SearchProblem, criteria: list) -> Node:
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
            f"({found.nodes_evaluated} nodes evaluated); "
            + (_unreachable_models(data, criteria) or "raise max_level, the suppression limit, or lower k")
        )
    return found.node


def _unreachable_models(data: PreparedData, criteria: list) -> str | None:
    """The models that no class can ever meet, whatever the generalization: more distinct values required
    (distinct/entropy/recursive l-diversity's l, p-sensitivity's p) than the sensitive attribute has."""
    sizes = {s["column"]: s["domain_size"] for s in data.fset.sensitive}
    found = []
    for criterion in criteria:
        needed = getattr(criterion, "p", None) if criterion.kind == "p_sensitivity" else getattr(criterion, "l", None)
        name = criterion.attribute_name
        if needed is not None and name in sizes and needed > sizes[name]:
            parameter = "p" if criterion.kind == "p_sensitivity" else "l"
            found.append(f"attributes.{name}: {criterion.kind} needs {parameter}={needed} distinct values in "
                         f"every class, but {name!r} has only {sizes[name]} distinct values in the whole table")
    if not found:
        return None
    return "; ".join(found) + f"; lower {'them' if len(found) > 1 else 'it'} to at most the number of values"


def _apply_fixed(cfg: AnonymizeConfig, data: PreparedData, problem: SearchProblem, fixed: dict[str, int],
                 on_violation: str) -> Node | None:
    """The given transformation if this data satisfies the models with it; None to search again."""
    qis = cfg.quasi_identifiers
    if sorted(fixed) != sorted(qis):
        raise ConfigError(
            f"transformation: its attributes ({', '.join(sorted(fixed))}) are not the config's quasi-identifiers "
            f"({', '.join(sorted(qis))})"
        )
    bad = {q: fixed[q] for q in qis if type(fixed[q]) is not int}
    if bad:
        q, v = next(iter(bad.items()))
        raise ConfigError(f"transformation.{q}: a level must be an integer (got {v!r})")
    node = tuple(fixed[q] for q in qis)
    if not data.lattice.contains(node):
        limits = ", ".join(f"{q}<={m}" for q, m in zip(qis, data.lattice.max_levels, strict=True))
        raise ConfigError(f"transformation: {dict(zip(qis, node, strict=True))} is outside the lattice ({limits})")
    stats = problem.evaluate(node)
    if stats.suppressed_records <= data.ctx.max_suppressed:
        return node
    if on_violation == "search":
        return None
    raise NoSolutionError(
        f"this batch violates the privacy models under the transformation "
        f"{', '.join(f'{q}={lvl}' for q, lvl in zip(qis, node, strict=True))}: {stats.suppressed_records} of "
        f"{data.ctx.records} records are in classes failing k={cfg.privacy.k}"
        + (" or a privacy model" if problem.evaluator.models else "")
        + f", above the suppression limit {data.ctx.max_suppressed}; nothing was written "
        f"(use --on-violation search to search for a new transformation)"
    )


def _fault_pause(variable: str) -> None:
    # Test hook for the fault tests: SQLANON_FAULT_PAUSE_IN_SEARCH=<seconds> holds the run after the first
    # node evaluation, so that a test can kill it or drop its connection mid-search (the write-back has
    # its own, SQLANON_FAULT_PAUSE_IN_WRITE).
    pause = os.environ.get(variable)
    if pause:
        time.sleep(float(pause))


def _report(session: Session, cfg: AnonymizeConfig, data: PreparedData, node: Node, stats: Any,
            problem: SearchProblem, result: AnonymizationResult, table: tuple[str, ...] | None,
            histogram: list[list[int]] | None) -> dict[str, Any]:
    from . import __version__
    from .history import public_config
    from .report import data as report_data

    adapter = session.adapter
    qis = cfg.quasi_identifiers
    class_info = report_data.classes(histogram) if histogram is not None else None
    search_info = report_data.search(problem, data, node, qis, result.seconds, result.statements)
    search_info["strategy"] = result.strategy
    return {
        "format": "sqlanon-report", "version": 1, "sqlanon_version": __version__, "run_id": None,
        "generated_at": report_data.now(), "status": result.status, "database": result.database,
        "source_table": result.source_table, "output_table": result.output_table,
        "config": public_config(cfg), "base_dir": str(cfg.base_dir.resolve()),
        "transformation": result.transformation, "metric": result.metric, "metrics": result.metrics,
        "attributes": report_data.attributes(adapter, cfg, data, node, stats),
        "rows": {"total": result.rows, "considered": result.rows_considered,
                 "removed_for_null": result.removed_for_null, "suppressed": result.suppressed_rows,
                 "suppression_limit": result.suppression_limit,
                 "suppressed_rows_mode": result.suppressed_rows_mode, "output": result.output_rows},
        "classes": class_info,
        "models": report_data.models(adapter, cfg, table, class_info, result.verification),
        "search": search_info,
        "verification": result.verification,
    }


def apply(
    transformation: str | Path | dict[str, Any] | None = None,
    *,
    run: str | None = None,
    source: str,
    output: str,
    db: str | Any = None,
    if_exists: str | None = None,
    on_violation: str = "fail",
    dry_run: bool = False,
    history_schema: str | None = None,
    progress: ProgressCallback | None = None,
    report: str | Path | Sequence[str | Path] | None = None,
) -> AnonymizationResult:
    """Apply a previously chosen transformation to a new batch (scheduled ETL), re-verifying every model.

    The transformation comes from a run in the history (``run``: id or unique prefix, read from ``db``) or from
    a file/dict (``transformation``: the document of ``anonymize --save-transformation`` or a JSON report).
    When the batch violates k or a model under it, NoSolutionError (exit 3) is raised and nothing is written,
    unless ``on_violation="search"``: then the optimal transformation for this batch is searched for.
    """
    if (transformation is None) == (run is None):
        raise ConfigError("apply: give exactly one of --run ID and --transformation FILE")
    if on_violation not in ("fail", "search"):
        raise ConfigError(f"--on-violation: expected fail or search (got {on_violation!r})")
    if run is not None:
        if db is None:
            raise ConfigError("--run: give --db URL, the database holding the run history")
        document = _document_from_run(db, run, history_schema or DEFAULT_SCHEMA)
        where = f"run {run}"
    else:
        document, where = _document_from_file(transformation)
    cfg = _config_from_document(document, where, source=source, output=output, if_exists=if_exists, db=db)
    return _execute(cfg, db=db, dry_run=dry_run, progress=progress, reports=_paths(report), command="apply",
                    fixed=document["transformation"], on_violation=on_violation)


def _document_from_run(db: str | Any, run: str, schema: str) -> dict[str, Any]:
    from .engines import adapter_for
    from .history import get_run

    adapter = adapter_for(db, Path.cwd(), create=False)
    adapter.connect()
    try:
        record = get_run(adapter, schema, run)
    finally:
        adapter.close()
    if record["status"] not in ("succeeded", "dry_run") or not record.get("transformation"):
        raise InputError(f"--run: run {record['run_id']} has status {record['status']}; only a successful run "
                         f"has a transformation to apply")
    config_file = record.get("config_file")
    return {"config": record["config"], "transformation": record["transformation"],
            "base_dir": str(Path(config_file).parent) if config_file else None}


def _document_from_file(transformation: str | Path | dict[str, Any]) -> tuple[dict[str, Any], str]:
    if isinstance(transformation, dict):
        return transformation, "transformation"
    path = Path(transformation)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"--transformation: cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--transformation: {path} is not JSON ({exc})") from None
    if not isinstance(document, dict):
        raise ConfigError(f"--transformation: {path}: expected a JSON object")
    return document, str(path)


def _config_from_document(document: dict[str, Any], where: str, *, source: str, output: str,
                          if_exists: str | None, db: str | Any) -> AnonymizeConfig:
    from pydantic import ValidationError

    from .config.loading import format_errors

    missing = [key for key in ("config", "transformation") if not isinstance(document.get(key), dict)]
    if missing:
        raise ConfigError(f"{where}: not a sqlanon transformation (missing {', '.join(missing)}); use the file "
                          f"written by `sqlanon anonymize --save-transformation` or a --report .json")
    data = json.loads(json.dumps(document["config"]))  # a deep copy
    src = data.setdefault("source", {})
    src.pop("csv", None)
    src.pop("delimiter", None)
    src["table"] = source
    if db is None and "***" in str(src.get("url", "")):
        raise ConfigError(f"{where}: the recorded database URL has its password removed; give --db URL")
    data.setdefault("output", {})["table"] = output
    if if_exists is not None:
        data["output"]["if_exists"] = if_exists
    data["output"].pop("csv", None)  # a CSV export path belongs to the original run, not to this batch
    base_dir = document.get("base_dir")
    try:
        return AnonymizeConfig.model_validate(
            {**data, "base_dir": Path(base_dir) if base_dir else Path.cwd(), "source_file": where}
        )
    except ValidationError as exc:  # recorded configs are already substituted: no ${ENV} expansion here
        raise ConfigError(format_errors(where, exc, data)) from None


def _write_and_verify(
    session: Session, cfg: AnonymizeConfig, data: PreparedData, node: Node, target: tuple[str, ...],
    evaluator: NodeEvaluator,
) -> tuple[dict[str, Any], list[list[int]]]:
    """Write, then verify the written table; returns the verification and its class-size histogram."""
    adapter = session.adapter
    qis = cfg.quasi_identifiers
    failing = f"{session.prefix}fail"
    session.temporary.append(failing)
    adapter.run("find_failing_classes.sql.j2", failing=failing, **evaluator.context(node, False))
    existed = adapter.table_exists(target)
    try:
        _write(session, cfg, data, node, target, failing)
    except EngineError as exc:
        visible = adapter.table_exists(target)
        if existed or not (visible or isinstance(exc, WriteConflict)):
            raise
        # Another run created the same table between our check and our rename (PostgreSQL reports a duplicate
        # name once it committed; DuckDB a write-write conflict, possibly before it committed); ours was rolled
        # back whole.
        now = " (it already exists now)" if visible else ""
        raise session.named(ConfigError(
            f"output.table: table {display_name(target)} was created by another run at the same time{now}; "
            f"this run wrote nothing ({exc})"
        )) from None
    checked = verify_output(
        adapter, table=target, qis=qis, k=cfg.privacy.k, considered=data.ctx.records,
        max_suppressed=data.ctx.max_suppressed, mask=cfg.output.suppressed_rows == "mask",
    )
    verification = checked.to_dict()
    if evaluator.models:
        verification.update(_verify_models(session, cfg, data, node, target, evaluator))
        verification["verified"] = verification["verified"] and verification["models_verified"]
    if cfg.output.csv is not None:
        export_csv(session, target, cfg.resolve(cfg.output.csv))
    return verification, checked.size_histogram


def _write(session: Session, cfg: AnonymizeConfig, data: PreparedData, node: Node, target: tuple[str, ...],
           failing: str) -> None:
    write_output(
        session.adapter,
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
    stats = evaluator.stats_from_row(node, adapter.run("evaluate_node.sql.j2", **context)[0], False)
    failed_records, failed_classes = stats.suppressed_records, stats.suppressed_classes
    # No written class may fail, in either mode. Masked rows ('*' in every QI) are no label of the chosen
    # levels, so they drop out of the verification set (verify_output counts them against the limit); only
    # where every chosen level has a '*' label (the top) do they form a class, and then it is a released one.
    ok = failed_records == 0
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


def validate(config: AnonymizeConfig | str | Path, *, db: str | Any = None) -> dict[str, Any]:
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
            "search": _search_plan(cfg, data),
            "suppression_limit": data.ctx.max_suppressed,
            "database": session.adapter.display_url,
        }


def _search_plan(cfg: AnonymizeConfig, data: PreparedData) -> dict[str, Any]:
    """What ``anonymize`` would do with this lattice: its strategy, or why it would refuse."""
    budget = _budget(cfg, data)
    plan = {"strategy": cfg.search.strategy, "lattice_size": budget.size,
            "max_lattice_nodes": budget.limit, "estimated_memory_bytes": budget.estimated_bytes,
            "runs": budget.fits, "refusal": budget.message or None}
    if budget.fits and cfg.search.strategy == "exhaustive" and budget.size > cfg.search.max_exhaustive_nodes \
            and not cfg.search.force:
        plan["runs"] = False
        plan["refusal"] = (f"search.strategy: exhaustive search of {budget.size} nodes exceeds "
                           f"search.max_exhaustive_nodes ({cfg.search.max_exhaustive_nodes})")
    return plan


def explain(config: AnonymizeConfig | str | Path, *, node: dict[str, int] | None = None,
            db: str | Any = None) -> str:
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
        # Run the node's query once: it makes any table a run makes on first use (the code table), so every
        # table the printed query names was there, and the query is known to run.
        evaluator.evaluate(levels)
        sql, params = evaluator.sql(levels)
        shown = ", ".join(f"{q}={lvl}" for q, lvl in zip(qis, levels, strict=True))
        # Bind parameters are written in as literals, so the statements run as printed once the run's
        # temporary tables exist; the header names each of them (they were dropped when the session ended).
        statements = [session.adapter.display_sql(fs_sql, fs_params).rstrip() + ";",
                      session.adapter.display_sql(sql, params).rstrip() + ";"]
        fset = data.fset
        known = {
            session.prefix + "src": f"the source, {data.source_display}, read into a temporary table",
            fset.table: "the frequency set: the first statement below creates it",
            fset.codes_table: "the frequency set's counts and codes alone (a copy without the Loss weights)",
            fset.code_weights: "each code's Loss weight",
            **{h.coded_table: f"the hierarchy of {h.attribute}, integer-coded: value, g<level> (codes), "
                              f"w<level> (Loss weights)" for h in data.hierarchies},
            **{h.values_table: f"the hierarchy of {h.attribute} as written: value, l<level> (labels)"
               for h in data.hierarchies if h.values_table != h.coded_table},
        }
        import re

        names = sorted(set(re.findall(re.escape(session.prefix) + r"\w+", "\n".join(statements))))
        width = max((len(n) for n in names), default=0) + 2
        header = [
            f"-- sqlanon explain {cfg.source_file}: node {shown}",
            f"-- engine: {session.adapter.name}",
            "-- Bind parameters are written in place as SQL literals.",
        ]
        if names:
            header += [
                f"-- The tables named {session.prefix}* are the run's TEMPORARY tables: they existed only in",
                "-- sqlanon's session while it ran: explain built them, ran the node query, then dropped them.",
                "-- To run the statements below, create them first in one session, or put your own tables in",
                "-- their place:",
                *(f"--   {name.ljust(width)}{known.get(name) or 'a temporary table derived from the frequency set'}"
                  for name in names),
            ]
        return "\n".join([
            *header, "", "-- frequency set (built once per run)", statements[0], "", f"-- node {shown}",
            statements[1], "",
        ])
