"""The run lifecycle every anonymization method shares, in one straight line:

    config -> session -> names resolved -> method.prepare -> method.solve -> write -> verify -> report -> history

The method (``sqlanon/methods/``) is the only part that differs; the names of the tables a run reads and writes,
the atomic write with random row order, the independent verification of the written table, the report and the
run record are the same for all.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .config import AnonymizeConfig
from .engines.base import EngineAdapter
from .errors import ConfigError, EngineError, NoSolutionError, WriteConflict
from .history import RunRecorder
from .identifiers import Relation, display_name, parse_qualified_name
from .methods import method_class
from .methods.base import AnonymizationMethod, ProgressCallback, Release
from .output import settle_interrupted_publication, verify_output, write_output
from .output.target import check_output_identity, check_output_writable, require_existing, resolve
from .paths import check_writable_file, replaced_atomically
from .report.formats import report_format
from .result import AnonymizationResult
from .session import Session, SmallerThanKError

#: What apply's messages call the config keys it fills from its options.
APPLY_KEYS = {"source.table": "--source", "output.table": "--output", "output.if_exists": "add --if-exists replace"}


def perform_run(
    cfg: AnonymizeConfig, *, db: str | Any, dry_run: bool, progress: ProgressCallback | None, reports: list[Path],
    command: str, plan: dict[str, Any] | None = None, on_violation: str = "fail",
) -> AnonymizationResult:
    """One run (of ``anonymize`` or ``apply``, recorded in the run history): ``plan`` (``apply``) re-applies a
    method's reusable plan instead of searching."""
    from .report import write_report

    for path in reports:  # refuse an unknown format or an unwritable path before any work
        report_format(path)
        check_writable_file(path, "--report")
    method_cls = method_class(cfg.method)
    started = time.perf_counter()
    with Session(cfg, db) as session:
        # An in-memory database vanishes with the run: recording history there would only cost time.
        record = cfg.history.enabled and not session.adapter.ephemeral
        recorder = RunRecorder.start(session.adapter, cfg, command) if record else None
        try:
            method = method_cls(session)
            result = _perform_steps(session, method, started, dry_run, progress, plan, on_violation,
                                    want_report=bool(reports) or recorder is not None)
            if recorder is not None:
                result.run_id = recorder.run_id
                if result.report is not None:
                    result.report["run_id"] = recorder.run_id
                recorder.succeeded(result, result.report,
                                   method.history_nodes() if cfg.history.store_nodes else [])
        except BaseException as exc:
            if recorder is not None:
                recorder.failed(exc)
            raise
    for path in reports:
        write_report(result.report, path)
    return result


def _perform_steps(
    session: Session, method: AnonymizationMethod, started: float, dry_run: bool,
    progress: ProgressCallback | None, plan: dict[str, Any] | None, on_violation: str, want_report: bool,
) -> AnonymizationResult:
    """The steps of a run inside its session: names resolved, the method's prepare and solve, the write and its
    verification (unless ``dry_run``), the result and its report."""
    adapter = session.adapter
    keys = APPLY_KEYS if plan is not None else {}
    output = resolve_names(session, method, keys, dry_run)
    try:
        method.prepare()
    except SmallerThanKError as exc:
        if plan is None:
            raise session.named(exc) from None
        # A batch with fewer records than k violates k under every transformation: for a scheduled apply that
        # is a batch to hold back (exit 3), not a configuration mistake.
        raise NoSolutionError(f"this batch violates k: {exc}; nothing was written") from None
    except ConfigError as exc:
        raise session.named(exc) from None
    cfg = session.config
    if output is not None:  # a dry run writes nothing, so where it would write is not its concern
        try:
            settle_interrupted_publication(adapter, output.parts, key=keys.get("output.table", "output.table"))
            check_output_writable(adapter, output, key=keys.get("output.table", "output.table"),
                                  if_exists=cfg.output.if_exists,
                                  replace_hint=keys.get("output.if_exists", "set output.if_exists: replace"))
            if cfg.output.csv is not None:
                if not adapter.SUPPORTS_CSV_SOURCE:
                    raise ConfigError(f"output.csv: the {adapter.name} engine cannot write client CSV files")
                check_writable_file(cfg.resolve(cfg.output.csv), "output.csv", create_folders=True)
        except ConfigError as exc:
            raise session.named(exc) from None
    method.solve(plan, on_violation, progress, started)
    target = None if output is None else output.parts
    verification = None
    histogram: list[list[int]] | None = None
    if target is not None:
        verification, histogram = write_and_verify(session, method, target)
    records, outcome = method.records(), method.outcome()
    result = AnonymizationResult(
        status="dry_run" if dry_run else ("ok" if verification and verification["verified"] else "unverified"),
        method=method.name,
        rows=records.rows,
        rows_considered=records.considered,
        removed_for_null=records.removed_for_null,
        suppressed_rows=outcome.suppressed_rows,
        suppressed_rows_mode=cfg.output.suppressed_rows,
        metrics=outcome.metrics,
        k=cfg.privacy.k,
        suppression_limit=records.max_suppressed,
        statements=adapter.statements,
        seconds=round(time.perf_counter() - started, 4),
        source_table=session.source_shown,
        # As written, but each part as the engine spells it (PostgreSQL folds unquoted names).
        output_table=None if target is None else display_name(
            target[len(target) - len(parse_qualified_name(cfg.output.table)):]),
        output_rows=None if verification is None else verification["rows"],
        verified=None if dry_run else bool(verification and verification["verified"]),
        verification=verification,
        database=adapter.display_url,
        dry_run=dry_run,
        null_handling=cfg.privacy.null_handling,
        details=outcome.details,
        plan=method.plan(),
    )
    if want_report:
        result.report = _report(session, method, result, target, histogram)
    return result


def resolve_names(session: Session, method: AnonymizationMethod, keys: dict[str, str],
                  dry_run: bool = False) -> Relation | None:
    """Every table name of the config as the database resolves it, before any work: the source (kept on the
    session for the run to read), and the output, refused when it is or would replace a relation the run reads
    (the source, the method's own tables, what views among them read) or lies in the history schema
    (``output.target``). A dry run writes nothing: its output is not resolved (None), as it is not checked
    for being writable either, which saves a small run a few catalog queries."""
    cfg, adapter = session.config, session.adapter
    read: list[tuple[str, Relation]] = []
    try:
        if cfg.source.table is not None:
            source_key = keys.get("source.table", method.SOURCE_KEY)
            session.source_relation = require_existing(adapter, resolve(adapter, cfg.source.table), source_key)
            read.append((source_key, session.source_relation))
        if dry_run:
            return None
        read.extend((key, resolve(adapter, name)) for key, name in method.tables_read())
        output = resolve(adapter, cfg.output.table)
        check_output_identity(adapter, output, read, key=keys.get("output.table", "output.table"),
                              history_schema=cfg.history.schema)
    except ConfigError as exc:
        raise session.named(exc) from None
    return output


def write_and_verify(session: Session, method: AnonymizationMethod,
                     target: tuple[str, ...]) -> tuple[dict[str, Any], list[list[int]] | None]:
    """Write the release atomically and verify the written table (in the publishing transaction where there is
    one: ``output/writer.py``); returns the verification and its class-size histogram."""
    cfg, adapter = session.config, session.adapter
    release = method.release()
    existed = adapter.table_exists(target)
    try:
        checked = write_output(adapter, target=target, replace=cfg.output.if_exists == "replace",
                               seed=cfg.output.seed, template=release.template,
                               check=lambda table: _verify(adapter, method, release, table), **release.context)
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
    assert checked is not None
    if cfg.output.csv is not None:
        export_csv(session, target, cfg.resolve(cfg.output.csv))
    method.export(target)
    return checked


def _verify(adapter: EngineAdapter, method: AnonymizationMethod, release: Release,
            table: tuple[str, ...]) -> tuple[dict[str, Any], list[list[int]] | None]:
    """The written ``table`` checked from its own contents: its classes (where the method releases classes) and
    the method's models."""
    if release.classes:
        checked = verify_output(
            adapter, table=table, qis=release.qis, k=release.k, considered=release.considered,
            max_suppressed=release.max_suppressed, mask=release.mask, starred=release.starred,
        )
        verification, histogram = checked.to_dict(), checked.size_histogram
        models = method.verify_models(table)
    else:  # the method's guarantee is not one of classes: its own check is the whole verification
        models = method.verify_models(table)
        assert models is not None
        rows = int(adapter.run("count_table.sql.j2", table=table)[0][0])
        verification, histogram = {"verified": True, "rows": rows, "suppressed_rows": 0, "reason": "ok"}, None
    if models is not None:
        verification.update(models)
        verification["verified"] = verification["verified"] and models["models_verified"]
    return verification, histogram


def export_csv(session: Session, table: tuple[str, ...], path: Path) -> None:
    """Export via a temporary file and rename, so a reader never sees half a file."""
    adapter = session.adapter
    if not adapter.SUPPORTS_CSV_SOURCE:
        raise ConfigError(f"output.csv: the {adapter.name} engine cannot write client CSV files")
    with replaced_atomically(path, ".csv") as tmp:
        adapter.run("export_csv.sql.j2", table=table, path=tmp, delimiter=";")


def _report(session: Session, method: AnonymizationMethod, result: AnonymizationResult,
            table: tuple[str, ...] | None, histogram: list[list[int]] | None) -> dict[str, Any]:
    from . import __version__
    from .history import public_config
    from .report import data as report_data

    cfg = session.config
    class_info = report_data.classes(histogram) if histogram is not None else None
    report: dict[str, Any] = {
        "format": "sqlanon-report", "version": 1, "sqlanon_version": __version__, "run_id": None,
        "generated_at": report_data.now(), "status": result.status, "method": result.method,
        "database": result.database, "source_table": result.source_table, "output_table": result.output_table,
        "config": public_config(cfg), "base_dir": str(cfg.base_dir.resolve()), "metrics": result.metrics,
        "rows": {"total": result.rows, "considered": result.rows_considered,
                 "removed_for_null": result.removed_for_null, "suppressed": result.suppressed_rows,
                 "suppression_limit": result.suppression_limit,
                 "suppressed_rows_mode": result.suppressed_rows_mode, "output": result.output_rows},
        "classes": class_info,
        "verification": result.verification,
    }
    report.update(method.report_sections(result, table, class_info))
    return report
