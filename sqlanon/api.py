"""The Python API; the CLI and ETL callers both use it: ``anonymize``, ``apply``, ``validate``, ``explain`` and
``check``. A run's lifecycle is in ``run.py``, the methods in ``methods/``.

>>> import sqlanon                                        # doctest: +SKIP
>>> result = sqlanon.anonymize("configs/demo.yaml")       # doctest: +SKIP
>>> result.transformation, result.verified                # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .audit import CheckResult, check  # noqa: F401  (re-exported: sqlanon.check, sqlanon.api.check)
from .config import AnonymizeConfig, load_config
from .errors import ConfigError, InputError
from .history import DEFAULT_SCHEMA
from .methods import DEFAULT as DEFAULT_METHOD
from .methods import PACKAGES, method_class
from .methods.base import AnonymizationMethod, ProgressCallback
from .result import AnonymizationResult
from .run import perform_run
from .session import Session

__all__ = ["AnonymizationResult", "CheckResult", "anonymize", "apply", "check", "explain", "validate"]


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
    return perform_run(_as_config(config), db=db, dry_run=dry_run, progress=progress, reports=_paths(report),
                       command="anonymize")


def _paths(report: str | Path | Sequence[str | Path] | None) -> list[Path]:
    if report is None:
        return []
    if isinstance(report, str | Path):
        return [Path(report)]
    return [Path(r) for r in report]


def apply(  # noqa: PLR0913 - sqlanon.apply, a public entry point: keyword-only, as `sqlanon apply`'s options
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
    return perform_run(cfg, db=db, dry_run=dry_run, progress=progress, reports=_paths(report), command="apply",
                       plan=document["transformation"], on_violation=on_violation)


def _document_from_run(db: str | Any, run: str, schema: str) -> dict[str, Any]:
    from .engines import adapter_for
    from .history import get_run

    adapter = adapter_for(db, Path.cwd(), create=False)
    adapter.connect()
    try:
        record = get_run(adapter, schema, run)
    finally:
        adapter.close()
    has_plan = not isinstance(record.get("config"), dict) or method_class(
        record["config"].get("method", DEFAULT_METHOD)).HAS_PLAN
    if record["status"] not in ("succeeded", "dry_run") or (has_plan and not record.get("transformation")):
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
    from .config.loading import validate_config

    recorded = document.get("config")
    method = recorded.get("method", DEFAULT_METHOD) if isinstance(recorded, dict) else DEFAULT_METHOD
    if isinstance(method, str) and method in PACKAGES and not method_class(method).HAS_PLAN:
        raise ConfigError(f"{where}: method {method} has no reusable plan to apply to a new batch (its result "
                          f"depends on the data itself); run `sqlanon anonymize` on the new batch instead")
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
    # Recorded configs are already substituted: no ${ENV} expansion here.
    return validate_config(data, where, Path(base_dir) if base_dir else Path.cwd())


def validate(config: AnonymizeConfig | str | Path, *, db: str | Any = None) -> dict[str, Any]:
    """Validate the config and every hierarchy against the data, without searching."""
    cfg = _as_config(config)
    with Session(cfg, db) as session:
        method = _prepared(session)
        records = method.records()
        return {
            "status": "valid",
            "method": cfg.method,
            "source_table": session.source_shown,
            "rows": records.rows,
            "rows_considered": records.considered,
            "removed_for_null": records.removed_for_null,
            **method.validation(),
            "suppression_limit": records.max_suppressed,
            "database": session.adapter.display_url,
        }


def _prepared(session: Session) -> AnonymizationMethod:
    """The config's method, prepared on the session (its ConfigErrors name the config file)."""
    method = method_class(session.config.method)(session)
    try:
        method.prepare()
    except ConfigError as exc:
        raise session.named(exc) from None
    return method


def explain(config: AnonymizeConfig | str | Path, *, node: dict[str, int] | None = None,
            db: str | Any = None) -> str:
    """The SQL of one step of the config's method (generalization: the frequency set and one node's query,
    by default the bottom node), runnable as printed."""
    cfg = _as_config(config)
    with Session(cfg, db) as session:
        return _prepared(session).explain(node)
