"""Privacy models. Each declares what it needs from the node query and whether it is monotone; ``registry``
lists them by kind."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .alpha_k_anonymity import AlphaKAnonymity
from .base import PrivacyCriterion
from .delta_presence import DeltaPresence
from .distinct_l_diversity import DistinctLDiversity
from .entropy_l_diversity import EntropyLDiversity
from .k_anonymity import KAnonymity
from .k_e_anonymity import KEAnonymity
from .p_sensitivity import PSensitivity
from .recursive_cl_diversity import RecursiveClDiversity
from .t_closeness import TCloseness

if TYPE_CHECKING:  # the config imports this package (its models' specs): no import back at run time
    from ..config.models import AnonymizeConfig


def criteria_from_config(config: AnonymizeConfig) -> list[PrivacyCriterion]:
    """k-anonymity, then every model on every sensitive attribute, then delta-presence."""
    out: list[PrivacyCriterion] = [KAnonymity(k=config.privacy.k)]
    for j, name in enumerate(config.sensitive_with_models):
        out.extend(model.criterion(j, name) for model in config.attributes[name].models)
    if config.privacy.delta_presence is not None:
        out.append(DeltaPresence.from_config(config.privacy.delta_presence))
    return out


__all__ = [
    "AlphaKAnonymity", "DeltaPresence", "DistinctLDiversity", "EntropyLDiversity", "KAnonymity",
    "KEAnonymity", "PSensitivity", "PrivacyCriterion", "RecursiveClDiversity", "TCloseness",
    "criteria_from_config",
]
