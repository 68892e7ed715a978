"""Recording runs in the history schema, and reading them back (``sqlanon runs list/show``).

A run is inserted as ``running`` before any work and updated when it ends (``succeeded``, ``unverified``,
``no_solution``, ``failed``, ``interrupted``). Where tables take no UPDATE (``SUPPORTS_UPDATES``: Spark), the
end is a second row of the same run, whole, which readers prefer (``history/select_runs.sql.j2``). A killed
process leaves ``running``; the row names the host and process id, so ``runs list`` marks it as gone when that
process no longer exists on this host.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import engines
from ..config import AnonymizeConfig
from ..engines.base import EngineAdapter
from ..errors import InputError, NoSolutionError, SqlanonError
from ..hierarchy.sources import text
from .schema import COLUMNS, require_current, resolve_schema


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def public_config(cfg: AnonymizeConfig) -> dict[str, Any]:
    """The config as the user wrote it (defaults filled in), JSON-safe, with the password of any URL masked.

    It must also rebuild the same config (``sqlanon apply``): an inline hierarchy's YAML ``null`` key, which JSON
    cannot carry, becomes a reserved key named by ``null_value``.
    """
    data = cfg.model_dump(mode="json", exclude_none=True, by_alias=True)
    if data.get("source", {}).get("url"):
        data["source"]["url"] = engines.mask_url(data["source"]["url"])
    for name, attr in cfg.attributes.items():
        inline = attr.hierarchy.inline if attr.hierarchy is not None else None
        if inline is None:
            continue
        keys = {text(k) for k in inline if k is not None}
        sentinel = "<NULL>"
        while sentinel in keys:
            sentinel = f"<{sentinel}>"
        data["attributes"][name]["hierarchy"]["inline"] = {
            (sentinel if k is None else text(k)): v for k, v in inline.items()
        }
        if None in inline:
            data["attributes"][name]["hierarchy"]["null_value"] = sentinel
    return data


def _config_file(cfg: AnonymizeConfig) -> str | None:
    """Absolute path of the config file (its folder resolves the config's relative paths on apply)."""
    if cfg.source_file.startswith("<"):
        return None
    return str(cfg.base_dir.resolve() / Path(cfg.source_file).name)


def config_hash(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=False, default=str)


@dataclass
class RunRecorder:
    """Writes one run's row. Recording never hides the run's own outcome: its failures are reported after."""

    adapter: EngineAdapter
    schema: str
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:16])
    #: The values the run's row was inserted with (the whole row is inserted again at the end where tables
    #: take no UPDATE).
    started: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, adapter: EngineAdapter, cfg: AnonymizeConfig, command: str) -> RunRecorder:
        from .. import __version__

        schema = resolve_schema(adapter, cfg.history.schema)
        require_current(adapter, schema, create=cfg.history.create)
        recorder = cls(adapter, schema)
        config = public_config(cfg)
        recorder.started = {
            "run_id": recorder.run_id, "command": command, "status": "running", "started_at": _now(),
            "sqlanon_version": __version__, "config_file": _config_file(cfg),
            "config_json": json.dumps(config), "config_hash": config_hash(config), "method": cfg.method,
            "source_table": cfg.source.table or (str(cfg.source.csv) if cfg.source.csv else None),
            "output_table": cfg.output.table, "host": socket.gethostname(), "pid": os.getpid(),
        }
        recorder._insert("runs", recorder.started)
        return recorder

    def _insert(self, table: str, values: dict[str, Any]) -> None:
        assert set(values) <= set(COLUMNS[table]), set(values) - set(COLUMNS[table])
        self.adapter.run("history/insert_row.sql.j2", schema=self.schema, table=table, values=values)

    def _update(self, values: dict[str, Any]) -> None:
        assert set(values) <= set(COLUMNS["runs"]), set(values) - set(COLUMNS["runs"])
        if not self.adapter.SUPPORTS_UPDATES:
            self._insert("runs", {**self.started, **values})
            return
        self.adapter.run("history/update_run.sql.j2", schema=self.schema, run_id=self.run_id, values=values)

    def succeeded(self, result: Any, report: dict[str, Any] | None, nodes: list[tuple[str, str, float | None]]) -> None:
        status = "dry_run" if result.dry_run else ("succeeded" if result.verified else "unverified")
        self._update({
            "status": status, "finished_at": _now(), "rows_total": result.rows,
            "rows_considered": result.rows_considered, "output_rows": result.output_rows,
            "suppressed_rows": result.suppressed_rows, "transformation_json": _json(result.plan),
            "metric": result.details.get("metric"), "metrics_json": _json(result.metrics),
            "nodes_evaluated": result.details.get("nodes_evaluated"),
            "lattice_size": _bigint(result.details.get("lattice_size")), "details_json": _json(result.details),
            "verified": result.verified, "verification_json": _json(result.verification),
            "report_json": _json(report), "source_table": result.source_table,
            "output_table": result.output_table,
        })
        if nodes:
            quoted = self.adapter.quote_qualified((self.schema, "run_nodes"))
            rows = [(self.run_id, levels, state, metric) for levels, state, metric in nodes]
            self.adapter.bulk_insert(quoted, 4, rows)

    def failed(self, exc: BaseException) -> None:
        """Best effort: on the run's connection, else on a fresh one (the first may be the thing that broke)."""
        if isinstance(exc, KeyboardInterrupt):
            status, error = "interrupted", "interrupted; nothing was written"
        elif isinstance(exc, NoSolutionError):
            status, error = "no_solution", str(exc)
        else:
            status = "failed"
            error = str(exc) if isinstance(exc, SqlanonError) else f"unexpected error: {type(exc).__name__}: {exc}"
        values = {"status": status, "finished_at": _now(), "error": error}
        try:
            self._update(values)
            return
        except BaseException:  # noqa: BLE001 - fall through to a new connection
            pass
        try:
            fresh = self.adapter.fresh()
            fresh.connect()
            try:
                RunRecorder(fresh, self.schema, self.run_id, self.started)._update(values)
            finally:
                fresh.close()
        except BaseException:  # noqa: BLE001 - the database is unreachable; runs list shows the run as gone
            pass


# -- reading ------------------------------------------------------------------------------------------
LIST_COLUMNS = ("run_id", "command", "status", "started_at", "finished_at", "method", "source_table",
                "output_table", "transformation_json", "verified", "host", "pid", "error")


def _process_gone(host: str | None, pid: int | None) -> bool:
    """True when the run's process is known to be dead (same host, no such process)."""
    if host != socket.gethostname() or pid is None:
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _shown_status(row: dict[str, Any]) -> str:
    if row["status"] == "running" and _process_gone(row.get("host"), row.get("pid")):
        return "running (process gone: killed?)"
    return row["status"]


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key.endswith("_json"):
            out[key[: -len("_json")]] = None if value is None else json.loads(value)
        elif isinstance(value, datetime):
            out[key] = value.isoformat(timespec="seconds") + "Z"
        else:
            out[key] = value
    if "method" in out and out["method"] is None:
        out["method"] = "generalization"  # recorded before history version 3: the only method then
    out["status_shown"] = _shown_status(row)
    return out


def _history_ready(adapter: EngineAdapter, schema: str) -> None:
    from .schema import current_version, head

    version = current_version(adapter, schema)
    if version == 0:
        raise InputError(f"no run history in {adapter.display_url} (schema {schema!r} does not exist)")
    if version != head():
        raise InputError(
            f"the run history schema {schema!r} in {adapter.display_url} is at version {version}, this sqlanon "
            f"reads version {head()}; run `sqlanon db upgrade`" if version < head() else
            f"the run history schema {schema!r} in {adapter.display_url} is at version {version}, newer than "
            f"this sqlanon's {head()}"
        )


def list_runs(adapter: EngineAdapter, schema: str, limit: int = 20) -> list[dict[str, Any]]:
    """The newest runs first."""
    schema = resolve_schema(adapter, schema)
    _history_ready(adapter, schema)
    rows = adapter.run("history/select_runs.sql.j2", schema=schema, columns=LIST_COLUMNS, prefix=None, limit=limit)
    return [_decode(dict(zip(LIST_COLUMNS, r, strict=True))) for r in rows]


def get_run(adapter: EngineAdapter, schema: str, run_id: str, nodes: bool = False) -> dict[str, Any]:
    """One run by its id or a unique prefix of it (at least 4 characters)."""
    schema = resolve_schema(adapter, schema)
    _history_ready(adapter, schema)
    if len(run_id) < 4:
        raise InputError(f"run id {run_id!r}: give at least 4 characters of it")
    columns = COLUMNS["runs"]
    rows = adapter.run("history/select_runs.sql.j2", schema=schema, columns=columns, prefix=run_id, limit=2)
    if not rows:
        raise InputError(f"no run with id {run_id!r} in {adapter.display_url} (see `sqlanon runs list`)")
    if len(rows) > 1:
        raise InputError(f"run id {run_id!r} is ambiguous; give more characters of it")
    run = _decode(dict(zip(columns, rows[0], strict=True)))
    if nodes:
        run["nodes"] = [
            {"levels": [int(x) for x in levels.split(",")], "state": state, "metric": metric}
            for levels, state, metric in adapter.run("history/select_run_nodes.sql.j2", schema=schema,
                                                     run_id=run["run_id"])
        ]
    return run


def _bigint(value: int | None) -> int | None:
    """A count for a BIGINT column, None beyond it: the heuristics search lattices of more than 2^63 nodes (40
    quasi-identifiers of height 4), whose size stays exact in ``details_json``."""
    return value if value is None or value < 1 << 63 else None
