"""The adapter seam between sqlanon and a database engine.

Engine differences are data: capability flags on the adapter class and override templates in
``sql/<engine>/`` (same relative path as in ``sql/common/``). Modelled after SQLMesh's engine adapters.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from ..errors import EngineError
from ..identifiers import Relation, SpelledName
from ..templates import render_macro, render_template

_T = TypeVar("_T")

_MARKER = re.compile("\x00(\\d+)\x00")


class EngineAdapter:
    """A DB-API connection plus everything engine-specific sqlanon needs."""

    #: Name used for template overrides (``sql/<name>/``) and golden SQL snapshots.
    name: ClassVar[str] = "base"
    # Capabilities, each read where named: an engine without one gets the weaker way, documented there.
    #: BEGIN/COMMIT/ROLLBACK group statements; without, ``transaction`` runs the block statement by statement.
    SUPPORTS_TRANSACTIONS: ClassVar[bool] = True
    #: CREATE/ALTER/DROP TABLE take part in transactions: the output is published by a rename in the
    #: transaction that drops the old table (``output/writer.py``, strategy 1).
    SUPPORTS_TRANSACTIONAL_DDL: ClassVar[bool] = True
    #: ``CREATE OR REPLACE TABLE ... AS`` replaces a table atomically in one statement: the output's publication
    #: where DDL is not transactional (``output/writer.py``, strategy 2; else a staged swap, strategy 3).
    SUPPORTS_REPLACE_TABLE: ClassVar[bool] = False
    #: Session-private temporary tables exist and vanish when the connection ends: scratch tables are created
    #: so (``sql/common/macros/scratch.sql.j2``); without, they are plain tables the session drops at its end.
    SUPPORTS_TEMPORARY_TABLES: ClassVar[bool] = True
    #: Tables take UPDATE and DELETE; without, the run history records a run's end as a second row
    #: (``history/runs.py``). Scratch tables take them on every engine (Spark's: ``spark_rewrite.py``).
    SUPPORTS_UPDATES: ClassVar[bool] = True
    #: The engine can read a CSV file on the client's disk itself (``source.csv``).
    SUPPORTS_CSV_SOURCE: ClassVar[bool] = False
    #: A release's rows are grouped on their raw values before the hierarchy lookups are joined
    #: (``release_kinds.sql.j2``): where a join to a lookup costs more per row than grouping on text columns.
    #: PostgreSQL: 8 joins to 10 M rows took 13 of 15 s; DuckDB: grouping 100 M rows on 9 text columns took
    #: 32 s against 7 s for joining first (benchmarks/README.md).
    GROUPS_BEFORE_LOOKUPS: ClassVar[bool] = False
    #: Type names (as ``pg_typeof`` prints them, without ``[]``) that GROUP BY cannot group, having no equality:
    #: a release that copies such a column is written by sorting every row (``write_output.sql.j2``) instead
    #: of by its kinds (``release_kinds.sql.j2``).
    UNGROUPABLE_TYPES: ClassVar[frozenset[str]] = frozenset()
    #: Placeholder the DB-API driver expects for one positional bind parameter.
    PLACEHOLDER: ClassVar[str] = "?"
    #: The character that quotes an identifier (standard SQL's double quote).
    IDENTIFIER_QUOTE: ClassVar[str] = '"'
    #: What is not SQL to look into (``display_sql``): string literals, quoted identifiers, comments.
    QUOTED_TEXT: ClassVar[str] = r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/"
    # The generalization method's node query tuning is not the adapter's: ``sqlanon/evaluation/tuning.py``.

    def __init__(self, url: str, display_url: str) -> None:
        self.url = url
        self.display_url = display_url
        self.statements = 0
        self.seconds_in_sql = 0.0
        #: The connection is the caller's (``Session(..., db=connection)``): sqlanon neither opens nor closes
        #: it, restores what it changed and drops every table it created, whatever the database.
        self.borrowed = False

    # -- connection -------------------------------------------------------------------------------
    @classmethod
    def from_url(cls, url: str, display_url: str, base_dir: Path | None, create: bool) -> EngineAdapter:
        """An unconnected adapter for a URL of this engine (``registry.adapter_for_url``): relative database
        files resolved against ``base_dir``; with ``create=False`` a missing database file is an error."""
        raise NotImplementedError  # pragma: no cover - abstract

    @classmethod
    def borrowing(cls, connection: Any) -> EngineAdapter:
        """An adapter on the caller's open connection of this engine's driver (``registry.adapter_for``)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def connect(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def fresh(self) -> EngineAdapter:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def ephemeral(self) -> bool:
        """The database disappears when the connection closes (DuckDB ``:memory:``): no run history there."""
        return False

    # -- quoting and rendering -----------------------------------------------------------------------
    @classmethod
    def quote_identifier(cls, name: str) -> str:
        """Quote one identifier in the engine's quote character (``IDENTIFIER_QUOTE``), embedded ones doubled.

        >>> EngineAdapter.quote_identifier('a "b";c')
        '"a ""b"";c"'
        """
        if "\x00" in name:
            raise EngineError("identifiers must not contain NUL characters")
        quote = cls.IDENTIFIER_QUOTE
        return quote + name.replace(quote, quote * 2) + quote

    def quote_qualified(self, parts: Sequence[str]) -> str:
        return ".".join(self.quote_identifier(p) for p in parts)

    def render(self, template: str, _kind: str = "sql", **context: Any) -> tuple[str, list[Any]]:
        """Render ``sql/.../template`` (or a migration) for this engine and return (sql, bind parameters)."""
        text, values = render_template(self, template, context, _kind)
        params: list[Any] = []

        def substitute(match: re.Match[str]) -> str:
            params.append(values[int(match.group(1))])
            return self.PLACEHOLDER

        return self._finalize_sql(_MARKER.sub(substitute, self._escape_sql(text))), params

    def render_macro(self, template: str, macro: str, *args: Any) -> str:
        """One macro of a template as SQL text for this engine (``templates.render_macro``), escaped as ``render``
        escapes a statement, so that it can be placed into one."""
        return self._escape_sql(render_macro(self, template, macro, *args))

    def display_sql(self, sql: str, params: Sequence[Any] = ()) -> str:
        """SQL as the server receives it, runnable as printed (``explain``): driver-specific escaping undone and
        each bind parameter written in place of its placeholder as an SQL literal (``sql_literal``).
        Placeholders are found outside string literals, quoted identifiers and comments."""
        values = list(params)
        used = 0

        def substitute(match: re.Match[str]) -> str:
            nonlocal used
            if match.group(0) != self.PLACEHOLDER:
                return match.group(0)  # a literal, quoted identifier or comment: as it is
            used += 1
            return self.sql_literal(values[used - 1])

        text = re.sub(self.QUOTED_TEXT + "|" + re.escape(self.PLACEHOLDER), substitute, sql, flags=re.DOTALL)
        if used != len(values):
            raise EngineError(f"explain: {used} placeholders for {len(values)} bind parameters")
        return text

    def sql_literal(self, value: Any) -> str:
        """A bind parameter's value as an SQL literal of the same type, for SQL shown to people (``display_sql``);
        statements that run keep their bind parameters."""
        import datetime
        import math
        from decimal import Decimal

        if value is None:
            return "NULL"
        if isinstance(value, bool):
            return "TRUE" if value else "FALSE"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):  # a bound float is a double; an unadorned 0.5 would be a decimal literal
            if math.isfinite(value):
                return f"CAST({value!r} AS DOUBLE PRECISION)"
            special = "NaN" if math.isnan(value) else "-Infinity" if value < 0 else "Infinity"
            return f"CAST('{special}' AS DOUBLE PRECISION)"
        if isinstance(value, Decimal) and value.is_finite():
            return str(value)
        if isinstance(value, datetime.datetime):
            kind = "TIMESTAMP" if value.tzinfo is None else "TIMESTAMP WITH TIME ZONE"
            return f"{kind} '{value.isoformat(sep=' ')}'"
        if isinstance(value, datetime.date):
            return f"DATE '{value.isoformat()}'"
        if isinstance(value, str) and "\x00" not in value:
            return "'" + value.replace("'", "''") + "'"
        raise EngineError(f"explain: cannot show a bind parameter of type {type(value).__name__} as SQL")

    def _escape_sql(self, text: str) -> str:
        """Escape characters the driver would treat specially (psycopg: ``%``)."""
        return text

    def _finalize_sql(self, text: str) -> str:
        return text

    # -- execution -------------------------------------------------------------------------------
    def run(self, template: str, **context: Any) -> list[tuple[Any, ...]]:
        """Run a template: render it and execute the statement; return all rows (empty for statements). On an
        adapter "run" always means this; a run of sqlanon (``sqlanon/run.py``) is one ``anonymize`` or ``apply``."""
        sql, params = self.render(template, **context)
        return self.execute(sql, params)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._timed(self._execute, sql, params)

    def _timed(self, run: Callable[[str, Sequence[Any]], _T], sql: str, params: Sequence[Any]) -> _T:
        """One statement run by ``run``, counted and timed (every statement goes through here)."""
        start = time.perf_counter()
        self.statements += 1
        try:
            return run(sql, params)
        finally:
            self.seconds_in_sql += time.perf_counter() - start

    def _execute(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:  # pragma: no cover
        raise NotImplementedError

    def _execute_rowcount(self, sql: str, params: Sequence[Any]) -> int | None:
        """Run one statement; the rows it reports having written, None where the engine reports none."""
        self._execute(sql, params)
        return None

    def create_counted(self, template: str, table: str, **context: Any) -> int:
        """Run a template that creates the new table ``table`` from a query, and return its rows: as the
        statement reports them where the engine does (PostgreSQL's CREATE TABLE ... AS), else counted."""
        sql, params = self.render(template, table=table, **context)
        rows = self._timed(self._execute_rowcount, sql, params)
        return int(rows) if rows is not None else int(self.run("count_table.sql.j2", table=(table,))[0][0])

    def execute_prepared(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """Execute ``sql`` (rendered with placeholders), prepared once per text and connection where the
        engine does that (the node query tuning's ``PREPARED_NODE_QUERIES`` says where it is worth it)."""
        return self.execute(sql, params)

    def drop_tables(self, tables: Sequence[str]) -> None:
        """Drop these tables (unqualified names of sqlanon's temporary tables) where they exist, in one round
        trip (``drop_tables.sql.j2``)."""
        if tables:
            self.run("drop_tables.sql.j2", tables=list(tables))

    def bulk_insert(self, table: str, columns: int, rows: Sequence[Sequence[Any]]) -> None:
        """Insert many rows of configuration data (hierarchies) into ``table`` (already quoted)."""
        chunk = max(1, 2000 // max(columns, 1))
        for start in range(0, len(rows), chunk):
            part = rows[start : start + chunk]
            one = "(" + ", ".join([self.PLACEHOLDER] * columns) + ")"
            sql = f"INSERT INTO {table} VALUES " + ", ".join([one] * len(part))
            self.execute(sql, [v for row in part for v in row])

    def create_coded_tables(self, batch: Sequence[Any], staging: str | None = None) -> None:
        """Create and fill the coded tables of hierarchies coded in Python (``hierarchy.loading.CodedRows``:
        table, height, rows), here one after another; ``staging``: a name for a temporary table an engine
        may fill with all of them first (registered for removal by the caller)."""
        for coded in batch:
            self.run("create_coded_table.sql.j2", table=coded.table, height=coded.height)
            self.bulk_insert(self.quote_identifier(coded.table), 2 + 3 * coded.height, coded.rows)

    def stage_csv(self, table: str, data: bytes, delimiter: str, columns: int) -> bool:
        """Copy a plain hierarchy file's fields into the new temporary table ``table`` (text columns c0 ..,
        '' for an empty field) where the database cannot read the file itself; False where it can
        (``macros/csv.sql.j2`` then reads the path). Raises EngineError when the database rejects the file."""
        return False

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Run the block in one transaction; roll back on any exception, KeyboardInterrupt included. Without
        ``SUPPORTS_TRANSACTIONS`` the block runs as it is, each statement on its own: callers that need more
        than that read the flags themselves (the writer)."""
        if not self.SUPPORTS_TRANSACTIONS:
            yield
            return
        self.execute("BEGIN")
        try:
            yield
        except BaseException:
            try:
                self.execute("ROLLBACK")
            except Exception:  # the connection may be gone; the server rolls back on disconnect
                pass
            raise
        self.execute("COMMIT")

    # Session settings by the size and kind of work, for any method's statements (the verifier and ``check``
    # use aggregate_settings too); the node queries' own are the tuning's (``evaluation/tuning.py``).
    def estimated_rows(self, source: Sequence[str]) -> int | None:
        """The engine's estimate of a table's rows, without reading them; None where it has none cheaper than a
        count (``count_rows.sql.j2``)."""
        return None

    def settings_for_data(self, rows: int | None) -> None:
        """Settings for the rest of a run whose source has ``rows`` rows (None: not counted yet), restored by
        ``close`` (none here)."""

    @contextmanager
    def aggregate_settings(self, parallel: bool = False, hashed: bool = False,
                           many_groups: bool = False) -> Iterator[None]:
        """Session settings for aggregates of whole tables (building the frequency set and its copies,
        verifying a written table, checking a published one), restored afterwards (none here).
        ``parallel``: the statement may group in parallel workers, hashing (a release's classes, the source's
        grouping); ``many_groups``: its groups are nearly as many as its rows (the source's grouping).
        ``hashed``: it groups by hashing, not sorting (a release's kinds)."""
        yield

    # -- catalog -------------------------------------------------------------------------------
    def column_names(self, table: Sequence[str]) -> list[str]:
        """Column names of a table, in order (``SELECT * ... LIMIT 0`` respects the search path)."""
        raise NotImplementedError  # pragma: no cover

    def resolve_relation(self, name: SpelledName) -> Relation:
        """What ``name`` denotes here, by the engine's own rules for case, quoting, default schema and search
        path: the existing relation it would read, or where a CREATE TABLE would put it. Raises ConfigError
        for a name the engine could not use (another database, an ambiguous part)."""
        raise NotImplementedError  # pragma: no cover

    def resolve_schema(self, name: SpelledName) -> str:
        """The exact name of the schema a one-part name denotes here, by the same rules as ``resolve_relation``
        (an existing schema's own spelling; else the name a CREATE SCHEMA would give it)."""
        raise NotImplementedError  # pragma: no cover

    def dependants(self, relation: Relation) -> list[tuple[str, str]]:
        """(name, kind) of what would make a DROP TABLE of the existing ``relation`` fail: views reading it
        where the engine binds them to the table, foreign keys referencing it."""
        raise NotImplementedError  # pragma: no cover

    def tables_read(self, relation: Relation) -> list[tuple[str, ...]]:
        """The keys (as ``Relation.key``) of every relation that reading the view ``relation`` reads, through
        the views it reads in turn; empty for a table. A run reads these too, so its output may replace none."""
        raise NotImplementedError  # pragma: no cover

    def history_exists(self, schema: str) -> bool:
        """Whether the run history's version table exists in ``schema``, read in a way that cannot fail (a
        failed statement would end the transaction an upgrade reads it in)."""
        return int(self.run("history/history_version.sql.j2", schema=schema)[0][0]) > 0

    def table_exists(self, table: Sequence[str]) -> bool:
        try:
            self.column_names(table)
        except EngineError:
            return False
        return True

    def set_random_seed(self, seed: float) -> None:
        """Seed ``random()`` for this session (value in [-1, 1])."""
        self.execute("SELECT setseed(" + self.PLACEHOLDER + ")", [seed])
