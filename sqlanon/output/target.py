"""Deciding, before any work, that the output may be written where it is named.

Names are compared as the database resolves them (``EngineAdapter.resolve_relation``), never as text: on
DuckDB ``SRC``, ``"SRC"``, ``main.src`` and ``<catalog>.main.src`` all denote the table ``src``, on PostgreSQL
``public.src`` and ``<database>.public.src`` do. The output may never be, nor replace, a relation the run reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engines.base import EngineAdapter
from ..errors import ConfigError, InputError
from ..history.schema import resolve_schema
from ..identifiers import Relation, SpelledName, parse_spelled_name


def resolve(adapter: EngineAdapter, text: str) -> Relation:
    """The relation a table name written in a config or on the command line denotes."""
    return adapter.resolve_relation(parse_spelled_name(text))


def check_output_identity(
    adapter: EngineAdapter, output: Relation, read: Iterable[tuple[str, Relation]], *, key: str,
    history_schema: str | None,
) -> None:
    """Refuse (ConfigError, exit 2) an output that is, or would replace, a relation the run reads (``read``:
    (config key, relation) pairs), or that lies in the run-history schema."""
    for read_key, relation in read:
        if relation.key == output.key:
            raise ConfigError(
                f"{key}: {output.spelled!r} is the table {read_key} names ({relation.spelled!r}): both are "
                f"{relation.shown} in {adapter.display_url}; the run reads it, so it can never be the output"
            )
        if output.key in adapter.tables_read(relation):
            raise ConfigError(
                f"{key}: {output.spelled!r} ({output.shown}) is read by the view {read_key} names "
                f"({relation.spelled!r}, {relation.shown}) in {adapter.display_url}; the run reads it, so it can "
                f"never be the output"
            )
    if history_schema is not None:
        exact = resolve_schema(adapter, history_schema)
        history = adapter.resolve_relation(SpelledName(history_schema, (exact, "x"), (True, True)))
        if history.key[:-1] == output.key[:-1]:
            raise ConfigError(
                f"{key}: {output.spelled!r} lies in the run-history schema {history_schema!r} "
                f"({output.shown}); write the output to another schema"
            )


def check_output_writable(adapter: EngineAdapter, output: Relation, *, key: str, if_exists: str,
                          replace_hint: str = "set output.if_exists: replace") -> None:
    """Refuse (ConfigError, exit 2) an output that cannot be written: a view, an existing table without
    ``if_exists: replace``, a table that views or foreign keys depend on (its DROP would fail after the
    search), a missing schema, no permission."""
    if output.exists:
        if output.kind != "table":
            raise ConfigError(f"{key}: {output.spelled!r} is a {output.kind} ({output.shown}); the output must "
                              f"be a table or a new name")
        if if_exists != "replace":
            raise ConfigError(
                f"{key}: table {output.shown} already exists in {adapter.display_url} "
                f"({replace_hint} to overwrite it)"
            )
        blockers = adapter.dependants(output)
        if blockers:
            listed = ", ".join(f"{name} ({kind})" for name, kind in blockers)
            raise ConfigError(
                f"{key}: table {output.shown} cannot be replaced: {listed} depend(s) on it; drop or redefine "
                f"them first, or write to a new name"
            )
    elif not output.schema_exists:
        raise ConfigError(f"{key}: the schema of {output.spelled!r} ({'.'.join(output.parts[:-1])}) does not "
                          f"exist in {adapter.display_url}; create it first")
    if output.writable is False:
        verb = "replace" if output.exists else "create"
        raise ConfigError(f"{key}: no permission to {verb} {output.shown} in {adapter.display_url} "
                          f"(the database is read-only or the role lacks the privilege)")


def require_existing(adapter: EngineAdapter, relation: Relation, key: str) -> Relation:
    """The relation, or InputError naming the key when nothing of that name exists."""
    if not relation.exists:
        folded = ""
        if relation.parts[-1] != parse_spelled_name(relation.spelled).parts[-1]:
            folded = (f" (as written it denotes {relation.shown}: unquoted names follow the engine's case rule; "
                      f"double-quote a part to keep its case)")
        raise InputError(f"{key}: table {relation.spelled} not found in {adapter.display_url}{folded}")
    return relation
