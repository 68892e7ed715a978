"""PostgreSQL through psycopg 3, the first server engine."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ConfigError, EngineError, InputError
from ..identifiers import Relation, SpelledName
from .base import EngineAdapter

#: pg_class.relkind -> what sqlanon calls it (anything else, e.g. a sequence, is never a source or output).
_RELKINDS = {"r": "table", "p": "table", "v": "view", "m": "view", "f": "foreign table"}


def _fold(part: str) -> str:
    """An unquoted identifier as PostgreSQL folds it: ASCII letters to lower case, nothing else.

    >>> _fold('Adult_ÄB')
    'adult_Äb'
    """
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in part)

_T = TypeVar("_T")

#: Settings of sqlanon's sessions; an option of the same name in the URL (-c name=value) wins.
SESSION_SETTINGS = {
    # Node queries scan the frequency set (a temporary table) again and again; with the default 8 MB of local
    # buffers a CUP-sized one (32 MB) is re-read through the OS each time. A cap, allocated only as temporary
    # tables fill it.
    "temp_buffers": "256MB",
    # The lookup tables are never analyzed (statistics on them made the planner underestimate the write-back
    # a thousandfold, see benchmarks/README.md), so a join of the data with a large hierarchy is estimated
    # at millions of rows and planned as a merge join with external sorts. A hash join is what these joins
    # of a table with its lookups want. A planner preference, not a ban: merge joins stay possible.
    "enable_mergejoin": "off",
}


#: work_mem for aggregates over whole tables: the frequency set's build, a written table's verification
#: (``aggregate_settings``), in MB: at least this, ...
AGGREGATE_WORK_MEM_MB = 64
#: ... or this many bytes per row of the source where the run counted it (``settings_for_data``), up to
#: AGGREGATE_WORK_MEM_MAX_MB. A hash aggregate may use work_mem times hash_mem_multiplier (2 from PostgreSQL 15
#: on); grouping a source's rows on every column it reads holds about 140-150 bytes per distinct row (10 M
#: ADULT-shaped rows: 1.74 M distinct, 237 MB; 100 M: 6.79 M distinct, 1.04 GB). With 64 MB the 10 M-row
#: grouping spilled to disk in 5 batches (7.1 s), with 152 MB it ran in one (6.5 s); the 100 M-row one took
#: 255.8 s spilling with 256 MB and 79.3 s in one batch with 1 GB (benchmarks/README.md). A run is one batch
#: session on the server; a work_mem in the URL caps it.
AGGREGATE_WORK_MEM_PER_ROW = 16
AGGREGATE_WORK_MEM_MAX_MB = 1024

#: Settings for a whole-table aggregate grouped in parallel workers by hashing (``aggregate_settings`` with
#: ``parallel``; benchmarks/README.md). With ``parallel_tuple_cost`` 0.01 (default 0.1) the planner runs a
#: partial hash aggregate in each worker, merged by the leader; without sorts it hashes where it would sort
#: every row. Each worker may take work_mem too.
#: * A release's classes (the verification, ``check``): many rows into few groups, which the planner guesses at
#:   millions on a freshly written table (57,379 of 9.7 M rows at 10 M, guessed 351,520). The verification of a
#:   10 M-row release took 3.8 s against 7.3 s serial; at 100 M rows it otherwise sorted every row.
#: * The source's grouping: its groups are many (1.74 M of 10 M rows, 6.79 M of 100 M), so the partial
#:   aggregates pass on most of them, but with work_mem sized from the source's rows no process spills: 6.3-6.8 s
#:   against 7.1-8.0 s serial at 10 M rows, 58-65 s against 78-101 s at 100 M (slower once, when workers spilled).
PARALLEL_SETTINGS = {"parallel_tuple_cost": "0.01", "enable_sort": "off"}
#: ... and where the groups are nearly as many as the rows (``many_groups``: the source's grouping), without the
#: leader's own partial aggregate: each partial one passes on most of its rows to the leader, which merges them
#: alone, so the leader's own partial table is only more rows to merge and one more hash table on the server.
#: The verification's partial tables pass on few groups, so it keeps the leader scanning (the figures, both
#: ways: benchmarks/README.md, "The source's grouping without the leader's partial aggregate").
MANY_GROUPS_SETTINGS = {"parallel_leader_participation": "off"}


class PostgresAdapter(EngineAdapter):
    name = "postgres"
    PLACEHOLDER = "%s"
    GROUPS_BEFORE_LOOKUPS = True
    UNGROUPABLE_TYPES = frozenset({"json", "xml", "point", "line", "lseg", "box", "path", "polygon", "circle"})

    def __init__(self, conninfo: str, display_url: str) -> None:
        super().__init__(conninfo, display_url)
        self._con: Any = None
        self._restore: dict[str, str] = {}  # borrowed connection: settings changed, and their values before
        self._source_rows: int | None = None  # settings_for_data: sizes aggregate_settings' work_mem

    @classmethod
    def from_url(cls, url: str, display_url: str, base_dir: Path | None, create: bool) -> PostgresAdapter:
        """``base_dir`` and ``create`` concern database files; a server database is never created."""
        from urllib.parse import quote, urlencode

        from sqlalchemy.engine import make_url

        parsed = make_url(url)
        # The query is re-encoded with %20 for spaces: SQLAlchemy writes '+', which libpq keeps literally
        # (options=-c%20temp_buffers%3D64MB became the unknown setting "+temp_buffers").
        conninfo = parsed.set(drivername="postgresql", query={}).render_as_string(hide_password=False)
        if parsed.query:
            conninfo += "?" + urlencode(dict(parsed.query), doseq=True, quote_via=quote)
        return cls(conninfo, display_url)

    @classmethod
    def borrowing(cls, connection: Any) -> PostgresAdapter:
        """An adapter on the caller's open psycopg connection, which must be in autocommit mode: temporary
        tables must outlive single statements and the write-back is sqlanon's own transaction."""
        import psycopg

        if connection.closed:
            raise ConfigError("db: the psycopg connection is closed")
        if not connection.autocommit or connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            raise ConfigError(
                "db: the psycopg connection must be in autocommit mode with no open transaction "
                "(psycopg.connect(..., autocommit=True))"
            )
        info = connection.info
        display = f"postgresql://{info.user}@{info.host}:{info.port}/{info.dbname} (open connection)"
        adapter = cls(display, display)
        adapter._con, adapter.borrowed = connection, True
        return adapter

    def connect(self) -> None:
        import psycopg

        if self.borrowed:
            # The caller's session gets sqlanon's settings for the run and its own back at close, except
            # temp_buffers: it cannot change once the session has used a temporary table, so it would stay.
            # Connecting again (``fresh``, to record a failure) keeps the values first seen.
            for name, value in SESSION_SETTINGS.items():
                if name != "temp_buffers" and name not in self._restore:
                    self._restore[name] = self._con.execute(f"SELECT current_setting('{name}')").fetchone()[0]
                    self._con.execute("SELECT set_config(%s, %s, false)", [name, value])
            return
        try:
            # autocommit: temporary tables live for the session; write-back uses explicit BEGIN/COMMIT.
            self._con = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
            for name, value in SESSION_SETTINGS.items():
                if not self._url_sets(name):
                    self._con.execute(f"SET {name} = '{value}'")
        except psycopg.Error as exc:
            raise EngineError(f"cannot connect to {self.display_url}: {self._scrub(exc)}") from None

    @property
    def server_version(self) -> int | None:
        """The server's version as a number (140000: 14.0), None when not connected."""
        return None if self._con is None else int(self._con.info.server_version)

    def current_setting(self, name: str) -> str:
        """A setting's value in this session, read with a statement that is not counted (bookkeeping)."""
        return str(self._execute("SELECT current_setting(%s)", [name])[0][0])

    def fresh(self) -> PostgresAdapter:
        """An unconnected adapter for the same database (to record a failure after the connection broke)."""
        if self.borrowed:
            return self  # sqlanon has no credentials of the caller's connection
        return type(self)(self.url, self.display_url)

    def close(self) -> None:
        if self._con is None:
            return
        if not self.borrowed:
            self._con.close()
            self._con = None
            return
        try:
            for name, value in self._restore.items():
                self._con.execute("SELECT set_config(%s, %s, false)", [name, value])
        except Exception:  # noqa: BLE001 - the connection may be gone
            pass
        self._restore.clear()

    def _url_sets(self, name: str) -> bool:
        """Whether the connection URL sets this setting itself (``options=-c name=...``): the URL wins."""
        return name in self.url

    def estimated_rows(self, source: Sequence[str]) -> int | None:
        """The planner's estimate (``catalog/estimate_rows.sql.j2``): from the table's statistics, or its size."""
        plan = self.run("catalog/estimate_rows.sql.j2", source=source)[0][0]
        return int((json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]["Plan Rows"])

    def settings_for_data(self, rows: int | None) -> None:
        """Remember the source's rows: aggregate_settings sizes work_mem from them."""
        self._source_rows = rows

    def aggregate_work_mem(self) -> str:
        """work_mem for aggregates of whole tables: AGGREGATE_WORK_MEM_PER_ROW bytes per source row, within
        AGGREGATE_WORK_MEM_MB and AGGREGATE_WORK_MEM_MAX_MB."""
        by_rows = (self._source_rows or 0) * AGGREGATE_WORK_MEM_PER_ROW // (1024 * 1024)
        return f"{min(max(AGGREGATE_WORK_MEM_MB, by_rows), AGGREGATE_WORK_MEM_MAX_MB)}MB"

    @contextmanager
    def aggregate_settings(self, parallel: bool = False, hashed: bool = False,
                           many_groups: bool = False) -> Iterator[None]:
        """``work_mem`` for the statements (``aggregate_work_mem``, at least 64 MB): with 4 MB (the default)
        the planner sorts the classes of a freshly written, unanalyzed table on disk where a hash table fits, in
        the verification and in the frequency set's build and copies (CUP's code table sorted into parts, FARS's
        rolled-up tables), and the grouping of a large source's rows spills. Not for the whole session: the
        write-back's shuffle was no faster with it, and node queries keep the session's value.
        ``parallel``: parallel workers and hashing too (``PARALLEL_SETTINGS``), with ``many_groups`` without
        the leader's partial aggregate (``MANY_GROUPS_SETTINGS``). ``hashed``: hashing
        (``enable_sort`` off): a release's kinds grouped on the values of quasi-identifiers at level 0 were
        sorted on them (10 M rows: the statement sorted 1.74 M rows on seven text columns, 9.3 s; hashed,
        4.3 s). A setting in the URL wins."""
        wanted = {"work_mem": self.aggregate_work_mem()}
        if parallel:
            wanted.update(PARALLEL_SETTINGS)
            if many_groups:
                wanted.update(MANY_GROUPS_SETTINGS)
        if hashed:
            wanted["enable_sort"] = "off"
        wanted = {name: value for name, value in wanted.items() if not self._url_sets(name)}
        if not wanted:
            yield
            return
        reads = ", ".join("current_setting(%s)" for _ in wanted)
        before = dict(zip(wanted, self._execute(f"SELECT {reads}", list(wanted))[0], strict=True))
        self._set_configs(wanted)
        try:
            yield
        finally:
            try:
                self._set_configs(before)
            except Exception:  # noqa: BLE001 - the connection may be gone; the statement's own error is reported
                pass

    def _set_configs(self, values: dict[str, str]) -> None:
        """Session settings in one statement (one round trip however many)."""
        sets = ", ".join("set_config(%s, %s, false)" for _ in values)
        self._execute(f"SELECT {sets}", [part for item in values.items() for part in item])

    def _scrub(self, exc: BaseException) -> str:
        from sqlalchemy.engine import make_url

        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        url = make_url(self.url.replace("postgresql://", "postgresql+psycopg://", 1))
        secrets = [url.password] + [v for k, v in url.query.items() if k.lower() == "password"]
        for secret in secrets:
            for value in [secret] if isinstance(secret, str) else list(secret or ()):
                if value:
                    text = text.replace(value, "***")
        return text

    def display_sql(self, sql: str, params: Sequence[Any] = ()) -> str:
        # Every '%' of the text was doubled (``_escape_sql``), so a lone %s is a placeholder wherever it is.
        import re

        values = list(params)
        used = 0

        def substitute(match: Any) -> str:
            nonlocal used
            if match.group(0) == "%%":
                return "%"
            used += 1
            return self.sql_literal(values[used - 1])

        text = re.sub("%%|%s", substitute, sql)
        if used != len(values):
            raise EngineError(f"explain: {used} placeholders for {len(values)} bind parameters")
        return text

    def sql_literal(self, value: Any) -> str:
        # With standard_conforming_strings off, a backslash in '...' escapes; in E'...' it always does.
        if isinstance(value, str) and "\\" in value and "\x00" not in value:
            return "E'" + value.replace("\\", "\\\\").replace("'", "''") + "'"
        return super().sql_literal(value)

    def _escape_sql(self, text: str) -> str:
        # psycopg parses %-placeholders whenever parameters are passed; identifiers may contain '%'.
        return text.replace("%", "%%")

    def _execute(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        return self._cursor(sql, params, lambda cur: cur.fetchall() if cur.description else [])

    def _execute_rowcount(self, sql: str, params: Sequence[Any]) -> int | None:
        # CREATE TABLE ... AS reports its rows (the command tag SELECT n), so no pass over the new table
        # counts them.
        return self._cursor(sql, params, lambda cur: None if cur.rowcount < 0 else int(cur.rowcount))

    def _cursor(self, sql: str, params: Sequence[Any], result: Callable[[Any], _T]) -> _T:
        """Run one statement and return ``result`` of its cursor, with psycopg's errors as sqlanon's."""
        import psycopg

        try:
            cur = self._con.execute(sql, list(params)) if params else self._con.execute(sql.replace("%%", "%"))
            return result(cur)
        except (psycopg.errors.UndefinedTable, psycopg.errors.UndefinedColumn,
                psycopg.errors.InvalidSchemaName) as exc:
            raise InputError(f"{self.display_url}: {self._scrub(exc)}") from None
        except psycopg.errors.QueryCanceled:
            raise KeyboardInterrupt from None
        except psycopg.OperationalError as exc:
            if self._con.closed or isinstance(exc, psycopg.errors.AdminShutdown):
                # The server ended the session (restart, pg_terminate_backend, network): the open transaction
                # is rolled back by the server and temporary tables go with the session.
                raise EngineError(
                    f"lost the connection to {self.display_url} ({self._scrub(exc)}); nothing was written"
                ) from None
            raise EngineError(f"PostgreSQL error on {self.display_url}: {self._scrub(exc)}") from None
        except psycopg.Error as exc:
            raise EngineError(f"PostgreSQL error on {self.display_url}: {self._scrub(exc)}") from None

    def bulk_insert(self, table: str, columns: int, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        self.statements += 1
        with self._con.cursor() as cur, cur.copy(f"COPY {table} FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)

    def stage_csv(self, table: str, data: bytes, delimiter: str, columns: int) -> bool:
        # The file's bytes go to the server unparsed; it splits them faster than Python reads and copies
        # rows. Trailing line ends go: Python skips the empty rows they make, COPY rejects them. The table
        # is dropped again when the server rejects the file.
        self.run("create_csv_staging.sql.j2", table=table, columns=columns)
        names = [self.quote_identifier(f"c{j}") for j in range(columns)]
        quoted = self.quote_identifier(table)
        literal = "'" + delimiter.replace("'", "''") + "'"
        copy_sql = (f"COPY {quoted} FROM STDIN (FORMAT csv, DELIMITER {literal}, ENCODING 'UTF8', "
                    f"FORCE_NOT_NULL ({', '.join(names)}))")
        import psycopg

        self.statements += 1
        try:
            with self._con.cursor() as cur, cur.copy(copy_sql) as copy:
                copy.write(data.rstrip(b"\r\n"))
        except psycopg.Error as exc:
            message = f"PostgreSQL error on {self.display_url}: {self._scrub(exc)}"
            self.run("drop_table.sql.j2", table=(table,))
            raise EngineError(message) from None
        return True

    def resolve_relation(self, name: SpelledName) -> Relation:
        """PostgreSQL's rules: unquoted parts fold to lower case, quoted parts are exact; an unqualified name
        is resolved through the search_path by the server itself (``to_regclass``), and a new table of that
        name goes to ``current_schema()``. A catalog part must be the connected database."""
        parts = tuple(p if quoted else _fold(p) for p, quoted in zip(name.parts, name.quoted, strict=True))
        relative = parts[1:] if len(parts) == 3 else parts
        regclass = ".".join(self.quote_identifier(p) for p in relative)
        database, current, relkind, schema, table, owned, schema_exists, may_create = self.run(
            "catalog/find_relation.sql.j2", regclass=regclass, schema=relative[0] if len(relative) == 2 else None
        )[0]
        if len(parts) == 3 and parts[0] != database:
            raise ConfigError(f"table name {name.text!r}: {parts[0]!r} is not the connected database "
                              f"({database}); PostgreSQL reads tables of its own database only")
        if relkind is not None:
            exact, kind = (schema, table), _RELKINDS.get(relkind, "table")
            writable = bool(owned) and bool(may_create)
        else:
            exact, kind = (relative[0] if len(relative) == 2 else current, relative[-1]), None
            writable = None if may_create is None else bool(may_create)
        return Relation(spelled=name.text, parts=tuple(p for p in exact if p is not None),
                        key=tuple(p or "" for p in exact), kind=kind,
                        schema_exists=bool(schema_exists) or relkind is not None, writable=writable)

    def resolve_schema(self, name: SpelledName) -> str:
        return name.parts[-1] if name.quoted[-1] else _fold(name.parts[-1])

    def dependants(self, relation: Relation) -> list[tuple[str, str]]:
        regclass = ".".join(self.quote_identifier(p) for p in relation.parts)
        return [(str(r[0]), str(r[1])) for r in self.run("catalog/find_dependants.sql.j2", regclass=regclass)]

    def tables_read(self, relation: Relation) -> list[tuple[str, ...]]:
        """From pg_depend: a view's rewrite rule depends on every relation it references."""
        if relation.kind != "view":
            return []
        regclass = ".".join(self.quote_identifier(p) for p in relation.parts)
        return [(str(r[0]), str(r[1])) for r in self.run("catalog/find_tables_read.sql.j2", regclass=regclass)]

    def column_names(self, table: Sequence[str]) -> list[str]:
        import psycopg

        try:
            cur = self._con.execute(f"SELECT * FROM {self.quote_qualified(table)} LIMIT 0".replace("%", "%%"), [])
        except psycopg.Error as exc:
            raise EngineError(self._scrub(exc)) from None
        return [d.name for d in cur.description]
