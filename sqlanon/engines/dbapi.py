"""The DB-API-shaped contract an adapter's connection meets, for engines whose client has no DB-API driver.

sqlanon's adapters talk to a PEP 249 connection: DuckDB's and psycopg's are ones. An engine without such a
driver (Spark SQL: a ``SparkSession``, whose ``sql()`` returns DataFrames) gets a thin wrapper that looks like
one, so that its adapter is written like the others (SQLMesh wraps a SparkSession the same way in
``sqlmesh/engines/spark/db_api/spark_session.py``). These protocols are what such a wrapper provides, no more:
the subset of PEP 249 sqlanon uses. They check structure only (``isinstance`` with ``runtime_checkable``
looks at the names, not the signatures).

What a wrapper must get right, beyond the names:

* ``execute(operation, parameters)``: ``parameters`` is a sequence of positional values, one per placeholder
  (the adapter's ``PLACEHOLDER``); values never reach the SQL text. An engine whose client binds named
  parameters only renames them in the wrapper (Spark 3.4+ ``spark.sql(query, args=...)``).
* ``description`` is None after a statement that returns no rows, else one 7-tuple per column whose first item
  is the column's name (sqlanon reads only that); ``fetchall()`` returns tuples, not row objects.
* ``rowcount``: the rows a ``CREATE TABLE ... AS`` wrote, or -1 where the engine does not say (sqlanon then
  counts them with a query: ``EngineAdapter.create_counted``).
* ``commit()`` and ``rollback()`` exist even without transactions (no-ops there); the adapter's
  ``SUPPORTS_TRANSACTIONS`` tells sqlanon not to rely on them (``EngineAdapter.transaction``).
* Errors are raised as exceptions the adapter maps to sqlanon's (``EngineError``, ``InputError``,
  ``KeyboardInterrupt`` for a cancelled statement), as ``DuckDBAdapter._execute`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class DBAPICursor(Protocol):
    """A cursor as sqlanon uses one: one statement at a time, its rows fetched whole."""

    @property
    def description(self) -> Sequence[Sequence[Any]] | None:
        """Per result column a sequence whose first item is its name; None for a statement without rows."""
        ...

    @property
    def rowcount(self) -> int:
        """Rows the last statement wrote, -1 where unknown."""
        ...

    def execute(self, operation: str, parameters: Sequence[Any] = ..., /) -> Any:
        """Run one statement with positional bind parameters."""
        ...

    def fetchall(self) -> list[tuple[Any, ...]]:
        ...

    def fetchone(self) -> tuple[Any, ...] | None:
        ...

    def close(self) -> None:
        ...


@runtime_checkable
class DBAPIConnection(Protocol):
    """A connection as sqlanon uses one. sqlanon runs in autocommit mode and sends BEGIN/COMMIT itself where
    the engine has transactions (``EngineAdapter.transaction``); ``commit``/``rollback`` are for drivers that
    open transactions implicitly."""

    def cursor(self) -> DBAPICursor:
        ...

    def commit(self) -> None:
        ...

    def rollback(self) -> None:
        ...

    def close(self) -> None:
        ...
