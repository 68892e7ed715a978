"""Parsing of (optionally schema-qualified) table names written in configs and on the command line.

A name is a dot-separated list of parts; a part may be double-quoted so that it can contain dots,
spaces or quotes (``"my schema"."odd ""table"".v2"``). Quoting for SQL is the adapter's job.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConfigError


def parse_qualified_name(text: str) -> tuple[str, ...]:
    """Split ``schema.table`` into its parts, honouring double quotes.

    >>> parse_qualified_name('analytics.adult')
    ('analytics', 'adult')
    >>> parse_qualified_name('"we.ird"."ta""ble"')
    ('we.ird', 'ta"ble')
    >>> parse_qualified_name('adult')
    ('adult',)
    """
    return parse_spelled_name(text).parts


@dataclass(frozen=True)
class SpelledName:
    """A table name as the user wrote it: its parts and which of them were double-quoted. Unquoted parts
    follow the engine's own rule for case (PostgreSQL folds them to lower case, DuckDB compares without
    case); quoted parts are exact (``EngineAdapter.resolve_relation``).

    >>> parse_spelled_name('Analytics."Adult"')
    SpelledName(text='Analytics."Adult"', parts=('Analytics', 'Adult'), quoted=(False, True))
    """

    text: str
    parts: tuple[str, ...]
    quoted: tuple[bool, ...]


def parse_spelled_identifier(text: str) -> SpelledName:
    """One identifier as written (a schema name): double-quoted, it is exact (``""`` for a quote inside);
    otherwise the text itself, dots and quotes included, whose case follows the engine's rule.

    >>> parse_spelled_identifier('"Audit"')
    SpelledName(text='"Audit"', parts=('Audit',), quoted=(True,))
    >>> parse_spelled_identifier('my.history')
    SpelledName(text='my.history', parts=('my.history',), quoted=(False,))
    """
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return SpelledName(text, (text[1:-1].replace('""', '"'),), (True,))
    return SpelledName(text, (text,), (False,))


def parse_spelled_name(text: str) -> SpelledName:
    """``parse_qualified_name`` keeping which parts were quoted."""
    parts: list[str] = []
    quoted_flags: list[bool] = []
    current: list[str] = []
    i, quoted_part = 0, False
    while i < len(text):
        ch = text[i]
        if ch == '"' and not current and not quoted_part:
            end = i + 1
            buf: list[str] = []
            while True:
                if end >= len(text):
                    raise ConfigError(f"table name {text!r}: unterminated double quote")
                if text[end] == '"':
                    if end + 1 < len(text) and text[end + 1] == '"':
                        buf.append('"')
                        end += 2
                        continue
                    break
                buf.append(text[end])
                end += 1
            current = buf
            quoted_part = True
            i = end + 1
            if i < len(text) and text[i] != ".":
                raise ConfigError(f"table name {text!r}: expected '.' after a quoted part")
            continue
        if ch == ".":
            parts.append(_finish_part(text, current, quoted_part))
            quoted_flags.append(quoted_part)
            current, quoted_part = [], False
        else:
            if quoted_part:
                raise ConfigError(f"table name {text!r}: text after a quoted part")
            current.append(ch)
        i += 1
    parts.append(_finish_part(text, current, quoted_part))
    quoted_flags.append(quoted_part)
    if len(parts) > 3:
        raise ConfigError(f"table name {text!r}: at most catalog.schema.table")
    return SpelledName(text, tuple(parts), tuple(quoted_flags))


def _finish_part(text: str, chars: list[str], quoted: bool) -> str:
    part = "".join(chars)
    if not quoted:
        part = part.strip()
    if not part:
        raise ConfigError(f"table name {text!r}: empty name part")
    if "\x00" in part:
        raise ConfigError(f"table name {text!r}: NUL characters are not allowed")
    return part


def display_name(parts: tuple[str, ...]) -> str:
    """Render parts for messages, quoting only where needed.

    >>> display_name(('analytics', 'adult'))
    'analytics.adult'
    >>> display_name(('my table',))
    '"my table"'
    """
    def one(p: str) -> str:
        if p.replace("_", "").isalnum() and not p[0].isdigit():
            return p
        return '"' + p.replace('"', '""') + '"'

    return ".".join(one(p) for p in parts)


@dataclass(frozen=True)
class Relation:
    """What a name denotes in the database (``EngineAdapter.resolve_relation``): the relation the engine would
    read, or, when none exists, where a CREATE TABLE of that name would put it.

    ``parts`` are exact and fully qualified (catalog.schema.table on DuckDB, schema.table on PostgreSQL), so
    that statements written with them cannot land elsewhere; ``key`` is the identity two names are compared
    by (DuckDB compares names without case)."""

    spelled: str
    parts: tuple[str, ...]
    key: tuple[str, ...]
    #: 'table', 'view' (materialized views included), 'foreign table', or None where nothing exists yet.
    kind: str | None
    #: The schema the name lies in exists (a table can be created there).
    schema_exists: bool = True
    #: The session may create tables in that schema (and, for an existing table, drop it); None: unknown.
    writable: bool | None = None

    @property
    def exists(self) -> bool:
        return self.kind is not None

    @property
    def shown(self) -> str:
        """The exact, fully qualified name for messages."""
        return display_name(self.parts)
