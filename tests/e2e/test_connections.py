"""The caller's own open connection as ``db`` (Python API): the run uses it, leaves it open and as it was
(settings, no tables of sqlanon's), and refuses connections it cannot use, on DuckDB and PostgreSQL; on Spark
the caller's SparkSession."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

import sqlanon
from sqlanon.config import parse_config
from sqlanon.errors import ConfigError, InputError
from tests.helpers import SparkConnection

pytestmark = pytest.mark.spark

ROWS = [(i, 20 + i % 30, "F" if i % 3 else "M") for i in range(300)]


def config(k: int = 5) -> Any:
    return parse_config(
        {
            "source": {"table": "people"},
            "output": {"table": "people_out"},
            "attributes": {
                "id": {"role": "identifier"},
                "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10, 20]}}},
                "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            },
            "privacy": {"k": k, "suppression_limit": 0.02},
            "history": {"enabled": False},
        },
        source="<test>",
    )


def open_connection(engine) -> Any:
    if engine.name == "spark":
        return SparkConnection(engine.con)
    if engine.name == "duckdb":
        return duckdb.connect(engine.extra["path"])
    import psycopg

    return psycopg.connect(engine.url.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=True)


def fill(con: Any) -> None:
    if isinstance(con, SparkConnection):  # one INSERT: each statement is a Spark job
        con.execute("CREATE TABLE people (id INT, age INT, sex STRING)")
        con.execute("INSERT INTO people VALUES " + ", ".join(["(?, ?, ?)"] * len(ROWS)), [v for r in ROWS for v in r])
        return
    con.execute("CREATE TABLE people (id INTEGER, age INTEGER, sex VARCHAR)")
    for row in ROWS:
        con.execute("INSERT INTO people VALUES (" + ", ".join(["%s" if _is_pg(con) else "?"] * 3) + ")", list(row))


def _is_pg(con: Any) -> bool:
    return not isinstance(con, duckdb.DuckDBPyConnection | SparkConnection)


def session_state(con: Any) -> tuple:
    """The connection's own temporary tables and the settings sqlanon changes during a run."""
    if isinstance(con, SparkConnection):  # temporary views (the scratch tables) and the current schema
        views = [t.name for t in con.session.catalog.listTables() if t.isTemporary]
        return sorted(views), con.session.catalog.currentDatabase()
    if _is_pg(con):
        temporary = con.execute("SELECT relname FROM pg_class WHERE relnamespace = pg_my_temp_schema()").fetchall()
        settings = con.execute("SELECT current_setting('temp_buffers'), current_setting('enable_mergejoin')").fetchall()
    else:
        temporary = con.execute("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall()
        settings = con.execute("SELECT current_setting('threads'), current_setting('disabled_optimizers')").fetchall()
    return sorted(temporary), settings


def test_a_run_on_the_callers_connection_leaves_it_open_and_as_it_was(engine) -> None:
    con = open_connection(engine)
    try:
        fill(con)
        if _is_pg(con):
            con.execute("SET enable_mergejoin = on")
        before = session_state(con)
        db = getattr(con, "session", con)
        result = sqlanon.anonymize(config(), db=db)
        assert result.verified
        assert result.to_dict()["database"].endswith(("(open connection)", "(open session)"))
        assert con.execute("SELECT count(*) FROM people_out").fetchone()[0] == 300 - result.suppressed_rows
        assert session_state(con) == before
        # A failing run leaves the connection usable and clean too.
        with pytest.raises(InputError, match="larger than the number of records"):
            sqlanon.anonymize(config(k=301), db=db)
        assert session_state(con) == before
        assert sqlanon.validate(config(), db=db)["rows"] == 300
        assert session_state(con) == before
    finally:
        con.close()


def test_a_table_in_an_in_memory_duckdb_database() -> None:
    con = duckdb.connect(":memory:")
    fill(con)
    result = sqlanon.anonymize(config(), db=con, dry_run=True)
    assert result.status == "dry_run"
    assert result.to_dict()["database"] == "duckdb:///:memory: (open connection)"
    # The database outlives the run, so sqlanon's temporary tables are dropped here as on a file.
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone()[0] == 0
    result = sqlanon.anonymize(config(), db=con)
    assert con.execute("SELECT count(*) FROM people_out").fetchone()[0] == 300 - result.suppressed_rows
    con.close()


def test_a_duckdb_connection_in_a_transaction_is_refused() -> None:
    con = duckdb.connect(":memory:")
    fill(con)
    con.begin()
    with pytest.raises(ConfigError, match="^db: the DuckDB connection has an open transaction; commit or roll it"):
        sqlanon.anonymize(config(), db=con)
    con.rollback()
    con.close()


def test_a_closed_duckdb_connection_is_refused() -> None:
    con = duckdb.connect(":memory:")
    con.close()
    with pytest.raises(ConfigError, match="^db: the DuckDB connection cannot be used"):
        sqlanon.anonymize(config(), db=con)


@pytest.mark.parametrize("autocommit", [False, True])
def test_a_psycopg_connection_must_be_idle_in_autocommit_mode(postgres_server_url: str, autocommit: bool) -> None:
    import psycopg

    con = psycopg.connect(postgres_server_url, autocommit=autocommit)
    try:
        if autocommit:
            con.execute("BEGIN")  # a transaction opened by hand
        with pytest.raises(ConfigError, match="^db: the psycopg connection must be in autocommit mode"):
            sqlanon.anonymize(config(), db=con)
    finally:
        con.close()
    with pytest.raises(ConfigError, match="^db: the psycopg connection is closed$"):
        sqlanon.anonymize(config(), db=con)


@pytest.mark.parametrize("db", [42, b"duckdb:///:memory:", object()])
def test_db_must_be_a_url_or_a_connection(db: Any) -> None:
    with pytest.raises(ConfigError, match=r"^db: expected a database URL or an open DuckDB, psycopg or "
                                          rf"SparkSession connection, not a {type(db).__name__}$"):
        sqlanon.anonymize(config(), db=db)


def test_connecting_again_to_record_a_failure_keeps_the_callers_settings(postgres_server_url: str) -> None:
    """``fresh()`` of a borrowed adapter is the adapter itself; connecting it again must not take sqlanon's
    settings for the caller's."""
    import psycopg

    from sqlanon.engines import adapter_for

    con = psycopg.connect(postgres_server_url, autocommit=True)
    try:
        adapter = adapter_for(con)
        adapter.connect()
        again = adapter.fresh()
        assert again is adapter
        again.connect()
        again.close()
        assert con.execute("SELECT current_setting('enable_mergejoin')").fetchone()[0] == "on"
        assert not con.closed
    finally:
        con.close()


def test_every_engine_in_the_registry_builds_its_adapter_by_name() -> None:
    """The registry's table names each adapter as module:Class, imported only when chosen; every row must
    name a class that builds itself from a URL and from an open connection, and is found again by its class."""
    from sqlanon.engines.base import EngineAdapter
    from sqlanon.engines.registry import ENGINES, entry_for_class, load

    for entry in ENGINES:
        cls = load(entry.adapter)
        assert issubclass(cls, EngineAdapter) and entry_for_class(cls) is entry
        assert cls.from_url is not EngineAdapter.from_url and cls.borrowing is not EngineAdapter.borrowing
    assert entry_for_class(EngineAdapter) is None


def test_drivers_meet_the_dbapi_contract(tmp_path: Path) -> None:
    """The DB-API-shaped contract a wrapper for an engine without a DB-API driver provides (engines/dbapi.py)
    is the one the real drivers meet: DuckDB's, and the standard library's sqlite3 as a plain PEP 249 one."""
    import sqlite3

    from sqlanon.engines.dbapi import DBAPIConnection, DBAPICursor

    for con in (duckdb.connect(str(tmp_path / "c.duckdb")), sqlite3.connect(":memory:")):
        try:
            assert isinstance(con, DBAPIConnection)
            cur = con.cursor()
            assert isinstance(cur, DBAPICursor)
            cur.execute("SELECT ? + 1", [1])
            assert cur.fetchall() == [(2,)] and cur.description[0][0] is not None
            cur.close()
        finally:
            con.close()
    assert not isinstance(object(), DBAPIConnection)


def test_psycopg_meets_the_dbapi_contract(postgres_server_url: str) -> None:
    import psycopg

    from sqlanon.engines.dbapi import DBAPIConnection, DBAPICursor

    with psycopg.connect(postgres_server_url, autocommit=True) as con:
        assert isinstance(con, DBAPIConnection) and isinstance(con.cursor(), DBAPICursor)
