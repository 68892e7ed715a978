"""The run-history schema: its migrations (``migrations/NNNN_name.sql.j2``) and the versioned runner.

Why not Alembic: see ``migrations/README.md``. An upgrade applies every pending migration and its version row in
one transaction, under an engine lock (``history/lock_history.sql.j2``), so concurrent upgrades apply each
version once and nobody sees a half-upgraded schema.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

from ..engines.base import EngineAdapter
from ..errors import ConfigError, EngineError
from ..identifiers import parse_spelled_identifier
from ..templates import migrations_root

DEFAULT_SCHEMA = "sqlanon"

_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql\.j2$")
_STATEMENT_END = re.compile(r";[ \t]*(?:\n|$)")

#: The columns the code reads and writes, per table, after the latest migration (checked by a test against
#: the database after upgrading from empty and from every earlier version, on both engines).
COLUMNS: dict[str, tuple[str, ...]] = {
    "runs": (
        "run_id", "command", "status", "started_at", "finished_at", "error", "sqlanon_version", "config_file",
        "config_json", "config_hash", "source_table", "output_table", "rows_total", "rows_considered",
        "output_rows", "suppressed_rows", "transformation_json", "metric", "metrics_json", "nodes_evaluated",
        "lattice_size", "verified", "verification_json", "host", "pid", "report_json", "method", "details_json",
    ),
    "run_nodes": ("run_id", "levels", "state", "metric"),
    "run_history_version": ("version", "name", "applied_at", "sqlanon_version"),
}


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    template: str


@cache
def migrations() -> tuple[Migration, ...]:
    """All migrations shipped with this sqlanon, in version order (numbers must be 1, 2, 3, ...)."""
    found = []
    for path in sorted(migrations_root().iterdir()):
        match = _FILE.match(path.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), path.name))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:  # pragma: no cover - a packaging mistake, caught by the tests
            raise RuntimeError(f"migrations: expected version {expected}, found {migration.template}")
    return tuple(found)


def head() -> int:
    """The schema version this sqlanon reads and writes."""
    return len(migrations())


def resolve_schema(adapter: EngineAdapter, schema: str) -> str:
    """The exact name of the history schema ``schema`` (a config's ``history.schema`` or ``--schema``) denotes:
    unquoted, its case follows the engine's rule (PostgreSQL folds it to lower case, DuckDB finds an existing
    schema whatever its case); double-quoted, it is exact."""
    return adapter.resolve_schema(parse_spelled_identifier(schema))


def current_version(adapter: EngineAdapter, schema: str) -> int:
    """The highest applied version; 0 when the history schema (or its version table) does not exist."""
    if not adapter.history_exists(schema):
        return 0
    versions = [int(r[0]) for r in adapter.run("history/applied_versions.sql.j2", schema=schema)]
    return max(versions, default=0)


def upgrade(adapter: EngineAdapter, schema: str, target: int | None = None) -> list[Migration]:
    """Apply every migration above the current version up to ``target`` (default: the latest)."""
    from .. import __version__

    target = head() if target is None else target
    if not 0 <= target <= head():
        raise ConfigError(f"--to: version {target} does not exist (this sqlanon knows 0..{head()})")
    # All pending migrations in one transaction: a concurrent run sees the old version or the new one, never
    # a half-upgraded schema that it would refuse as outdated. Threads of one process share a DuckDB database
    # and its catalog; DuckDB has no advisory locks and would fail one of two concurrent CREATE SCHEMA
    # transactions with a write-write conflict, so threads are serialized here too.
    with _process_lock(adapter.url), adapter.transaction():
        adapter.run("history/lock_history.sql.j2", schema=schema)
        # Read under the lock: another process may have upgraded meanwhile.
        current = current_version(adapter, schema)
        pending = [m for m in migrations()[:target] if m.version > current]
        for migration in pending:
            _apply(adapter, schema, migration, __version__)
    return pending


_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def _process_lock(key: str) -> threading.Lock:
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(key, threading.Lock())


def _apply(adapter: EngineAdapter, schema: str, migration: Migration, version: str) -> None:
    adapter.run("history/create_schema.sql.j2", schema=schema)
    adapter.run("history/create_version_table.sql.j2", schema=schema)
    sql, params = adapter.render(migration.template, _kind="migrations", schema=schema)
    if params:  # pragma: no cover - migrations take no values, only the quoted schema name
        raise RuntimeError(f"{migration.template}: migrations must not use bind()")
    for statement in _split(sql):
        adapter.execute(statement)
    adapter.run(
        "history/record_version.sql.j2", schema=schema, version=migration.version, name=migration.name,
        applied_at=datetime.now(UTC).replace(tzinfo=None), sqlanon_version=version,
    )


def _split(sql: str) -> list[str]:
    lines = [ln for ln in sql.splitlines() if not ln.lstrip().startswith("--")]
    return [s.strip() for s in _STATEMENT_END.split("\n".join(lines)) if s.strip()]


def require_current(adapter: EngineAdapter, schema: str, create: bool) -> int:
    """Make sure the history schema is at this sqlanon's version before a run records itself.

    An absent schema is created when ``create`` is true (first use); an older one is refused (upgrading a
    shared schema is a deliberate act: ``sqlanon db upgrade``), and so is a newer one (an older sqlanon).
    """
    try:
        version = current_version(adapter, schema)
    except EngineError as exc:
        raise EngineError(f"cannot read the run history schema {schema!r}: {exc}") from None
    latest = head()
    if version == latest:
        return version
    url = adapter.display_url
    if version == 0:
        if not create:
            raise ConfigError(
                f"history: the run history schema {schema!r} does not exist in {url}; create it with "
                f"`sqlanon db upgrade --db {url} --schema {schema}` or set history.enabled: false"
            )
        try:
            upgrade(adapter, schema)
        except EngineError as exc:
            raise EngineError(
                f"cannot create the run history schema {schema!r} in {url} ({exc}); if this user may not "
                f"create schemas, have an owner run `sqlanon db upgrade`, or set history.enabled: false"
            ) from None
        return latest
    if version < latest:
        raise ConfigError(
            f"history: the run history schema {schema!r} in {url} is at version {version}, this sqlanon needs "
            f"version {latest}; upgrade it first with `sqlanon db upgrade --db {url} --schema {schema}`"
        )
    raise ConfigError(
        f"history: the run history schema {schema!r} in {url} is at version {version}, newer than this "
        f"sqlanon's {latest}; use a newer sqlanon (or set history.enabled: false)"
    )
