"""Hierarchy rows from configuration: ARX-shaped CSV files and inline YAML mappings.

These are configuration data (small), not microdata; they are read in Python and bulk-inserted into
the target database. Builders (intervals, mask, dates) and table hierarchies never leave the database.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError


def read_csv_hierarchy(path: Path, delimiter: str, null_value: str | None, where: str) -> list[list[str | None]]:
    """Rows ``value;level1;...;top`` (no header) of the hierarchy file a config (``where``: its key) or
    ``sqlanon check --hierarchy`` names. Every row must have the same number of columns.

    Returns rows ``[value, l0, l1, ...]`` with ``l0 == value`` (the shape of ``create_lookup_table.sql.j2``); an
    explicit NULL mapping (a value equal to ``null_value``) has value None.
    """
    try:
        with path.open(newline="", encoding="utf-8-sig") as fh:
            raw = [row for row in csv.reader(fh, delimiter=delimiter) if any(row)]
    except FileNotFoundError:
        raise ConfigError(f"{where}: hierarchy file not found (value: {str(path)!r})") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ConfigError(f"{where}: cannot read hierarchy file {str(path)!r}: {exc}") from None
    if not raw:
        raise ConfigError(f"{where}: hierarchy file {str(path)!r} is empty")
    height = len(raw[0])
    for lineno, row in enumerate(raw, start=1):
        if len(row) != height:
            raise ConfigError(
                f"{where}: {path.name} line {lineno} has {len(row)} columns, expected {height} "
                f"(all rows of a hierarchy must have the same height)"
            )
    if null_value is None:
        return [[row[0], *row] for row in raw]
    return [[None, None, *row[1:]] if row[0] == null_value else [row[0], *row] for row in raw]


_DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


def delimiter_hint(path: Path, delimiter: str) -> str:
    """`` (the file looks comma-separated: set delimiter: ",")`` when no line of the file's start holds
    ``delimiter`` and every one holds one other delimiter; else empty. For a file read as one column."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return ""
    lines = head.decode("utf-8", errors="replace").splitlines()
    lines = [line for line in lines[: -1 if len(head) == 4096 and len(lines) > 1 else None][:20] if line.strip()]
    if not lines or any(delimiter in line for line in lines):
        return ""
    found = [d for d in _DELIMITERS if d != delimiter and all(d in line for line in lines)]
    if len(found) != 1:
        return ""
    return f' (the file looks {_DELIMITERS[found[0]]}-separated: set delimiter: {json.dumps(found[0])})'


@dataclass(frozen=True)
class PlainCsv:
    """A hierarchy file the database can parse exactly as Python's reader does (see ``plain_csv``)."""

    data: bytes  # the file without its byte-order mark
    height: int  # columns of the first row that has a non-empty field


def plain_csv(path: Path, delimiter: str) -> PlainCsv | None:
    """The file, when the database's CSV reader would read the same rows as ``read_csv_hierarchy``: a regular
    file at an absolute path without glob characters (DuckDB expands them), UTF-8, no quote character (quoting
    is where CSV readers differ), no NUL, no line ``\\.`` (PostgreSQL's end-of-data marker before version 18),
    and a non-empty row. Otherwise None, and Python's reader loads the file or says what is wrong with it. A
    database that rejects a file it was given (a row of another width, mixed line ends) falls back to Python's
    reader too."""
    if not path.is_absolute() or any(c in str(path) for c in "*?[{") or delimiter in '"\r\n':
        return None
    if not path.is_file():  # a pipe, say: read once here, the database would wait on it for ever
        return None
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if '"' in text or "\0" in text or "\\." in text:
        return None
    if text.startswith("\ufeff"):
        data, text = data[3:], text[1:]
    for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
        if any(row):
            return PlainCsv(data, len(row))
    return None


def inline_rows(mapping: dict[Any, list[Any]], where: str, null_value: str | None = None) -> list[list[str | None]]:
    """Rows from ``{value: [level1, level2, ...]}``; a YAML ``null`` key (or the key ``null_value``, which is
    how a recorded config spells it in JSON) maps NULL explicitly."""
    heights = {len(levels) for levels in mapping.values()}
    if len(heights) != 1:
        raise ConfigError(f"{where}.inline: all values need the same number of levels (got {sorted(heights)})")
    rows: list[list[str | None]] = []
    for value, levels in mapping.items():
        for level in levels:
            if isinstance(level, dict | list) or level is None:
                raise ConfigError(f"{where}.inline.{value}: levels must be plain values (got {level!r})")
        labels = [text(level) for level in levels]
        if value is None or (null_value is not None and text(value) == null_value):
            rows.append([None, None, *labels])
        else:
            rows.append([text(value), text(value), *labels])
    return rows


def text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
