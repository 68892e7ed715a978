"""Parsing of (optionally schema-qualified) table names written in configs and on the command line.

A name is a dot-separated list of parts; a part may be double-quoted so that it can contain dots,
spaces or quotes (``"my schema"."odd ""table"".v2"``). Quoting for SQL is the adapter's job.
"""

from __future__ import annotations

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
    parts: list[str] = []
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
            current, quoted_part = [], False
        else:
            if quoted_part:
                raise ConfigError(f"table name {text!r}: text after a quoted part")
            current.append(ch)
        i += 1
    parts.append(_finish_part(text, current, quoted_part))
    if len(parts) > 3:
        raise ConfigError(f"table name {text!r}: at most catalog.schema.table")
    return tuple(parts)


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
