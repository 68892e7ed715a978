"""A connection to the target database, the run's source, and the scratch tables the run creates.

Every scratch table name is recorded the moment it is created and dropped on exit, whatever happened. Where the
engine has temporary tables (``SUPPORTS_TEMPORARY_TABLES``) they are session-private TEMPORARY ones, so a killed
process leaves none behind either; elsewhere they are plain tables (``sql/common/macros/scratch.sql.j2``) and a
killed process leaves its ``sqlanon_<8 hex>_*`` tables, which no later run removes yet: telling them from those of
a run still going needs the run's liveness (the history records host and pid, not the prefix). The session knows no
anonymization method (``sqlanon/methods/``): it opens the source and checks its columns against the roles.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from .config import AnonymizeConfig
from .engines import EngineAdapter, adapter_for
from .errors import ConfigError, InputError
from .identifiers import Relation, display_name, parse_qualified_name, parse_spelled_name

DEFAULT_URL = "duckdb:///:memory:"


class SmallerThanKError(InputError):
    """The table has fewer records than k (an input error for anonymize, a violating batch for apply)."""


@dataclass(frozen=True)
class SourceTable:
    """The source as the run reads it: its exact name (a scratch table for a CSV source), the name shown to
    people, and its columns."""

    parts: tuple[str, ...]
    shown: str
    columns: list[str]


def _case_hint(name: str, columns: list[str]) -> str:
    """A hint where ``name`` differs from a column only in case: attribute names are matched exactly.

    >>> _case_hint("AGE", ["age", "sex"])
    "; column names are matched exactly: did you mean 'age'?"
    """
    same = [c for c in columns if c.lower() == name.lower()]
    return f"; column names are matched exactly: did you mean {same[0]!r}?" if same else ""


class DatabaseSession:
    """One connection and the scratch tables made on it: what every command that works in the database opens
    (a run, validate and explain through ``Session``; ``check`` directly)."""

    def __init__(self, adapter: EngineAdapter) -> None:
        self.adapter = adapter
        self.prefix = f"sqlanon_{secrets.token_hex(4)}_"
        self.temporary: list[str] = []

    def __enter__(self) -> Self:
        self.adapter.connect()
        return self

    def scratch(self, suffix: str) -> str:
        """A name for a scratch table of this session, registered for removal before it is created."""
        name = self.prefix + suffix
        self.temporary.append(name)
        return name

    def __exit__(self, *exc: Any) -> None:
        try:
            # An ephemeral database (DuckDB's :memory:) ends with its connection, tables and all, unless the
            # connection is the caller's.
            if not (self.adapter.ephemeral and not self.adapter.borrowed):
                try:
                    self.adapter.drop_tables(list(reversed(self.temporary)))
                except Exception:  # the connection may be gone; temporary tables die with it
                    pass
        finally:
            self.adapter.close()


class Session(DatabaseSession):
    """One connection for one run (or validate, explain), its source, and the scratch tables it makes."""

    def __init__(self, config: AnonymizeConfig, db: str | Any = None) -> None:
        """``db``: a database URL overriding the config's, or the caller's open DuckDB or psycopg connection or
        SparkSession."""
        self.config = config
        given = db is not None and db != ""
        super().__init__(adapter_for(
            db if given else config.source.url or DEFAULT_URL, Path.cwd() if given else config.base_dir,
            create=config.source.csv is not None,
        ))
        #: ``source.table`` as the database resolved it (``run.resolve_names``); None: not resolved yet.
        self.source_relation: Relation | None = None
        #: The source's name as shown to people (``describe_source``).
        self.source_shown = ""

    # -- source ---------------------------------------------------------------------------------
    def open_source(self) -> tuple[tuple[str, ...], str]:
        src = self.config.source
        if src.csv is not None:
            if not self.adapter.SUPPORTS_CSV_SOURCE:
                raise ConfigError(f"source.csv: the {self.adapter.name} engine cannot read client CSV files")
            path = self.config.resolve(src.csv)
            if not path.exists():
                raise ConfigError(f"source.csv: file not found (value: {str(src.csv)!r})")
            table = self.scratch("src")
            # Every fault of the file is an InputError naming it, the cause and the line.
            from .csv_source import load_csv_source

            load_csv_source(self.adapter, table, path, src.delimiter, str(src.csv))
            return (table,), str(src.csv)
        assert src.table is not None
        parts = parse_qualified_name(src.table)
        return parts, display_name(parts)

    def check_columns(self, source: tuple[str, ...], shown: str) -> list[str]:
        try:
            columns = self.adapter.column_names(source)
        except Exception as exc:
            raise InputError(f"source.table: table {shown} not found in {self.adapter.display_url} ({exc})") from None
        attrs = self.config.attributes
        unknown = [a for a in attrs if a not in columns]
        if unknown:
            raise ConfigError(
                "\n".join(
                    f"attributes.{a}: no column {a!r} in table {shown} (columns: {', '.join(columns)})"
                    + _case_hint(a, columns) for a in unknown
                )
            )
        missing = [c for c in columns if c not in attrs]
        if missing and self.config.other_columns is None:
            raise ConfigError(
                "attributes: every column needs a role (quasi_identifier, sensitive, insensitive, identifier, "
                f"ignore); column(s) of {shown} without one: {', '.join(repr(c) for c in missing)} (or give the "
                "role of every column not listed: other_columns: insensitive, identifier or ignore)"
            )
        # Written out per column, so that every later step finds each column's role in attributes.
        self.config = self.config.with_other_columns(columns)
        return columns

    def describe_source(self) -> SourceTable:
        """The source as the run reads it: opened (a CSV file is read into a scratch table), resolved to its
        exact relation, and its columns checked against the config's roles."""
        source, shown = self.open_source()
        if self.config.source.table is not None:
            # The exact, fully qualified relation, so that every statement reads what was checked.
            relation = self.source_relation or self.adapter.resolve_relation(
                parse_spelled_name(self.config.source.table))
            source = relation.parts
        self.source_shown = shown
        return SourceTable(source, shown, self.check_columns(source, shown))

    def count_records(self, table: SourceTable, qis: list[str],
                      grouped: tuple[tuple[str, ...], str] | None = None) -> tuple[int, int]:
        """(rows of the source, rows of them that basic NULL matching removes: a NULL quasi-identifier);
        InputError when no record is left, SmallerThanKError when fewer than k are. ``grouped``: the source's rows
        grouped (the table and its count column, ``group_source_rows.sql.j2``), counted instead of the source."""
        cfg = self.config
        basic = cfg.privacy.null_handling == "basic"
        parts, counted = grouped if grouped is not None else (table.parts, None)
        counts = [int(v) for v in self.adapter.run("count_rows.sql.j2", source=parts, qis=qis, nulls=basic,
                                                   counted=counted)[0]]
        total, removed = counts[0], counts[1] if basic else 0
        considered = total - removed
        if total == 0:
            raise InputError(f"source: table {table.shown} has no rows")
        if considered == 0:
            raise InputError(
                f"source: all {total} rows of {table.shown} have a NULL quasi-identifier and basic match removes "
                f"them (privacy.null_handling: basic); use extended"
            )
        if cfg.privacy.k > considered:
            raise SmallerThanKError(
                f"privacy.k: k={cfg.privacy.k} is larger than the number of records ({considered}) in {table.shown}"
            )
        return total, removed

    def named(self, exc: ConfigError) -> ConfigError:
        """The same error, its message prefixed with the config file it is about."""
        prefix = f"{self.config.source_file}: "
        text = str(exc)
        if text.startswith(prefix):
            return exc
        return type(exc)("\n".join(prefix + line for line in text.splitlines()))

