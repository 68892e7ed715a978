"""Choosing an adapter from a URL. Drivers are imported inside the adapters that need them."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from ..errors import ConfigError
from .base import EngineAdapter


def mask_url(url: str) -> str:
    """The URL with its password replaced by ``***`` (for logs, reports and errors).

    >>> mask_url('postgresql+psycopg://alice:s3cret@db:5432/wh')
    'postgresql+psycopg://alice:***@db:5432/wh'
    """
    if url.startswith("duckdb:"):
        return url  # file paths carry no credentials; keep them readable (':memory:' unescaped)
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return "<unparseable database URL>"


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
        return DuckDBAdapter(database, mask_url(url), create=create)
    if backend in ("postgresql", "postgres"):
        from .postgres import PostgresAdapter

        conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        return PostgresAdapter(conninfo, mask_url(url))
    raise ConfigError(
        f"database URL {mask_url(url)!r}: unsupported engine {backend!r} (supported: duckdb, postgresql)"
    )
