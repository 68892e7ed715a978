"""Choosing an adapter from a URL. Drivers are imported inside the adapters that need them."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from ..errors import ConfigError
from .base import EngineAdapter

#: DuckDB settings a URL may carry as query parameters, e.g. ``duckdb:///big.duckdb?memory_limit=300MB``
#: (DuckDB runs inside the sqlanon process, so its memory limit bounds the process's memory).
DUCKDB_SETTINGS = frozenset({"memory_limit", "threads", "temp_directory", "max_temp_directory_size",
                             "preserve_insertion_order"})


def mask_url(url: str) -> str:
    """The URL with its password replaced by ``***`` (for logs, reports and errors).

    >>> mask_url('postgresql+psycopg://alice:s3cret@db:5432/wh')
    'postgresql+psycopg://alice:***@db:5432/wh'
    >>> mask_url('postgresql://alice@db/wh?password=s3cret&sslmode=require')
    'postgresql://alice@db/wh?password=%2A%2A%2A&sslmode=require'
    """
    if url.startswith("duckdb:"):
        return url  # file paths carry no credentials; keep them readable (':memory:' unescaped)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return "<unparseable database URL>"
    # libpq also takes the password as a query parameter (?password=...).
    secret = {k: "***" for k in parsed.query if k.lower() == "password"}
    return parsed.update_query_dict(secret).render_as_string(hide_password=True)


def adapter_for_url(url: str, base_dir: Path | None = None, create: bool = True) -> EngineAdapter:
    """Return an unconnected adapter for ``url`` (``duckdb:///file``, ``postgresql[+psycopg]://...``).

    Relative DuckDB file paths are resolved against ``base_dir`` (the config file's folder); with
    ``create=False`` a DuckDB file that does not exist is an error instead of a new empty database.
    """
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as exc:
        raise ConfigError(f"database URL {mask_url(url)!r} is not a valid URL: {exc}") from None
    backend = parsed.get_backend_name()
    if backend == "duckdb":
        from .duckdb import DuckDBAdapter

        database = parsed.database or ":memory:"
        if database != ":memory:" and base_dir is not None and not Path(database).is_absolute():
            database = str((base_dir / database).resolve())
        settings = {key: value if isinstance(value, str) else value[-1] for key, value in parsed.query.items()}
        unknown = sorted(set(settings) - DUCKDB_SETTINGS)
        if unknown:
            raise ConfigError(
                f"database URL {mask_url(url)!r}: unknown DuckDB setting {unknown[0]!r} "
                f"(supported: {', '.join(sorted(DUCKDB_SETTINGS))})"
            )
        return DuckDBAdapter(database, mask_url(url), create=create, settings=settings)
    if backend in ("postgresql", "postgres"):
        from .postgres import PostgresAdapter

        conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        return PostgresAdapter(conninfo, mask_url(url))
    raise ConfigError(
        f"database URL {mask_url(url)!r}: unsupported engine {backend!r} (supported: duckdb, postgresql)"
    )
