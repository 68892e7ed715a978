"""Every privacy model by its kind, found among the modules of this package: adding a model is adding its
module (a ``PrivacyCriterion`` subclass) and its macros in ``sql/common/macros/criteria.sql.j2``.

The config (``config/models.py``: the choices of a sensitive attribute's ``models``), the construction of
a run's models (``criteria_from_config``), the report and the methods' preparation all read this table;
none of them names a model kind.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import PrivacyCriterion


def _subclasses(cls: type[PrivacyCriterion]) -> list[type[PrivacyCriterion]]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def _discover() -> dict[str, type[PrivacyCriterion]]:
    package = __name__.rpartition(".")[0]
    for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
        importlib.import_module(f"{package}.{module.name}")
    found = [c for c in _subclasses(PrivacyCriterion) if "kind" in vars(c)]
    return {c.kind: c for c in sorted(found, key=lambda c: (c.spec is None, c.listed, c.kind))}


#: kind -> model class: first the models of a sensitive attribute, in the order configs list them.
MODELS: dict[str, type[PrivacyCriterion]] = _discover()

#: The models a sensitive attribute's ``models`` may hold (one mapping each, under its kind).
ATTRIBUTE_MODELS: dict[str, type[PrivacyCriterion]] = {k: c for k, c in MODELS.items() if c.spec is not None}


def numeric_variants() -> str:
    """How messages name the models that need a numeric sensitive attribute.

    >>> numeric_variants()
    '(k,e)-anonymity, (k,p,q,r)-anonymity and ordered t-closeness'
    """
    names = sorted(c.numeric_variant for c in ATTRIBUTE_MODELS.values() if c.numeric_variant)
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def hierarchy_readers() -> str:
    """How messages name the models that read a sensitive attribute's hierarchy.

    >>> hierarchy_readers()
    'hierarchical t_closeness'
    """
    return " or ".join(sorted(c.hierarchy_variant[1] for c in ATTRIBUTE_MODELS.values() if c.hierarchy_variant))
