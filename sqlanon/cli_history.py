"""``sqlanon db`` (the run-history schema) and ``sqlanon runs`` (recorded runs)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from .console import handle_errors
from .engines import EngineAdapter, adapter_for_url
from .history import DEFAULT_SCHEMA

SCHEMA_OPTION = click.option("--schema", "schema", metavar="NAME", default=DEFAULT_SCHEMA, show_default=True,
                             help="Schema holding the run history.")
DB_OPTION = click.option("--db", "db", metavar="URL", required=True, help="Database URL.")
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object on stdout.")


@contextmanager
def _connected(db: str, create: bool = False) -> Iterator[EngineAdapter]:
    adapter = adapter_for_url(db, Path.cwd(), create=create)
    adapter.connect()
    try:
        yield adapter
    finally:
        adapter.close()


@click.group("db")
def db_group() -> None:
    """The run-history schema in the target database (migrations).

    \b
    Examples:
      sqlanon db status --db duckdb:///warehouse.duckdb
      sqlanon db upgrade --db postgresql+psycopg://owner@db/warehouse
    """


@db_group.command("upgrade")
@DB_OPTION
@SCHEMA_OPTION
@click.option("--to", "to", type=click.IntRange(min=0), help="Stop at this version (default: the latest).")
@JSON_OPTION
def db_upgrade(db: str, schema: str, to: int | None, as_json: bool) -> None:
    """Create or upgrade the run-history schema to this sqlanon's version.

    Safe to run again and from several processes at once (PostgreSQL: advisory lock).
    A DuckDB file is created if it does not exist.

    \b
    Examples:
      sqlanon db upgrade --db duckdb:///warehouse.duckdb
      sqlanon db upgrade --db postgresql+psycopg://owner@db/warehouse --schema anon_history
    """
    from .history import current_version, head, resolve_schema, upgrade

    def action() -> None:
        nonlocal schema
        with _connected(db, create=True) as adapter:
            schema = resolve_schema(adapter, schema)
            before = current_version(adapter, schema)
            if before > head():
                from .errors import ConfigError

                raise ConfigError(f"--schema {schema}: at version {before}, newer than this sqlanon's {head()}")
            applied = upgrade(adapter, schema, to)
            after = current_version(adapter, schema)
            shown = adapter.display_url
        if as_json:
            click.echo(json.dumps({"status": "ok", "schema": schema, "database": shown, "from_version": before,
                                   "to_version": after, "applied": [f"{m.version:04d}_{m.name}" for m in applied]}))
        elif applied:
            click.echo(f"run history schema {schema!r} in {shown}: version {before} -> {after} "
                       f"(applied {', '.join(f'{m.version:04d}_{m.name}' for m in applied)})")
        else:
            click.echo(f"run history schema {schema!r} in {shown}: already at version {after}")

    handle_errors(as_json, action)


@db_group.command("status")
@DB_OPTION
@SCHEMA_OPTION
@JSON_OPTION
def db_status(db: str, schema: str, as_json: bool) -> None:
    """Show the run-history schema's version and whether it needs an upgrade.

    Exit code 0 when it is current, 3 when it is missing, older or newer.

    \b
    Example:
      sqlanon db status --db duckdb:///warehouse.duckdb
    """
    from .history import current_version, head, resolve_schema

    def action() -> None:
        nonlocal schema
        with _connected(db) as adapter:
            schema = resolve_schema(adapter, schema)
            version = current_version(adapter, schema)
            shown = adapter.display_url
        state = ("current" if version == head() else "missing" if version == 0
                 else "outdated" if version < head() else "newer than this sqlanon")
        if as_json:
            click.echo(json.dumps({"status": state, "schema": schema, "database": shown, "version": version,
                                   "latest": head()}))
        else:
            click.echo(f"run history schema {schema!r} in {shown}: version {version} of {head()} ({state})")
        if version != head():
            sys.exit(3)

    handle_errors(as_json, action)


@click.group("runs")
def runs_group() -> None:
    """Recorded runs (the run history).

    \b
    Examples:
      sqlanon runs list --db duckdb:///sqlanon-demo.duckdb
      sqlanon runs show 5ba39b1b --db duckdb:///sqlanon-demo.duckdb --report run.html
    """


def _age(row: dict[str, Any]) -> str:
    return (row.get("started_at") or "")[:19].replace("T", " ")


@runs_group.command("list")
@DB_OPTION
@SCHEMA_OPTION
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True, help="Newest runs to show.")
@JSON_OPTION
def runs_list(db: str, schema: str, limit: int, as_json: bool) -> None:
    """List recent runs, newest first.

    A run whose process was killed stays `running`; on the host that ran it,
    the list marks it `running (process gone: killed?)`.

    \b
    Example:
      sqlanon runs list --db duckdb:///sqlanon-demo.duckdb
    """
    from .history import list_runs

    def action() -> None:
        with _connected(db) as adapter:
            runs = list_runs(adapter, schema, limit)
        if as_json:
            click.echo(json.dumps({"status": "ok", "runs": runs}))
            return
        if not runs:
            click.echo("no runs recorded")
            return
        header = ("RUN", "STARTED (UTC)", "COMMAND", "STATUS", "SOURCE -> OUTPUT", "TRANSFORMATION")
        lines = [header]
        for r in runs:
            levels = ",".join(str(v) for v in (r.get("transformation") or {}).values()) or "-"
            lines.append((r["run_id"][:12], _age(r), r["command"], r["status_shown"],
                          f"{r.get('source_table') or '-'} -> {r.get('output_table') or '-'}", levels))
        widths = [max(len(str(line[i])) for line in lines) for i in range(len(header))]
        for line in lines:
            click.echo("  ".join(str(v).ljust(w) for v, w in zip(line, widths, strict=True)).rstrip())

    handle_errors(as_json, action)


@runs_group.command("show")
@click.argument("run_id")
@DB_OPTION
@SCHEMA_OPTION
@click.option("--report", "reports", metavar="FILE", multiple=True, type=click.Path(path_type=Path),
              help="Write the run's recorded report again: .html or .json. Repeatable.")
@JSON_OPTION
def runs_show(run_id: str, db: str, schema: str, reports: tuple[Path, ...], as_json: bool) -> None:
    """Show one run (its id or a unique prefix of at least 4 characters).

    \b
    Examples:
      sqlanon runs show 5ba39b1b --db duckdb:///sqlanon-demo.duckdb
      sqlanon runs show 5ba39b1b --db duckdb:///sqlanon-demo.duckdb --report run.html
    """
    from .errors import InputError
    from .history import get_run

    def action() -> None:
        with _connected(db) as adapter:
            run = get_run(adapter, schema, run_id, nodes=True)
        report = run.get("report")
        if reports:
            if report is None:
                raise InputError(f"run {run['run_id']} has no recorded report (status {run['status']})")
            from .report import write_report

            if run["nodes"] and report.get("search", {}).get("nodes") is None:
                report["search"]["nodes"] = run["nodes"]
            for path in reports:
                write_report(report, path)
        if as_json:
            click.echo(json.dumps({"status": "ok", "run": {k: v for k, v in run.items() if k != "report"}},
                                  default=str))
            return
        click.echo(_describe(run))

    handle_errors(as_json, action)


def _describe(run: dict[str, Any]) -> str:
    lines = [
        f"run {run['run_id']}  {run['command']}  {run['status_shown']}",
        f"  started {run['started_at']}, finished {run.get('finished_at') or '-'} "
        f"(host {run.get('host') or '-'}, pid {run.get('pid') or '-'}, sqlanon {run['sqlanon_version']})",
        f"  source {run.get('source_table') or '-'} -> output {run.get('output_table') or '-'}",
        f"  config {run.get('config_file') or '-'} (sha256 {run['config_hash'][:16]}...)",
    ]
    if run.get("transformation"):
        lines.append("  transformation: " + ", ".join(f"{a}={lvl}" for a, lvl in run["transformation"].items()))
    if run.get("metrics"):
        lines.append("  metrics: " + ", ".join(f"{k}={v:.6g}" for k, v in run["metrics"].items()))
    if run.get("rows_total") is not None:
        lines.append(f"  rows {run['rows_total']} (considered {run['rows_considered']}), suppressed "
                     f"{run['suppressed_rows']}, written {run.get('output_rows')}")
    if run.get("nodes_evaluated") is not None:
        lines.append(f"  nodes evaluated {run['nodes_evaluated']} of {run['lattice_size']}")
    if run.get("verified") is not None:
        lines.append(f"  verified: {'yes' if run['verified'] else 'NO'}")
    if run.get("error"):
        lines.append(f"  error: {run['error']}")
    return "\n".join(lines)
