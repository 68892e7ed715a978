"""Choosing an adapter from a URL or an open connection, by one table of the engines (``ENGINES``), and reading
DuckDB URLs without SQLAlchemy (start-up time). Drivers are imported inside the adapters that need them."""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote

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
    if url.startswith(("spark:", "sc:")):
        return mask_spark_url(url)
    from sqlalchemy.engine import make_url  # imported here: half a second of start-up DuckDB runs skip
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return "<unparseable database URL>"
    # libpq also takes the password as a query parameter (?password=...).
    secret = {k: "***" for k in parsed.query if k.lower() == "password"}
    return parsed.update_query_dict(secret).render_as_string(hide_password=True)


#: Parts of a Spark setting's name that mark its value as a secret (spark.authenticate.secret,
#: spark.hadoop.fs.s3a.secret.key, a Spark Connect token, ...).
_SECRET_WORDS = ("secret", "password", "token", "credential", "key")


def mask_spark_url(url: str) -> str:
    """A Spark URL with the values of secret settings replaced by ``***``: query parameters of ``spark://``
    URLs, ``;name=value`` parameters of Spark Connect ``sc://`` URLs.

    >>> mask_spark_url('sc://head:15002/;token=abc;user_id=ann')
    'sc://head:15002/;token=***;user_id=ann'
    >>> mask_spark_url('spark:///?master=local[2]&spark.hadoop.fs.s3a.secret.key=abc')
    'spark:///?master=local[2]&spark.hadoop.fs.s3a.secret.key=***'
    """
    import re

    def hide(match: re.Match[str]) -> str:
        name = match.group(2).lower()
        return match.group(1) + match.group(2) + "=" + ("***" if any(w in name for w in _SECRET_WORDS)
                                                        else match.group(3))

    return re.sub(r"([?&;])([^=&;?]+)=([^&;]*)", hide, url)


@dataclass(frozen=True)
class EngineEntry:
    """One engine sqlanon supports: how a URL or an open connection selects it, and its adapter. Classes are
    named as ``module:Class`` and imported only when selected, so a DuckDB-only install never imports psycopg."""

    #: The engine's name in "supported: ..." messages.
    name: str
    #: URL prefixes read by the adapter itself, without SQLAlchemy's parser (``EngineAdapter.from_url``).
    url_prefixes: tuple[str, ...]
    #: SQLAlchemy backend names (``make_url(url).get_backend_name()``) of the engine's URLs.
    backends: tuple[str, ...]
    #: (driver module, class) of an open connection a caller may pass (``EngineAdapter.borrowing``).
    connection: tuple[str, str]
    #: The connection's kind in messages ("an open DuckDB, psycopg or SparkSession connection").
    connection_label: str
    #: The adapter, as ``module:Class``.
    adapter: str
    #: The generalization method's node query tuning (``sqlanon/evaluation/tuning.py``) as ``module:Class``;
    #: None: the neutral tuning, so that a new engine need not take a position on it.
    node_query_tuning: str | None = None


#: Every engine, in the order URLs and connections are matched.
ENGINES: tuple[EngineEntry, ...] = (
    EngineEntry(
        name="duckdb", url_prefixes=("duckdb:",), backends=(), connection=("duckdb", "DuckDBPyConnection"),
        connection_label="DuckDB", adapter="sqlanon.engines.duckdb:DuckDBAdapter",
        node_query_tuning="sqlanon.engines.duckdb_tuning:DuckDBNodeQueryTuning",
    ),
    EngineEntry(
        name="postgresql", url_prefixes=(), backends=("postgresql", "postgres"), connection=("psycopg", "Connection"),
        connection_label="psycopg", adapter="sqlanon.engines.postgres:PostgresAdapter",
        node_query_tuning="sqlanon.engines.postgres_tuning:PostgresNodeQueryTuning",
    ),
    EngineEntry(
        name="spark", url_prefixes=("spark:", "sc:"), backends=(), connection=("pyspark.sql", "SparkSession"),
        connection_label="SparkSession", adapter="sqlanon.engines.spark:SparkAdapter",
        node_query_tuning="sqlanon.engines.spark_tuning:SparkNodeQueryTuning",
    ),
)


def load(qualified: str) -> Any:
    """The object ``module:name`` names (an adapter or tuning class), its module imported now."""
    module, _, name = qualified.partition(":")
    return getattr(importlib.import_module(module), name)


def entry_for_class(cls: type) -> EngineEntry | None:
    """The engine whose adapter ``cls`` is or derives from (a test's adapter with flags flipped included),
    found by name: no adapter module is imported."""
    names = {f"{c.__module__}:{c.__qualname__}" for c in cls.__mro__}
    return next((e for e in ENGINES if e.adapter in names), None)


def adapter_for(db: Any, base_dir: Path | None = None, create: bool = True) -> EngineAdapter:
    """An adapter for a database URL (unconnected) or for the caller's open connection of a driver in
    ``ENGINES``. Only drivers already imported are looked at: the caller's connection comes from one."""
    if isinstance(db, str):
        return adapter_for_url(db, base_dir, create)
    for entry in ENGINES:
        module_name, class_name = entry.connection
        driver = sys.modules.get(module_name)
        if driver is not None and isinstance(db, getattr(driver, class_name)):
            return load(entry.adapter).borrowing(db)  # type: ignore[no-any-return]
    names = [e.connection_label for e in ENGINES]
    labels = ", ".join(names[:-1]) + " or " + names[-1]
    raise ConfigError(f"db: expected a database URL or an open {labels} connection, not a {type(db).__name__}")


def adapter_for_url(url: str, base_dir: Path | None = None, create: bool = True) -> EngineAdapter:
    """Return an unconnected adapter for ``url`` (``duckdb:///file``, ``postgresql[+psycopg]://...``).

    Relative DuckDB file paths are resolved against ``base_dir`` (the config file's folder); with
    ``create=False`` a DuckDB file that does not exist is an error instead of a new empty database.
    """
    entry = next((e for e in ENGINES if url.startswith(e.url_prefixes)), None)
    if entry is None:
        from sqlalchemy.engine import make_url  # imported here: half a second of start-up DuckDB runs skip
        from sqlalchemy.exc import ArgumentError

        try:
            backend = make_url(url).get_backend_name()
        except (ArgumentError, ValueError) as exc:
            raise ConfigError(f"database URL {mask_url(url)!r} is not a valid URL: {exc}") from None
        entry = next((e for e in ENGINES if backend in e.backends), None)
        if entry is None:
            raise ConfigError(
                f"database URL {mask_url(url)!r}: unsupported engine {backend!r} "
                f"(supported: {', '.join(e.name for e in ENGINES)})"
            )
    return load(entry.adapter).from_url(url, mask_url(url), base_dir, create)  # type: ignore[no-any-return]


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
