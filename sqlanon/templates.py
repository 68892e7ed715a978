"""Rendering of the Jinja2 SQL templates in ``sql/``.

Templates render with ``StrictUndefined``; identifiers go through the ``ident`` / ``qname`` filters
(the adapter's quoting) and values through ``bind()`` (bind parameters, never literals).
An engine may override a template by placing a file with the same relative path in ``sql/<engine>/``.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

if TYPE_CHECKING:
    from .engines.base import EngineAdapter


def _data_root(name: str) -> Path:
    """``sql/`` or ``migrations/``: inside the installed wheel, or at the top of a source checkout."""
    packaged = resources.files("sqlanon").joinpath(name)
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / name


def sql_root() -> Path:
    """Folder holding the SQL templates."""
    return _data_root("sql")


def migrations_root() -> Path:
    """Folder holding the metadata-schema migrations (``NNNN_name.sql.j2``)."""
    return _data_root("migrations")


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between processes, in Jinja's per-user cache folder (mode 0700, checked),
    keyed by template and checked against its source: compiling a run's templates is a noticeable share of
    every fresh process."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:  # a cache that cannot be written only costs the compile time
            pass


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    if os.environ.get("SQLANON_NO_TEMPLATE_CACHE"):
        return None
    try:
        return _CompiledTemplates()
    except (OSError, RuntimeError):  # no usable temporary folder, or one another user could write to
        return None


@cache
def _environment(engine: str, kind: str = "sql") -> jinja2.Environment:
    if kind == "migrations":
        loader: jinja2.BaseLoader = jinja2.FileSystemLoader(str(migrations_root()))
    else:
        root = sql_root()
        loader = jinja2.ChoiceLoader(
            [jinja2.FileSystemLoader(str(root / engine)), jinja2.FileSystemLoader(str(root / "common"))]
        )
    return jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        auto_reload=False,  # templates do not change during a run; skip the per-render stat() calls
        bytecode_cache=_bytecode_cache(),
    )


def render_template(
    adapter: EngineAdapter, template: str, context: dict[str, Any], kind: str = "sql"
) -> tuple[str, list[Any]]:
    """Render one template; bind parameters come back as NUL-delimited markers plus their values.

    ``kind`` is ``sql`` (``sql/<engine>`` over ``sql/common``) or ``migrations``.
    """
    values: list[Any] = []

    def bind(value: Any) -> str:
        values.append(value)
        return f"\x00{len(values) - 1}\x00"

    env = _environment(adapter.name, kind)
    tmpl = env.get_template(template)
    text = tmpl.render(
        **context,
        bind=bind,
        ident=adapter.quote_identifier,
        qname=adapter.quote_qualified,
        engine=adapter,
    )
    return text.strip() + "\n", values


def render_macro(adapter: EngineAdapter, template: str, macro: str, *args: Any) -> str:
    """Call one macro of a template (``sql/<engine>`` over ``sql/common``) and return its text: for a fragment
    that a caller renders apart from the statement around it (``NodeEvaluator``'s class keys). The macro gets
    no ``bind`` or ``ident``: its text holds neither values nor identifiers."""
    module = _environment(adapter.name).get_template(template).module
    return str(getattr(module, macro)(*args))


def template_names() -> list[str]:
    """All template paths relative to ``sql/common`` or ``sql/<engine>`` (for the coverage test)."""
    root = sql_root()
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.sql.j2"))
