"""Apache Spark SQL, the distributed engine: a local Spark, a standalone cluster's master, or a Spark Connect
server. Spark has no DB-API driver; the adapter talks to a ``SparkSession`` through ``spark.sql(text, args)``,
which binds ``?`` parameters positionally (Spark 3.5 and later), and collects the few rows sqlanon reads.

What differs from the SQL engines, and where it is handled:

* no transactions and no transactional DDL: the output is published by the writer's staged swap
  (``output/writer.py``, strategy 3), whose every step is one catalog operation;
* no temporary tables: the templates create a scratch table with ``CACHE TABLE name AS query``
  (``sql/spark/macros/scratch.sql.j2``), which the adapter runs as a local checkpoint of the query's rows under a
  temporary view of the session (``_materialize``): node queries read the frequency set from the executors'
  block stores, and a killed driver leaves nothing in the catalog. Views take no ``INSERT``: the few statements
  that append to a scratch table (a hierarchy's NULL row, generated hierarchies) materialize the old rows and
  the new ones under the same name, and an UPDATE or DELETE of one (the methods refine their scratch tables
  step by step) as the query of the rows it leaves (``spark_rewrite.py``);
* identifiers are quoted with backticks; the session catalog (Hive metastore or in-memory) folds names to lower
  case and accepts letters, digits and ``_`` only in table and schema names (column names are free).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from ..errors import ConfigError, EngineError, InputError
from ..identifiers import Relation, SpelledName
from . import spark_rewrite
from .base import EngineAdapter

#: URL query keys of sqlanon's own; every other key must be a Spark setting (``spark.*``).
URL_KEYS = frozenset({"master", "warehouse", "database", "app_name"})
#: Settings of a session sqlanon starts, unless the URL sets them. Node queries are small aggregations of the
#: frequency set: Spark's default of 200 shuffle partitions makes each a few hundred tiny tasks, so a local
#: Spark gets one per core; adaptive execution coalesces partitions on a cluster anyway.
LOCAL_DEFAULTS = {
    "spark.sql.shuffle.partitions": "4",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
}
#: Errors that mean a name the user gave does not exist (an input error, exit 2), by Spark's error condition.
_NOT_FOUND = ("TABLE_OR_VIEW_NOT_FOUND", "SCHEMA_NOT_FOUND", "UNRESOLVED_COLUMN", "PATH_NOT_FOUND")
#: Errors about a name the user gave that Spark cannot use (a config error, exit 2).
_BAD_NAME = ("INVALID_SCHEMA_OR_RELATION_NAME", "INVALID_IDENTIFIER", "REQUIRES_SINGLE_PART_NAMESPACE")
#: Words of the common templates (DuckDB's and PostgreSQL's SQL) as Spark spells them: type names, CTE
#: materialization hints, which Spark has none of (it plans each CTE reference itself), and the history's
#: primary keys, which Spark's parquet tables do not take (run ids are random; sqlanon never inserts one twice
#: but for a run's end where tables take no UPDATE, history/runs.py).
SPELLINGS = {"VARCHAR": "STRING", "TEXT": "STRING", "DOUBLE PRECISION": "DOUBLE", "HUGEINT": "DECIMAL(38, 0)",
             "NUMERIC": "DECIMAL(38, 18)", "JSON": "STRING", "NOT MATERIALIZED ": "", "MATERIALIZED ": "",
             "PRIMARY KEY": ""}
#: Spark keeps a cached query's partitions as planned (no adaptive coalescing) unless this is true.
_COALESCE_CACHED = "spark.sql.optimizer.canChangeCachedPlanOutputPartitioning"
#: Spark's string literals (escaped with a backslash), quoted identifiers (backticks) and comments.
_QUOTED = r"'(?:[^'\\]|\\.)*'|`(?:[^`]|``)*`|--[^\n]*|/\*.*?\*/"
#: What ``_finalize_sql`` leaves as it is (``_QUOTED``), else a word to respell (a type name not followed by a
#: length: VARCHAR(10) is Spark's too).
_TOKENS = re.compile(_QUOTED + r"|\b(VARCHAR|TEXT|DOUBLE PRECISION|HUGEINT|NUMERIC|JSON)\b(?!\s*\()|"
                     r"(?<=\bAS )((?:NOT )?MATERIALIZED )(?=\()|,\s*PRIMARY KEY\s*\([^)]*\)|\s(PRIMARY KEY)\b",
                     re.DOTALL)
#: File formats Spark reads a path of as a table: ``source.table: parquet:/data/adult.parquet`` (the config's
#: spelling of Spark's own ``parquet.`/data/adult.parquet```).
FILE_FORMATS = ("parquet", "csv", "json", "orc")
#: A statement's leading comment lines (the templates' headers).
_HEADER = re.compile(r"(?:\s*--[^\n]*\n)*\s*")
_INSERT = re.compile(r"INSERT INTO (`(?:[^`]|``)+`)\s*(.*)\Z", re.DOTALL)
_CACHE = re.compile(r"CACHE TABLE (`(?:[^`]|``)+`)\s+AS\s+(.*)\Z", re.DOTALL)


class SparkAdapter(EngineAdapter):
    name = "spark"
    SUPPORTS_TRANSACTIONS = False
    SUPPORTS_TRANSACTIONAL_DDL = False
    # CREATE OR REPLACE TABLE ... AS needs a v2 catalog table (Delta, Iceberg); Spark's own parquet tables
    # take no REPLACE, so the output is published by the staged swap.
    SUPPORTS_REPLACE_TABLE = False
    SUPPORTS_TEMPORARY_TABLES = True  # checkpoints under temporary views (sql/spark/macros/scratch.sql.j2)
    # Spark's parquet tables take no UPDATE or DELETE: the history records a run's end as a second row
    # (history/runs.py). Scratch views take them (rewritten as queries, spark_rewrite.py).
    SUPPORTS_UPDATES = False
    UNGROUPABLE_TYPES = frozenset({"map"})
    PLACEHOLDER = "?"
    IDENTIFIER_QUOTE = "`"
    QUOTED_TEXT = _QUOTED

    def __init__(self, url: str, display_url: str, master: str | None = None, remote: str | None = None,
                 settings: dict[str, str] | None = None, database: str | None = None) -> None:
        super().__init__(url, display_url)
        self.master, self.remote = master, remote
        self.settings = dict(settings or {})
        self.database = database
        self._spark: Any = None
        self._started = False  # this adapter started the session (and stops it at close)
        self._views: set[str] = set()  # scratch views created on this session (quoted names)

    # -- connection -------------------------------------------------------------------------------
    @classmethod
    def from_url(cls, url: str, display_url: str, base_dir: Path | None, create: bool) -> SparkAdapter:
        master, remote, settings, database = parse_spark_url(url, base_dir)
        return cls(url, display_url, master=master, remote=remote, settings=settings, database=database)

    @classmethod
    def borrowing(cls, connection: Any) -> SparkAdapter:
        """An adapter on the caller's ``SparkSession`` (classic or Spark Connect)."""
        adapter = cls("spark (open session)", "spark (open session)")
        adapter._spark, adapter.borrowed = connection, True
        return adapter

    def connect(self) -> None:
        if self.borrowed:
            return
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            raise ConfigError(
                f"database URL {self.display_url!r}: the Spark engine needs pyspark: pip install 'sqlanon[spark]'"
            ) from None
        builder = SparkSession.builder
        if self.remote is not None:
            self._reach_server()
            builder = builder.remote(self.remote)
        else:
            # The session of this thread, else the process's (another thread's: getActiveSession is per thread).
            active = SparkSession.getActiveSession() or getattr(SparkSession, "_instantiatedSession", None)
            if active is not None:
                # One JVM holds one session: a test suite's, or a program's that calls sqlanon. Use it as it is.
                self._spark = active
                self._use_database()
                return
            builder = builder.master(self.master or "local[*]").appName("sqlanon")
            for key, value in {**LOCAL_DEFAULTS, **self.settings}.items():
                builder = builder.config(key, value)
            if "spark.sql.catalogImplementation" in self.settings and \
                    self.settings["spark.sql.catalogImplementation"] == "hive":
                builder = builder.enableHiveSupport()
        try:
            self._spark = builder.getOrCreate()
        except Exception as exc:  # noqa: BLE001 - Py4J, Java gateway and gRPC errors alike
            raise EngineError(f"cannot start Spark for {self.display_url}: {_first_line(exc)}") from None
        self._started = self.remote is None
        if self._started:
            self._spark.sparkContext.setLogLevel("ERROR")
        self._use_database()

    def _reach_server(self) -> None:
        """A Spark Connect server that does not answer is an error within seconds: the gRPC client would retry
        with back-off for minutes before its first statement failed."""
        import socket

        address = urlsplit(self.remote.split(";", 1)[0])  # type: ignore[union-attr]
        try:
            socket.create_connection((address.hostname or "localhost", address.port or 15002), timeout=10).close()
        except OSError as exc:
            raise EngineError(f"cannot connect to {self.display_url}: {exc}") from None

    def _use_database(self) -> None:
        if self.database:
            self._execute(f"USE {self.quote_identifier(self.database)}", [])

    def fresh(self) -> SparkAdapter:
        if self.borrowed:
            return self
        return type(self)(self.url, self.display_url, self.master, self.remote, self.settings, self.database)

    def close(self) -> None:
        if self._spark is None:
            return
        if self._started:
            self._spark.stop()
        if not self.borrowed:
            self._spark = None
        self._views.clear()

    # -- quoting -------------------------------------------------------------------------------
    def sql_literal(self, value: Any) -> str:
        if isinstance(value, float):
            import math

            if math.isfinite(value):
                return f"CAST('{value!r}' AS DOUBLE)"
            return f"CAST('{'NaN' if math.isnan(value) else '-Infinity' if value < 0 else 'Infinity'}' AS DOUBLE)"
        if isinstance(value, str) and "\x00" not in value:  # Spark escapes within literals with a backslash
            return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return super().sql_literal(value)

    def _finalize_sql(self, text: str) -> str:
        """The common templates' type names in Spark's spelling (outside literals, quoted names and comments).

        >>> SparkAdapter("spark:", "spark:")._finalize_sql("SELECT CAST(x AS VARCHAR), 'TEXT', `VARCHAR`")
        "SELECT CAST(x AS STRING), 'TEXT', `VARCHAR`"
        >>> SparkAdapter("spark:", "spark:")._finalize_sql("WITH b AS NOT MATERIALIZED (SELECT 1) SELECT * FROM b")
        'WITH b AS (SELECT 1) SELECT * FROM b'
        """
        return _TOKENS.sub(_respell, text)

    # -- execution -------------------------------------------------------------------------------
    def _execute(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        start = _HEADER.match(sql).end()  # type: ignore[union-attr] - matches any text
        cached = _CACHE.match(sql, start)
        if cached:
            self._materialize(cached.group(1), lambda: self._frame(cached.group(2), params))
            return []
        insert = _INSERT.match(sql, start)
        if insert and insert.group(1) in self._views:
            self._materialize(insert.group(1), lambda: self._appended(insert.group(1), insert.group(2), params))
            return []
        changed = spark_rewrite.target(sql[start:])
        if changed in self._views:
            query = spark_rewrite.rewrite(sql[start:], self._columns(changed))  # type: ignore[arg-type]
            self._materialize(changed, lambda: self._frame(query, params))  # type: ignore[arg-type]
            return []
        return self._sql(sql, params)

    def _columns(self, view: str) -> list[tuple[str, str]]:
        """(quoted name, Spark type) of each column of the scratch view ``view`` (quoted)."""
        return [(self.quote_identifier(f.name), f.dataType.simpleString()) for f in self._spark.table(view).schema]

    def _sql(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """A statement the adapter writes itself, run as it is (``_execute`` without the scratch-view forms)."""
        with self._errors():
            return [tuple(row) for row in self._frame(sql, params).collect()]

    def _frame(self, sql: str, params: Sequence[Any]) -> Any:
        return self._spark.sql(sql, args=list(params)) if params else self._spark.sql(sql)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Spark's errors as sqlanon's: a missing name an input error, a name Spark cannot use a config error,
        a cancelled job an interrupt, anything else an engine error."""
        try:
            yield
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # noqa: BLE001 - pyspark's captured exceptions, Py4J and gRPC errors
            condition = _condition(exc)
            if condition in _NOT_FOUND:
                raise InputError(f"{self.display_url}: {_first_line(exc)}") from None
            if condition in _BAD_NAME:
                raise ConfigError(f"{self.display_url}: {_first_line(exc)}") from None
            if condition == "OPERATION_CANCELED" or "cancelled" in str(exc).lower():
                raise KeyboardInterrupt from None
            raise EngineError(f"Spark error on {self.display_url}: {_first_line(exc)}") from None

    def _materialize(self, view: str, rows: Callable[[], Any]) -> None:
        """The scratch view ``view`` (quoted) as the DataFrame ``rows()`` now: a local checkpoint (computed once,
        kept in the executors' block stores, its lineage cut) under a temporary view of the session. A view
        defined by SQL text would name the views it reads, and fail once sqlanon dropped one of them (a
        hierarchy's staging table), or read itself when it replaces the view it appends to (INSERT INTO).

        The rows are cached (and counted) before the checkpoint copies them: a checkpoint keeps the size its
        query's plan estimated, and a join's estimate is the product of its sides', so a view rebuilt from
        itself round after round (an UPDATE of the methods' scratch tables) grew by powers until the optimizer
        spent minutes and the driver's heap on numbers of a million digits. The cached rows' size is measured:
        the checkpoint, and every plan reading it, starts from the view's true size. Adaptive execution may
        coalesce the cached rows' partitions as it would the query's (``_COALESCE_CACHED``): a small sorted
        scratch table stays one partition, and the output written from it one file, in its order."""
        with self._errors(), self._setting(_COALESCE_CACHED, "true"):
            frame = rows().persist()
            try:
                frame.count()
                checkpoint = frame.localCheckpoint(eager=True)
            finally:
                frame.unpersist()
            checkpoint.createOrReplaceTempView(view[1:-1].replace("``", "`"))
        self._views.add(view)

    @contextmanager
    def _setting(self, key: str, value: str) -> Iterator[None]:
        """The session's setting ``key`` at ``value`` for the block, then as it was (a borrowed session's too)."""
        before = self._spark.conf.get(key, None)
        self._spark.conf.set(key, value)
        try:
            yield
        finally:
            if before is None:
                self._spark.conf.unset(key)
            else:
                self._spark.conf.set(key, before)

    def _appended(self, view: str, query: str, params: Sequence[Any]) -> Any:
        """The rows of ``view`` and those of ``query`` (INSERT INTO's), the latter's columns named as the
        view's: Spark's optimizer fails on a UNION ALL in SQL whose second branch repeats an expression
        (``SELECT CAST(a AS STRING), CAST(a AS STRING), ...``: PLAN_VALIDATION_FAILED_RULE_IN_BATCH)."""
        old = self._spark.table(view)
        return old.union(self._frame(query, params).toDF(*old.columns))

    def bulk_insert(self, table: str, columns: int, rows: Sequence[Sequence[Any]]) -> None:
        """Rows of configuration data (hierarchies) into a scratch view: one DataFrame of them, typed as the
        view, appended in one step (an INSERT of bound values per chunk would re-cache the view each time)."""
        if not rows:
            return
        self.statements += 1
        schema = self._spark.table(table).schema
        fresh = self._spark.createDataFrame([tuple(r) for r in rows], schema=schema)
        name = f"sqlanon_rows_{secrets.token_hex(4)}"
        fresh.createOrReplaceTempView(name)
        try:
            self._execute(f"INSERT INTO {table} SELECT * FROM {self.quote_identifier(name)}", [])
        finally:
            self._spark.catalog.dropTempView(name)

    def stage_csv(self, table: str, data: bytes, delimiter: str, columns: int) -> bool:
        """A plain hierarchy file's fields as the scratch view ``table`` (string columns c0 ..), split here:
        the file is on the client's disk, which a cluster's executors do not see. A row of another width is
        refused (EngineError), as DuckDB's strict reader and PostgreSQL's COPY refuse it."""
        from pyspark.sql.types import StringType, StructField, StructType

        try:
            lines = data.decode("utf-8").rstrip("\r\n").split("\n")
        except UnicodeDecodeError as exc:
            raise EngineError(f"hierarchy file is not UTF-8: {exc}") from None
        rows = [tuple(line.removesuffix("\r").split(delimiter)) for line in lines]
        if any(len(row) != columns for row in rows):
            raise EngineError(f"hierarchy file: a row without {columns} fields")
        schema = StructType([StructField(f"c{j}", StringType()) for j in range(columns)])
        self.statements += 1
        self._spark.createDataFrame(rows, schema=schema).createOrReplaceTempView(table)
        self._views.add(self.quote_identifier(table))
        return True

    def drop_tables(self, tables: Sequence[str]) -> None:
        """One statement per table: ``spark.sql`` takes one at a time. ``DROP TABLE`` drops a temporary view
        of the name too (and its cached data)."""
        for table in tables:
            self.run("drop_table.sql.j2", table=(table,))
            self._views.discard(self.quote_identifier(table))

    def set_random_seed(self, seed: float) -> None:
        """Spark's ``rand`` takes its seed as an argument, per expression; sqlanon's release order is keyed by
        the salt (``macros/shuffle.sql.j2``), so there is no session seed to set."""

    # -- catalog -------------------------------------------------------------------------------
    def column_names(self, table: Sequence[str]) -> list[str]:
        try:
            return list(self._spark.table(self.quote_qualified(table)).columns)
        except Exception as exc:  # noqa: BLE001
            raise EngineError(_first_line(exc)) from None

    def _current(self) -> tuple[str, str]:
        return str(self._spark.catalog.currentCatalog()), str(self._spark.catalog.currentDatabase())

    def resolve_relation(self, name: SpelledName) -> Relation:
        """Spark's rules: names compare without case (the session catalog stores them in lower case); a
        one-part name is a temporary view or a table of the current schema, two parts schema.table of the
        current catalog, three catalog.schema.table."""
        catalog, database = self._current()
        parts = name.parts
        if len(parts) == 2 and parts[0].lower() in FILE_FORMATS and name.quoted[1]:
            return self._file_source(name)
        exact = {1: (catalog, database, *parts), 2: (catalog, *parts), 3: parts}.get(len(parts))
        if exact is None:
            raise ConfigError(f"table name {name.text!r}: Spark names have at most three parts")
        kind: str | None = None
        temporary = len(parts) == 1 and self._spark.catalog.tableExists(self.quote_identifier(parts[0])) and \
            any(t.isTemporary and t.name.lower() == parts[0].lower() for t in self._spark.catalog.listTables())
        if temporary:
            return Relation(spelled=name.text, parts=(parts[0],), key=(parts[0].lower(),), kind="view",
                            schema_exists=True, writable=False)
        qualified = self.quote_qualified(exact)
        if self._spark.catalog.tableExists(qualified):
            table = self._spark.catalog.getTable(qualified)
            kind = "view" if str(table.tableType).upper() == "VIEW" else "table"
            exact = (table.catalog or exact[0], *(table.namespace or [exact[1]]), table.name)
        else:  # a new table: the catalog will hold its name, and its schema's, in lower case
            exact = (exact[0], *(p.lower() for p in exact[1:]))
        schema_exists = self._spark.catalog.databaseExists(self.quote_qualified(exact[:-1]))
        return Relation(spelled=name.text, parts=tuple(exact), key=tuple(p.lower() for p in exact), kind=kind,
                        schema_exists=schema_exists or kind is not None, writable=True)

    def _file_source(self, name: SpelledName) -> Relation:
        """Files read by Spark as the source: a temporary view of the session over them (CSV with a header line,
        its column types inferred), named for the path, so that every statement reads what was checked. Kind
        None (not found) when Spark cannot read them; never writable."""
        import hashlib

        fmt, path = name.parts[0].lower(), name.parts[1]
        view = f"sqlanon_file_{hashlib.sha256(f'{fmt}:{path}'.encode()).hexdigest()[:12]}"
        options = ", header 'true', inferSchema 'true'" if fmt == "csv" else ""
        try:
            self._sql(f"CREATE OR REPLACE TEMPORARY VIEW {self.quote_identifier(view)} USING {fmt} "
                      f"OPTIONS (path {self.sql_literal(path)}{options})", [])
            self._sql(f"SELECT * FROM {self.quote_identifier(view)} LIMIT 0", [])
            kind: str | None = "view"
        except (InputError, EngineError):
            kind = None
        return Relation(spelled=name.text, parts=(view,), key=("file", fmt, path), kind=kind, schema_exists=True,
                        writable=False)

    def history_exists(self, schema: str) -> bool:
        """From the catalog: Spark's session catalog has no information_schema."""
        return bool(self._spark.catalog.tableExists(self.quote_qualified((schema, "run_history_version"))))

    def resolve_schema(self, name: SpelledName) -> str:
        return name.parts[-1].lower()

    def dependants(self, relation: Relation) -> list[tuple[str, str]]:
        """Spark binds a view's names when it is read and has no foreign keys: nothing stops a DROP TABLE."""
        return []

    def tables_read(self, relation: Relation) -> list[tuple[str, ...]]:
        """The tables in the view's analyzed plan (each scan's catalog table identifier)."""
        frame = self._spark.table(self.quote_qualified(relation.parts)) if relation.kind == "view" else None
        if frame is None or not hasattr(frame, "_jdf"):
            return []  # a table; or a Spark Connect session, whose client has no plan to read
        plan = frame._jdf.queryExecution().analyzed()
        found: set[tuple[str, ...]] = set()
        leaves = plan.collectLeaves()
        for i in range(leaves.size()):
            leaf = leaves.apply(i)
            table = _catalog_table(leaf)
            if table is not None:
                ident = table.identifier()
                catalog = ident.catalog().get() if ident.catalog().isDefined() else self._current()[0]
                database = ident.database().get() if ident.database().isDefined() else self._current()[1]
                found.add((catalog.lower(), database.lower(), ident.table().lower()))
        return sorted(found)


def _respell(match: re.Match[str]) -> str:
    """One token of ``_TOKENS`` as Spark takes it: a word respelled, a table's primary key left out."""
    word = match.group(1) or match.group(2) or match.group(3)
    if word:
        return SPELLINGS[word]
    return "" if "PRIMARY KEY" in match.group(0) else match.group(0)


def _catalog_table(leaf: Any) -> Any:
    """The ``CatalogTable`` of a plan leaf that scans one (LogicalRelation, HiveTableRelation), else None."""
    for attribute in ("catalogTable", "tableMeta"):
        try:
            value = getattr(leaf, attribute)()
        except Exception:  # noqa: BLE001 - not a leaf of that kind
            continue
        if hasattr(value, "isDefined"):
            return value.get() if value.isDefined() else None
        return value
    return None


def _condition(exc: BaseException) -> str | None:
    for getter in ("getCondition", "getErrorClass"):
        method = getattr(exc, getter, None)
        if method is not None:
            try:
                value = method()
            except Exception:  # noqa: BLE001
                continue
            if value:
                return str(value).split(".")[0]
    return None


def _first_line(exc: BaseException) -> str:
    """The first line of an error: of the Java exception's own message where Py4J wraps one (its str is only
    "An error occurred while calling o166.localCheckpoint")."""
    java = getattr(exc, "java_exception", None)
    text = str(java.toString() if java is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def parse_spark_url(url: str, base_dir: Path | None = None) -> tuple[str | None, str | None, dict[str, str],
                                                                   str | None]:
    """(master, Spark Connect URL, settings, database) of a Spark URL.

    * ``spark:///?master=local[2]&warehouse=wh``: a Spark started here. With a ``warehouse`` (relative paths
      from ``base_dir``), its tables and their catalog live there: a Hive metastore in ``warehouse/metastore_db``
      (Derby, one process at a time), so that a later run finds the tables of an earlier one;
    * ``spark://host:7077/?...``: a standalone cluster's master, its catalog as the cluster configures it;
    * ``sc://host:15002``: a Spark Connect server (its own parameters after ``/;`` as Spark Connect writes them).

    Other keys are Spark settings (``spark.executor.memory=4g``); ``database`` is the schema to use.

    >>> parse_spark_url('spark:///?master=local[2]&spark.sql.shuffle.partitions=8')[::2]
    ('local[2]', {'spark.sql.shuffle.partitions': '8'})
    >>> parse_spark_url('spark://head:7077/?database=wh')[0]
    'spark://head:7077'
    >>> parse_spark_url('sc://head:15002')[1]
    'sc://head:15002'
    """
    if url.startswith("sc://"):
        return None, url, {}, None
    from .registry import mask_spark_url

    shown = mask_spark_url(url)
    parts = urlsplit(url)
    settings = dict(parse_qsl(parts.query, keep_blank_values=True))
    unknown = sorted(k for k in settings if k not in URL_KEYS and not k.startswith("spark."))
    if unknown:
        raise ConfigError(f"database URL {shown!r}: unknown Spark URL parameter {unknown[0]!r} (supported: "
                          f"{', '.join(sorted(URL_KEYS))}, and Spark settings spark.*)")
    master = settings.pop("master", None)
    if parts.hostname:
        if master is not None:
            raise ConfigError(f"database URL {shown!r}: give the master as the host (spark://host:port) or as "
                              f"?master=, not both")
        master = f"spark://{parts.hostname}:{parts.port or 7077}"
    database = settings.pop("database", None)
    app_name = settings.pop("app_name", None)
    if app_name:
        settings["spark.app.name"] = app_name
    warehouse = settings.pop("warehouse", None)
    if warehouse is not None:
        path = Path(unquote(warehouse)).expanduser()
        if not path.is_absolute():
            path = (base_dir or Path.cwd()) / path
        path = path.resolve()
        settings.setdefault("spark.sql.warehouse.dir", str(path))
        if master is None or master.startswith("local"):
            metastore = path / "metastore_db"
            settings.setdefault("spark.sql.catalogImplementation", "hive")
            settings.setdefault("spark.hadoop.javax.jdo.option.ConnectionURL",
                                f"jdbc:derby:;databaseName={metastore};create=true")
            settings.setdefault("spark.driver.extraJavaOptions", f"-Dderby.system.home={path}")
    return master, None, settings, database

