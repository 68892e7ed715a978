"""Privacy models. Each declares what it needs from the node query and whether it is monotone."""

from __future__ import annotations

from ..config.models import AnonymizeConfig
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


def criteria_from_config(config: AnonymizeConfig) -> list[PrivacyCriterion]:
    """k-anonymity, then every model on every sensitive attribute, then delta-presence."""
    out: list[PrivacyCriterion] = [KAnonymity(k=config.privacy.k)]
    for j, name in enumerate(config.sensitive_with_models):
        for model in config.attributes[name].models:
            spec = model.spec
            common = {"attribute": j, "attribute_name": name}
            if model.kind == "distinct_l_diversity":
                out.append(DistinctLDiversity(**common, l=spec.l))
            elif model.kind == "entropy_l_diversity":
                out.append(EntropyLDiversity(**common, l=spec.l))
            elif model.kind == "recursive_cl_diversity":
                out.append(RecursiveClDiversity(**common, c=spec.c, l=spec.l))
            elif model.kind == "t_closeness":
                out.append(TCloseness(**common, t=spec.t, distance=spec.distance))
            elif model.kind == "p_sensitivity":
                out.append(PSensitivity(**common, p=spec.p))
            elif model.kind == "alpha_k_anonymity":
                out.append(AlphaKAnonymity(**common, alpha=spec.alpha))
            else:
                out.append(KEAnonymity(**common, e=spec.e))
    dp = config.privacy.delta_presence
    if dp is not None:
        out.append(DeltaPresence(delta_min=dp.delta_min, delta_max=dp.delta_max))
    return out


__all__ = [
    "AlphaKAnonymity", "DeltaPresence", "DistinctLDiversity", "EntropyLDiversity", "KAnonymity",
    "KEAnonymity", "PSensitivity", "PrivacyCriterion", "RecursiveClDiversity", "TCloseness",
    "criteria_from_config",
]
