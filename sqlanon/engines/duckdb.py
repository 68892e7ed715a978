"""DuckDB, the embedded default (a file or ``:memory:``)."""

from __future__ import annotations

import csv
import math
import os
import secrets
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import ConfigError, EngineError, InputError, WriteConflict
from ..identifiers import Relation, SpelledName
from .base import EngineAdapter
from .registry import parse_duckdb_url

#: Rows per row group of a DuckDB table (its default): a scan's unit of parallelism.
ROW_GROUP_ROWS = 122_880
#: Optimizer passes that the frequency set's build gains nothing from: it joins the grouped source with each
#: coded hierarchy on the value, and every value has exactly one row there, so the joins keep every row in any
#: order and no filter from a hierarchy's values removes one; ordering the joins and building the filters cost
#: planning time and a slower scan of the source.
LOOKUP_JOIN_IDLE_OPTIMIZERS = ("join_order", "join_filter_pushdown")


class DuckDBAdapter(EngineAdapter):
    name = "duckdb"
    SUPPORTS_CSV_SOURCE = True
    # Not used while DDL is transactional (the writer prefers that); true, and what tests of the writer's
    # second strategy run on.
    SUPPORTS_REPLACE_TABLE = True
    PLACEHOLDER = "?"

    def __init__(self, database: str, display_url: str, create: bool = True,
                 settings: dict[str, str] | None = None) -> None:
        super().__init__(database, display_url)
        self.database = database
        self.create = create
        self.settings = dict(settings or {})
        self._con: Any = None
        self._prepared: dict[str, str] = {}  # SQL text -> prepared statement name, per connection
        self._threads_before: int | None = None  # set by settings_for_data, restored by close
        self._optimizers: frozenset[str] | None = None  # the names this DuckDB knows (``_known_optimizers``)

    @classmethod
    def from_url(cls, url: str, display_url: str, base_dir: Path | None, create: bool) -> DuckDBAdapter:
        database, settings = parse_duckdb_url(url)
        if database != ":memory:" and base_dir is not None and not Path(database).is_absolute():
            database = str((base_dir / database).resolve())
        return cls(database, display_url, create=create, settings=settings)

    @classmethod
    def borrowing(cls, connection: Any) -> DuckDBAdapter:
        """An adapter on the caller's open connection (a ``duckdb.DuckDBPyConnection``)."""
        import duckdb

        try:
            path = connection.execute(
                "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
            ).fetchone()[0]
        except duckdb.Error as exc:
            raise ConfigError(f"db: the DuckDB connection cannot be used ({str(exc).splitlines()[0]})") from None
        database = path or ":memory:"
        adapter = cls(database, f"duckdb:///{database} (open connection)", create=False)
        adapter._con, adapter.borrowed = connection, True
        return adapter

    def connect(self) -> None:
        import duckdb

        if self.borrowed:
            # sqlanon's write-back is its own transaction, which DuckDB cannot open inside the caller's.
            try:
                self._con.execute("BEGIN")
            except duckdb.TransactionException:
                raise ConfigError(
                    "db: the DuckDB connection has an open transaction; commit or roll it back first"
                ) from None
            self._con.execute("ROLLBACK")
            return
        if not self.create and self.database != ":memory:" and not os.path.exists(self.database):
            # A mistyped path would otherwise silently create an empty database.
            raise ConfigError(f"DuckDB database file not found: {self.database} (from {self.display_url})")

        try:
            self._con = duckdb.connect(self.database, config=self.settings)
        except duckdb.Error as exc:
            raise EngineError(f"cannot open DuckDB database {self.display_url}: {exc}") from None

    def fresh(self) -> DuckDBAdapter:
        """An unconnected adapter for the same database (to record a failure after the connection broke)."""
        if self.borrowed:
            return self  # the caller's connection is the only one there is
        return type(self)(self.database, self.display_url, create=False, settings=self.settings)

    @property
    def ephemeral(self) -> bool:
        return self.database == ":memory:"

    def close(self) -> None:
        if self._con is None:
            return
        if self.borrowed:
            try:
                for name in self._prepared.values():
                    self._con.execute(f"DEALLOCATE {name}")
                if self._threads_before is not None:
                    self._con.execute(f"SET threads = {self._threads_before}")
            except Exception:  # noqa: BLE001 - the connection may be gone
                pass
        else:
            self._con.close()
            self._con = None
        self._prepared.clear()
        self._threads_before = None

    def execute_prepared(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """SQL-level ``PREPARE`` once per text, then ``EXECUTE`` with the values as literals: DuckDB's Python
        API parses and prepares every ``execute`` again, and ``EXECUTE`` takes no bind parameters. Values of
        other types than int, float and bool run unprepared."""
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in params):
            return self.execute(sql, params)
        name = self._prepared.get(sql)
        if name is None:
            name = f"sqlanon_node_{id(self):x}_{len(self._prepared)}"
            self.execute(f"PREPARE {name} AS {sql}")
            self._prepared[sql] = name
        return self.execute(f"EXECUTE {name}({', '.join(_number_literal(v) for v in params)})") if params else \
            self.execute(f"EXECUTE {name}")

    def _execute(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        import duckdb

        try:
            cur = self._con.execute(sql, list(params)) if params else self._con.execute(sql)
            return cur.fetchall() if cur.description else []
        except duckdb.CatalogException as exc:
            raise InputError(f"{self.display_url}: {str(exc).splitlines()[0]}") from None
        except duckdb.InterruptException:
            raise KeyboardInterrupt from None
        except duckdb.Error as exc:
            kind = WriteConflict if isinstance(exc, duckdb.TransactionException) else EngineError
            raise kind(f"DuckDB error on {self.display_url}: {str(exc).splitlines()[0]}") from None
        except RuntimeError as exc:
            if _interrupted(exc):
                raise KeyboardInterrupt from None
            raise

    def settings_for_data(self, rows: int | None) -> None:
        """A source of at most one row group runs on one thread (counting it, hierarchies, frequency set, search,
        write-back): one thread scans a row group anyway, and waking the others for every statement cost more
        than they share, and one thread from the start was fastest of all. So the thread count drops while
        the size is unknown (``rows`` None, before the source is counted) and comes back once a larger source
        is counted. A ``threads`` setting in the URL is left alone; ``close`` gives a borrowed connection its
        thread count back."""
        if "threads" in self.settings:
            return
        if rows is not None and rows > ROW_GROUP_ROWS:
            if self._threads_before is not None:
                self._execute(f"SET threads = {self._threads_before}", [])
                self._threads_before = None
            return
        if self._threads_before is not None:
            return  # on one thread since the size was unknown
        threads = int(self._execute("SELECT current_setting('threads')", [])[0][0])
        if threads > 1:
            self._execute("SET threads = 1", [])
            self._threads_before = threads

    def current_settings(self, *names: str) -> tuple[Any, ...]:
        """The values of these settings in this session, read with one statement that is not counted (it is
        sqlanon's bookkeeping, not the run's work)."""
        return tuple(self._execute(
            "SELECT " + ", ".join(f"current_setting({string_literal(n)})" for n in names), [])[0])

    def _known_optimizers(self) -> frozenset[str]:
        """The optimizer passes this DuckDB has (names differ between versions), looked up once."""
        if self._optimizers is None:
            self._optimizers = frozenset(r[0] for r in self._execute("SELECT name FROM duckdb_optimizers()", []))
        return self._optimizers

    def disabling_optimizers(self, current: str, idle: Sequence[str]) -> str | None:
        """The ``disabled_optimizers`` value (a literal) that adds the passes of ``idle`` this DuckDB knows to
        ``current``, a user's own value, which is kept; None when none is added."""
        names = [n.strip() for n in current.split(",") if n.strip()]
        added = [n for n in idle if n in self._known_optimizers() and n not in names]
        return string_literal(",".join([*names, *added])) if added else None

    @contextmanager
    def changed_settings(self, changed: dict[str, str], before: dict[str, str]) -> Iterator[None]:
        """The block run with the ``changed`` settings (values as SQL literals), their ``before`` values set
        again afterwards, after an error too."""
        for name, value in changed.items():
            self._execute(f"SET {name} = {value}", [])
        try:
            yield
        finally:
            try:
                for name in changed:
                    self._execute(f"SET {name} = {before[name]}", [])
            except EngineError:
                pass  # the connection broke: the statement's own error is the one to report

    @contextmanager
    def aggregate_settings(self, parallel: bool = False, hashed: bool = False,
                           many_groups: bool = False) -> Iterator[None]:
        """Without the optimizer passes that the frequency set's joins gain nothing from
        (``LOOKUP_JOIN_IDLE_OPTIMIZERS``; the other statements of the build and the verification join
        nothing); a user's own ``disabled_optimizers`` is kept, and restored afterwards."""
        before = str(self._execute("SELECT current_setting('disabled_optimizers')", [])[0][0])
        value = self.disabling_optimizers(before, LOOKUP_JOIN_IDLE_OPTIMIZERS)
        with self.changed_settings({"disabled_optimizers": value} if value else {},
                            {"disabled_optimizers": string_literal(before)}):
            yield

    def bulk_insert(self, table: str, columns: int, rows: Sequence[Sequence[Any]]) -> None:
        # DuckDB runs executemany one row at a time and large multi-row VALUES statements slowly (tens of
        # seconds for CUP's ZIP hierarchy); its CSV reader loads the same rows in milliseconds.
        # Python's C csv writer quotes every field; NULL is written as a random token that is read back as
        # NULL (quoted NULL strings allowed), so no text value, the empty one included, can be taken for it.
        # Every option is given, so nothing is sniffed (auto_detect off).
        if not rows:
            return
        null = f"sqlanon-null-{secrets.token_hex(16)}"
        fd, path = tempfile.mkstemp(prefix="sqlanon-", suffix=".csv")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                csv.writer(fh, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(
                    row if None not in row else [null if v is None else v for v in row] for row in rows
                )
            names = ", ".join(f"'c{i}': 'VARCHAR'" for i in range(columns))
            self.execute(
                f"INSERT INTO {table} SELECT * FROM read_csv(?, header = false, delim = ',', quote = '\"', "
                f"escape = '\"', nullstr = ?, allow_quoted_nulls = true, columns = {{{names}}}, auto_detect = false)",
                [path, null],
            )
        finally:
            os.unlink(path)

    def create_coded_tables(self, batch: Sequence[Any], staging: str | None = None) -> None:
        """All of them filled from one CSV read into ``staging`` (``create_coded_table.sql.j2`` with a
        ``part`` column), then split with one call (``split_coded_tables.sql.j2``): each CSV read and CREATE
        has a fixed cost. Not on PostgreSQL, where one COPY and a table per statement made runs no faster."""
        if staging is None or len(batch) < 2:
            super().create_coded_tables(batch, staging)
            return
        width = max(coded.height for coded in batch)
        self.run("create_coded_table.sql.j2", table=staging, height=width, parts=True)
        self.bulk_insert(self.quote_identifier(staging), 3 + 3 * width, [
            (part, *row, *[None] * (3 * (width - coded.height)))
            for part, coded in enumerate(batch) for row in coded.rows
        ])
        self.run("split_coded_tables.sql.j2", staging=staging,
                 tables=[{"table": coded.table, "height": coded.height} for coded in batch])

    def resolve_relation(self, name: SpelledName) -> Relation:
        """DuckDB's rules: names compare without case, quoted or not; an unqualified name is looked up among
        the temporary tables, then in the current schema; ``a.b`` is schema ``a`` of the current catalog or
        catalog ``a``'s schema ``main`` (DuckDB refuses a name that could be both, and so does this)."""
        rows = self.run("catalog/find_relation.sql.j2", name=name.parts[-1])
        current = next((r[1], r[2]) for r in rows if r[0] == "current")
        relations = [(r[1], r[2], r[3], r[0]) for r in rows if r[0] in ("table", "view")]
        schemas = {(r[1].lower(), r[2].lower()): (r[1], r[2]) for r in rows if r[0] == "schema"}
        catalogs = {r[1].lower(): (r[1], bool(r[4])) for r in rows if r[0] == "catalog"}
        parts = name.parts
        if len(parts) == 3:
            candidates = [parts]
        elif len(parts) == 2:
            candidates = [(current[0], *parts), (parts[0], "main", parts[1])]
        else:
            candidates = [("temp", "main", parts[0]), (*current, parts[0])]

        def found(candidate: Sequence[str]) -> tuple[str, str, str, str] | None:
            wanted = tuple(p.lower() for p in candidate)
            return next((r for r in relations if (r[0].lower(), r[1].lower(), r[2].lower()) == wanted), None)

        hits = [hit for hit in map(found, candidates) if hit is not None]
        if len(parts) == 2 and len(hits) == 2:
            raise ConfigError(f"table name {name.text!r}: {parts[0]!r} is both a schema and a catalog here; "
                              f"write catalog.schema.table")
        if hits:
            catalog, schema, table, kind = hits[0]
            exact = (catalog, schema, table)
        else:
            kind = None
            place = next((schemas[c[0].lower(), c[1].lower()] for c in candidates[-2:] if c[0] != "temp"
                          and (c[0].lower(), c[1].lower()) in schemas), None)
            fallback = candidates[0] if len(parts) == 2 else candidates[-1]
            exact = (*place, parts[-1]) if place else tuple(fallback)
        catalog_info = catalogs.get(exact[0].lower())
        return Relation(
            spelled=name.text, parts=tuple(exact), key=tuple(p.lower() for p in exact), kind=kind,
            schema_exists=(exact[0].lower(), exact[1].lower()) in schemas,
            writable=None if catalog_info is None else not catalog_info[1],
        )

    def resolve_schema(self, name: SpelledName) -> str:
        """DuckDB compares schema names without case: an existing schema of the current catalog keeps its own
        spelling, a new one is created as written."""
        rows = self.run("catalog/find_relation.sql.j2", name="")
        current = next(r[1] for r in rows if r[0] == "current")
        wanted = name.parts[-1].lower()
        return next((str(r[2]) for r in rows if r[0] == "schema" and r[1] == current and str(r[2]).lower() == wanted),
                    name.parts[-1])

    def dependants(self, relation: Relation) -> list[tuple[str, str]]:
        return [(str(r[0]), str(r[1])) for r in self.run("catalog/find_dependants.sql.j2", table=relation.parts)]

    def tables_read(self, relation: Relation) -> list[tuple[str, ...]]:
        """From the scans of the view's unoptimized logical plan: DuckDB binds a view's names when it is read
        and records no dependencies in its catalog. The plan names each table as catalog.schema.name."""
        if relation.kind != "view":
            return []
        import json

        before = str(self._execute("SELECT current_setting('explain_output')", [])[0][0])
        with self.changed_settings({"explain_output": "'all'"}, {"explain_output": string_literal(before)}):
            rows = self.run("catalog/find_tables_read.sql.j2", table=relation.parts)
        found: set[tuple[str, ...]] = set()

        def scans(node: Any) -> None:
            if isinstance(node, dict):
                table = (node.get("extra_info") or {}).get("Table") if node.get("name") == "SEQ_SCAN" else None
                if isinstance(table, str):
                    found.add(tuple(table.lower().split(".", 2)))
                for child in node.get("children", []):
                    scans(child)
            elif isinstance(node, list):
                for item in node:
                    scans(item)

        for key, value in rows:
            if key == "logical_plan":
                scans(json.loads(value))
        return sorted(found)

    def column_names(self, table: Sequence[str]) -> list[str]:
        try:
            cur = self._con.execute(f"SELECT * FROM {self.quote_qualified(table)} LIMIT 0")
        except Exception as exc:  # duckdb.CatalogException and friends
            if _interrupted(exc):
                raise KeyboardInterrupt from None
            raise EngineError(str(exc).splitlines()[0]) from None
        return [d[0] for d in cur.description]


def _interrupted(exc: BaseException) -> bool:
    """Ctrl-C while a statement runs: the client stops it and raises a plain RuntimeError (DuckDB 2.0), not
    ``duckdb.InterruptException``; the CLI reported it as an unexpected error (exit 1), not an interrupted run
    (exit 130)."""
    return type(exc) is RuntimeError and str(exc) == "Query interrupted"


def string_literal(text: str) -> str:
    """A SQL string literal (``SET`` takes no bind parameters).

    >>> string_literal("it's")
    "'it''s'"
    """
    return "'" + text.replace("'", "''") + "'"


def _number_literal(value: int | float) -> str:
    """A bind value as a DuckDB literal of the same value: a float goes through its shortest round-trip
    text, which DuckDB parses back to the same double (a bare 0.1 would be a DECIMAL)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    return f"CAST('{value!r}' AS DOUBLE)"
