"""DuckDB, the embedded default (a file or ``:memory:``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import EngineError, InputError
from .base import EngineAdapter


class DuckDBAdapter(EngineAdapter):
    name = "duckdb"
    SUPPORTS_CSV_SOURCE = True
    PLACEHOLDER = "?"

    def __init__(self, database: str, display_url: str) -> None:
        super().__init__(database, display_url)
        self.database = database
        self._con: Any = None

    def connect(self) -> None:
        import duckdb

        try:
            self._con = duckdb.connect(self.database)
        except duckdb.Error as exc:
            raise EngineError(f"cannot open DuckDB database {self.display_url}: {exc}") from None

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

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
            raise EngineError(f"DuckDB error on {self.display_url}: {str(exc).splitlines()[0]}") from None

    # bulk_insert: the base class's multi-row INSERT ... VALUES with bind parameters is several times
    # faster in DuckDB than executemany, which runs one statement per row.

    def column_names(self, table: Sequence[str]) -> list[str]:
        try:
            cur = self._con.execute(f"SELECT * FROM {self.quote_qualified(table)} LIMIT 0")
        except Exception as exc:  # duckdb.CatalogException and friends
            raise EngineError(str(exc).splitlines()[0]) from None
        return [d[0] for d in cur.description]
