"""Anonymization methods: each is one package behind one interface (``base.AnonymizationMethod``), chosen by
the config's top-level ``method:`` key. Everything around a method (config loading, the session, the atomic
write, the independent verification, reports, run history, ``check``) is shared: ``sqlanon/run.py``.

A method's package is imported only when a config names it, so that ``sqlanon --help`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import ConfigError

if TYPE_CHECKING:
    from ..config.models import AnonymizeConfig
    from .base import AnonymizationMethod

#: Method name (the config's ``method:``) -> its package. The package holds ``config.py`` (``CONFIG``, the
#: pydantic model of its configs) and exports ``METHOD`` (its ``AnonymizationMethod`` subclass).
PACKAGES: dict[str, str] = {
    "generalization": "sqlanon.methods.generalization",
    "microaggregation": "sqlanon.methods.microaggregation",
    "local_recoding": "sqlanon.methods.local_recoding",
    "cloaking": "sqlanon.methods.cloaking",
    "related_tables": "sqlanon.methods.related_tables",
}

DEFAULT = "generalization"


def _package(name: str) -> str:
    try:
        return PACKAGES[name]
    except (KeyError, TypeError):
        raise ConfigError(f"method: unknown method {name!r} (one of: {', '.join(PACKAGES)})") from None


def config_class(name: str) -> type[AnonymizeConfig]:
    """The config model of the method ``name``."""
    return importlib.import_module(_package(name) + ".config").CONFIG


def method_class(name: str) -> type[AnonymizationMethod]:
    """The ``AnonymizationMethod`` subclass of the method ``name``."""
    return importlib.import_module(_package(name)).METHOD
