"""Choosing an adapter from a URL. Drivers are imported inside the adapters that need them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlencode

from ..errors import ConfigError
from .base import EngineAdapter

#: DuckDB settings a URL may carry as query parameters, e.g. ``duckdb:///big.duckdb?memory_limit=300MB``
#: (DuckDB runs inside the sqlanon process, so its memory limit bounds the process's memory).
DUCKDB_SETTINGS = frozenset({"memory_limit", "threads", "temp_directory", "max_temp_directory_size",
                             "preserve_insertion_order", "access_mode"})


def mask_url(url: str) -> str:
    """The URL with its password replaced by ``***`` (for logs, reports and errors).

    >>> mask_url('postgresql+psycopg://alice:s3cret@db:5432/wh')
    'postgresql+psycopg://alice:***@db:5432/wh'
    >>> mask_url('postgresql://alice@db/wh?password=s3cret&sslmode=require')
    'postgresql://alice@db/wh?password=%2A%2A%2A&sslmode=require'
    """
    if url.startswith("duckdb:"):
        return url  # file paths carry no credentials; keep them readable (':memory:' unescaped)
    from sqlalchemy.engine import make_url  # imported here: half a second of start-up DuckDB runs skip
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return "<unparseable database URL>"
    # libpq also takes the password as a query parameter (?password=...).
    secret = {k: "***" for k in parsed.query if k.lower() == "password"}
    return parsed.update_query_dict(secret).render_as_string(hide_password=True)


def adapter_for(db: Any, base_dir: Path | None = None, create: bool = True) -> EngineAdapter:
    """An adapter for a database URL (unconnected) or for the caller's open DuckDB or psycopg connection."""
    if isinstance(db, str):
        return adapter_for_url(db, base_dir, create)
    duckdb, psycopg = sys.modules.get("duckdb"), sys.modules.get("psycopg")
    if duckdb is not None and isinstance(db, duckdb.DuckDBPyConnection):
        from .duckdb import DuckDBAdapter

        return DuckDBAdapter.borrowing(db)
    if psycopg is not None and isinstance(db, psycopg.Connection):
        from .postgres import PostgresAdapter

        return PostgresAdapter.borrowing(db)
    raise ConfigError(
        f"db: expected a database URL or an open DuckDB or psycopg connection, not a {type(db).__name__}"
    )


def adapter_for_url(url: str, base_dir: Path | None = None, create: bool = True) -> EngineAdapter:
    """Return an unconnected adapter for ``url`` (``duckdb:///file``, ``postgresql[+psycopg]://...``).

    Relative DuckDB file paths are resolved against ``base_dir`` (the config file's folder); with
    ``create=False`` a DuckDB file that does not exist is an error instead of a new empty database.
    """
    if url.startswith("duckdb:"):
        from .duckdb import DuckDBAdapter

        database, settings = parse_duckdb_url(url)
        if database != ":memory:" and base_dir is not None and not Path(database).is_absolute():
            database = str((base_dir / database).resolve())
        return DuckDBAdapter(database, mask_url(url), create=create, settings=settings)

    from sqlalchemy.engine import make_url  # imported here: half a second of start-up DuckDB runs skip
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as exc:
        raise ConfigError(f"database URL {mask_url(url)!r} is not a valid URL: {exc}") from None
    backend = parsed.get_backend_name()
    if backend in ("postgresql", "postgres"):
        from .postgres import PostgresAdapter

        # The query is re-encoded with %20 for spaces: SQLAlchemy writes '+', which libpq keeps literally
        # (options=-c%20temp_buffers%3D64MB became the unknown setting "+temp_buffers").
        conninfo = parsed.set(drivername="postgresql", query={}).render_as_string(hide_password=False)
        if parsed.query:
            conninfo += "?" + urlencode(dict(parsed.query), doseq=True, quote_via=quote)
        return PostgresAdapter(conninfo, mask_url(url))
    raise ConfigError(
        f"database URL {mask_url(url)!r}: unsupported engine {backend!r} (supported: duckdb, postgresql)"
    )


def parse_duckdb_url(url: str) -> tuple[str, dict[str, str]]:
    """(database path or ':memory:', settings) of ``duckdb:///path?setting=value``, read as SQLAlchemy's
    URL parser reads it (a test compares them), but with the standard library: importing SQLAlchemy
    costs about half a second, a third of a small run's cold start. Unlike SQLAlchemy, a host part is an
    error: ``duckdb://file.duckdb`` would otherwise silently open an empty in-memory database.

    >>> parse_duckdb_url('duckdb:///data/my%20wh.duckdb?memory_limit=300MB')
    ('data/my wh.duckdb', {'memory_limit': '300MB'})
    >>> parse_duckdb_url('duckdb://')
    (':memory:', {})
    """
    rest = url[len("duckdb:"):]
    if not rest.startswith("//"):
        raise ConfigError(f"database URL {url!r} is not a valid URL: expected duckdb:///path or duckdb:///:memory:")
    host, _, path = rest[2:].partition("/")
    if host:
        raise ConfigError(
            f"database URL {url!r}: a DuckDB URL has no host; write duckdb:///{host}{'/' + path if path else ''} "
            f"(three slashes; four for an absolute path)"
        )
    path, _, query = path.partition("?")
    settings = dict(parse_qsl(query))  # repeated keys: the last one wins
    unknown = sorted(set(settings) - DUCKDB_SETTINGS)
    if unknown:
        raise ConfigError(
            f"database URL {url!r}: unknown DuckDB setting {unknown[0]!r} "
            f"(supported: {', '.join(sorted(DUCKDB_SETTINGS))})"
        )
    return unquote(path) or ":memory:", settings
