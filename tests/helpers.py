"""Test helpers: a small handle on a test database of either engine, config writing, node query tunings for tiny
tables, and the people table."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from sqlanon.engines.duckdb_tuning import DuckDBNodeQueryTuning
from sqlanon.engines.postgres_tuning import PostgresNodeQueryTuning
from sqlanon.evaluation import rollup, slicing

#: The repository's root (tests live at any depth below ``tests/``; paths are taken from here).
REPO = Path(__file__).resolve().parent.parent


@dataclass
class Engine:
    """A test database: its URL for sqlanon and a raw DB-API connection for setup and assertions."""

    name: str
    url: str
    con: Any
    _admin_url: str | None = None
    _dbname: str | None = None
    extra: dict = field(default_factory=dict)

    @classmethod
    def duckdb(cls, path: Path) -> Engine:

        # sqlanon opens the file itself, so the test connection is opened per use (DuckDB locks files).
        return cls("duckdb", f"duckdb:///{path}", None, extra={"path": str(path)})

    @classmethod
    def spark_database(cls, spark: Any, dbname: str) -> Engine:
        """A fresh schema of the test run's one Spark session (``spark_session``): sqlanon's adapter finds
        the session active in this process and uses it, with ``database`` as its current schema."""
        # The run history's default schema is the catalog's, not the test's: a fresh database of the other engines
        # has none, so neither does this one (another test's runs may have made it).
        spark.sql("DROP DATABASE IF EXISTS sqlanon CASCADE")
        before = {d.name for d in spark.catalog.listDatabases()}
        spark.sql(f"CREATE DATABASE `{dbname}`")
        spark.sql(f"USE `{dbname}`")
        return cls("spark", f"spark:///?database={dbname}", spark, _dbname=dbname, extra={"schemas": before})

    @classmethod
    def postgres_database(cls, server_url: str, dbname: str) -> Engine:
        import psycopg

        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{dbname}"')
        db_url = _with_database(server_url, dbname)
        con = psycopg.connect(db_url, autocommit=True)
        sa_url = db_url.replace("postgresql://", "postgresql+psycopg://", 1)
        return cls("postgres", sa_url, con, _admin_url=server_url, _dbname=dbname)

    # -- raw access ---------------------------------------------------------------------------
    def _connect(self):
        if self.name == "duckdb":
            import duckdb

            return duckdb.connect(self.extra["path"])
        return self.con

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple]:
        """Run SQL with ``?`` placeholders and double-quoted identifiers on any engine."""
        if self.name == "spark":
            return self._spark_execute(spark_sql(sql), list(params or []))
        con = self._connect()
        try:
            if self.name == "postgres":
                sql = sql.replace("%", "%%").replace("?", "%s")
            cur = con.execute(sql, list(params) if params else None) if params else con.execute(sql)
            return cur.fetchall() if cur.description else []
        finally:
            if self.name == "duckdb":
                con.close()

    def _spark_execute(self, sql: str, params: list[Any]) -> list[tuple]:
        """A statement on Spark; an UPDATE or DELETE of a table (tampering with an output: Spark's parquet
        tables take neither) as the table rebuilt from the query of the rows it leaves, the adapter's rewrite."""
        from sqlanon.engines import spark_rewrite

        changed = spark_rewrite.target(sql)
        if changed is not None:
            columns = [(quote_spark(f.name), f.dataType.simpleString()) for f in self.con.table(changed).schema]
            copy = quote_spark(f"tampered_{secrets.token_hex(4)}")
            self.con.sql(f"CREATE TABLE {copy} AS {spark_rewrite.rewrite(sql, columns)}", args=params or None).collect()
            self.con.sql(f"DROP TABLE {changed}").collect()
            self.con.sql(f"ALTER TABLE {copy} RENAME TO {changed}").collect()
            return []
        return [tuple(r) for r in self.con.sql(sql, args=params or None).collect()]

    def create_table(self, name: str, columns: dict[str, str], rows: Sequence[Sequence[Any]]) -> None:
        """CREATE TABLE with quoted identifiers and insert rows with bind parameters. The table's checksum is
        kept: the fixtures assert at teardown that no run changed it (``assert_sources_unchanged``)."""
        self._create_table(name, columns, rows)
        self.extra.setdefault("sources", {})[name] = self.checksum(name)

    def checksum(self, name: str) -> str | None:
        """A digest of every row of the table (sorted), None when it does not exist."""
        import hashlib

        try:
            rows = self.execute(f"SELECT * FROM {quote(name)}")
        except Exception:  # noqa: BLE001 - dropped by the test itself
            return None
        return hashlib.sha256("\n".join(sorted(map(repr, rows))).encode()).hexdigest()

    def assert_sources_unchanged(self) -> None:
        changed = [name for name, digest in self.extra.get("sources", {}).items() if self.checksum(name) != digest]
        assert not changed, f"tables created as test data were changed by a run: {changed}"

    def _create_table(self, name: str, columns: dict[str, str], rows: Sequence[Sequence[Any]]) -> None:
        q = quote
        self.execute(f"CREATE TABLE {q(name)} (" + ", ".join(f"{q(c)} {t}" for c, t in columns.items()) + ")")
        if rows and self.name == "spark":
            # Each chunk one file (COALESCE(1)): a small table reads back in the order it was inserted, as the
            # tests of the release's row order take for granted on every engine.
            # The casts are INSERT ... VALUES's own (a date from its text; INSERT ... SELECT casts only safely).
            typed = ", ".join(f"CAST(col{i} AS {t})" for i, t in enumerate(columns.values(), start=1))
            for start in range(0, len(rows), 500):
                part = rows[start:start + 500]
                one = "(" + ", ".join(["?"] * len(columns)) + ")"
                self.execute(f"INSERT INTO {q(name)} SELECT /*+ COALESCE(1) */ {typed} FROM VALUES "
                             + ", ".join([one] * len(part)), [v for r in part for v in r])
        elif rows:
            con = self._connect()
            try:
                placeholders = ", ".join(["?" if self.name == "duckdb" else "%s"] * len(columns))
                sql = f"INSERT INTO {q(name)} VALUES ({placeholders})"
                if self.name == "postgres":
                    with con.cursor() as cur:
                        cur.executemany(sql.replace("%s", "%s"), [list(r) for r in rows])
                else:
                    con.executemany(sql, [list(r) for r in rows])
            finally:
                if self.name == "duckdb":
                    con.close()

    def columns(self, table: str) -> list[tuple[str, str]]:
        """A table's (column name, type name) in order, by the engine's catalog (Spark has no information_schema)."""
        if self.name == "spark":
            return [(f.name, f.dataType.simpleString()) for f in self.con.table(spark_sql(quote(table))).schema]
        return [tuple(r) for r in self.execute(  # type: ignore[misc]
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
            "ORDER BY ordinal_position", [table])]

    def tables(self) -> set[str]:
        """Names of all tables visible to a new session (temporary tables of other sessions and sqlanon's run
        history schema excluded; tests/unit/history/test_history.py looks at the history)."""
        if self.name == "duckdb":
            rows = self.execute("SELECT table_name FROM information_schema.tables WHERE table_schema <> 'sqlanon'")
        elif self.name == "spark":
            return {r.tableName for r in self.con.sql(f"SHOW TABLES IN `{self._dbname}`").collect()
                    if not r.isTemporary}
        else:
            rows = self.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema NOT IN "
                "('pg_catalog', 'information_schema', 'sqlanon') AND table_schema NOT LIKE 'pg_temp%'"
            )
        return {r[0] for r in rows}

    def schemas(self) -> set[str]:
        """Names of the schemas of the database (Spark: of its session catalog)."""
        if self.name == "spark":
            return {d.name for d in self.con.catalog.listDatabases()}
        return {r[0] for r in self.execute("SELECT schema_name FROM information_schema.schemata")}

    @property
    def schema(self) -> str:
        """The schema unqualified names are created in: DuckDB's main, PostgreSQL's public, the test's on Spark."""
        return {"duckdb": "main", "postgres": "public"}.get(self.name, self._dbname or "")

    @property
    def catalog(self) -> str:
        """The catalog part of a three-part name: DuckDB's database (the file's stem), PostgreSQL's database,
        Spark's session catalog."""
        query = "SELECT current_catalog()" if self.name == "spark" else "SELECT current_database()"
        return self.execute(query)[0][0]

    def close(self) -> None:
        if self.name == "spark":
            # Schemas are the catalog's, shared by the tests of the run: the test's own (its database) and
            # those it made (a history schema) go with it.
            self.con.sql("USE default")
            for schema in {d.name for d in self.con.catalog.listDatabases()} - self.extra["schemas"]:
                self.con.sql(f"DROP DATABASE IF EXISTS `{schema}` CASCADE")
            for view in self.con.catalog.listTables():  # scratch views a failed test's run left
                if view.isTemporary:
                    self.con.catalog.dropTempView(view.name)
            self.con = None
            return
        if self.con is not None:
            self.con.close()
            self.con = None

    def drop_database(self) -> None:
        if self._admin_url and self._dbname:
            import psycopg

            with psycopg.connect(self._admin_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self._dbname}" WITH (FORCE)')


class SparkConnection:
    """The test run's SparkSession behind the few DB-API calls the connection tests make (``execute``, ``fetchall``,
    ``fetchone``, ``close``); ``session`` is what sqlanon is handed as ``db=``."""

    def __init__(self, session: Any) -> None:
        self.session, self._rows = session, []

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> SparkConnection:
        frame = self.session.sql(sql, args=list(params)) if params else self.session.sql(sql)
        self._rows = [tuple(r) for r in frame.collect()]
        return self

    def fetchall(self) -> list[tuple]:
        return self._rows

    def fetchone(self) -> tuple | None:
        return self._rows[0] if self._rows else None

    def close(self) -> None:
        """The session is the test run's: it stays open."""


def on_engines(*names: str) -> pytest.MarkDecorator:
    """The ``engine`` fixture on these engines only (a test of one engine's settings, or of what another engine
    lacks: PostgreSQL's search path, foreign keys)."""
    return pytest.mark.parametrize("engine", names, indirect=True)


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def quote_spark(name: str) -> str:
    from sqlanon.engines.spark import SparkAdapter

    return SparkAdapter.quote_identifier(name)


def spark_sql(sql: str) -> str:
    """A test's SQL for Spark: double-quoted identifiers in backticks, type names in Spark's spelling."""
    import re

    from sqlanon.engines.spark import SparkAdapter

    def backticks(match: re.Match[str]) -> str:
        text = match.group(0)
        if not text.startswith('"'):
            return text
        return SparkAdapter.quote_identifier(text[1:-1].replace('""', '"'))

    quoted = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"]|\"\")*\"", backticks, sql)
    return SparkAdapter("spark:", "spark:")._finalize_sql(quoted)


def _with_database(url: str, dbname: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(database=dbname).render_as_string(hide_password=False)


def sigint_as_usual() -> None:
    """``preexec_fn`` of a CLI process that a test interrupts with SIGINT: the default disposition, even when the
    suite itself was started in the background, where the shell makes its jobs ignore SIGINT and the children
    would inherit that (then Python raises no KeyboardInterrupt and the Ctrl-C tests would see nothing)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def write_config(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def invoke(*args: Any) -> Any:
    """Run the CLI in-process (click's CliRunner); stdout and stderr are kept apart (click >= 8.2).

    An exception other than SystemExit escaping the CLI is a crash, whatever the exit code; so is a traceback.
    """
    from click.testing import CliRunner

    from sqlanon.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"uncaught {result.exception!r}\n{result.output}"
    )
    assert "Traceback" not in result.output
    return result


def one_json_object(stdout: str) -> dict[str, Any]:
    """stdout holds exactly one JSON object (one line) and nothing else."""
    import json

    text = stdout.strip()
    assert text.startswith("{") and "\n" not in text, f"not exactly one JSON object on stdout:\n{stdout}"
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def prepare(session: Any) -> Any:
    """Generalization's prepared data on an open session (``PreparedData``), its ConfigErrors naming the config
    file as a run's do: for tests of the frequency set, the lattice and the node evaluator."""
    from sqlanon.errors import ConfigError
    from sqlanon.methods.generalization.preparation import Preparation

    try:
        return Preparation(session).prepare()
    except ConfigError as exc:
        raise session.named(exc) from None


# -- node query tunings made to apply to the tiny tables of the property tests -----------------------


def rolled_up_everywhere(mp: pytest.MonkeyPatch) -> None:
    """Rolled-up code tables (rollup.py) for any code table, kept whatever their size (PostgreSQL's flag)."""
    for name, value in (("MIN_ROWS", 0), ("MAX_ROWS", 10**9), ("MAX_DENSITY", 1e9), ("KEEP_SHARE", 1e9)):
        mp.setattr(rollup, name, value)


@contextlib.contextmanager
def sliced_everywhere(parts: int, max_share: float, rolled_up: bool = False, by_ranges: bool = True) -> Iterator[None]:
    """Sliced feasibility checks (slicing.py) on both engines and on the tiny tables of these tests: any code
    table is worth slicing, in ``parts`` parts, by the shortest prefix whose largest slice holds at most
    ``max_share`` of the rows (0: none does, so the most even prefix is taken); with ``rolled_up``, rolled-up
    code tables too, which serve the nodes above their levels instead. PostgreSQL reads a part by its range
    of row positions (create_part_ranges.sql.j2) unless ``by_ranges`` is false (then through an index)."""
    with pytest.MonkeyPatch.context() as mp:
        for name, value in (("PARTS", parts), ("MIN_ROWS", 0), ("MIN_EXCESS", 0.0), ("MAX_SHARE", max_share),
                            ("ACCEPTED_SHARE", 1.0)):
            mp.setattr(slicing, name, value)
        for tuning in (DuckDBNodeQueryTuning, PostgresNodeQueryTuning):
            mp.setattr(tuning, "CODE_TABLE", True)
            mp.setattr(tuning, "SLICED_CHECKS", True)
            mp.setattr(tuning, "ROLLUPS", rolled_up)
        mp.setattr(PostgresNodeQueryTuning, "PART_RANGES", by_ranges)
        if rolled_up:
            rolled_up_everywhere(mp)
        yield


# -- the people table: the example of the CLI, history and report tests ----------------------------


def people_rows() -> list[tuple]:
    """60 rows; 27 (age, sex) classes of exactly 2, plus one class (NULL, 'M') of 6."""
    return [
        (i, None if i % 10 == 0 else 20 + i % 30, "M" if i % 2 == 0 else "F", f"{10000 + (i % 30) * 7:05d}",
         f"person {i}")
        for i in range(60)
    ]


def make_people(engine: Engine, name: str = "people") -> None:
    engine.create_table(
        name,
        {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "zip": "VARCHAR", "name": "VARCHAR"},
        people_rows(),
    )


def people_config(url: str | None, *, output: str = "people_out", **privacy: Any) -> dict[str, Any]:
    return {
        "source": {"url": url, "table": "people"} if url else {"table": "people"},
        "output": {"table": output},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "zip": {"role": "quasi_identifier", "hierarchy": {"mask": {"length": 5}}, "max_level": 3},
            "name": {"role": "ignore"},
        },
        "privacy": {"k": 3, "suppression_limit": 0.1, **privacy},
    }


# -- tampering with a written table (the verifiers must be able to fail) -----------------------------------


def rewrite(adapter: Any, target: tuple[str, ...], update: str) -> None:
    """``UPDATE {out} SET c = e, ... WHERE p`` on an engine whose tables take no UPDATE (Spark's parquet
    tables): the table written again with CASE WHEN p THEN e ELSE c END per column, under its own name."""
    import re

    match = re.fullmatch(r"UPDATE \{out\} SET (.*) WHERE (.*)", update, re.DOTALL)
    assert match, update
    changes = dict(re.findall(r"(\w+) = ((?:[^,']|'[^']*')+)(?:, |$)", match.group(1)))
    columns = adapter.column_names(target)
    select = ", ".join(
        f"CASE WHEN {match.group(2)} THEN {changes[c]} ELSE {adapter.quote_identifier(c)} END AS "
        f"{adapter.quote_identifier(c)}" if c in changes else adapter.quote_identifier(c) for c in columns)
    staged = (*target[:-1], target[-1] + "_tampered")
    adapter.execute(f"CREATE TABLE {adapter.quote_qualified(staged)} AS SELECT {select} "
                    f"FROM {adapter.quote_qualified(target)}")
    adapter.execute(f"DROP TABLE {adapter.quote_qualified(target)}")
    adapter.execute(f"ALTER TABLE {adapter.quote_qualified(staged)} RENAME TO {adapter.quote_identifier(target[-1])}")


@contextlib.contextmanager
def tampering(monkeypatch: pytest.MonkeyPatch, *statements: str) -> Iterator[None]:
    """Run ``statements`` (with ``{out}`` for the written table) right after the write, before the
    verification reads the table (in the publishing transaction where there is one): the verification is
    handed a table that the search did not produce."""
    from sqlanon import run

    original = run._verify

    def tamper_then_verify(adapter, method, release, table):
        for statement in statements:
            if adapter.SUPPORTS_TRANSACTIONS:
                adapter.execute(statement.format(out=adapter.quote_qualified(table)))
            else:
                rewrite(adapter, table, statement)
        return original(adapter, method, release, table)

    monkeypatch.setattr(run, "_verify", tamper_then_verify)
    yield
    monkeypatch.setattr(run, "_verify", original)
