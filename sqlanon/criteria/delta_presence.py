"""delta-presence (Nergiz, Atzori, Clifton 2007, "Hiding the presence of individuals from shared
databases"): the source is a research subset of a population table; for every class of the subset,
delta_min <= (subset records in the class) / (population records in the class) <= delta_max, compared
exactly. The population is aggregated through the same hierarchies. Not monotone (ARX: non-monotone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import PrivacyCriterion


@dataclass(frozen=True)
class DeltaPresence(PrivacyCriterion):
    kind = "delta_presence"
    requirements = frozenset({"population"})
    delta_min: float = 0.0
    delta_max: float = 1.0

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"dmin": self.ratio(self.delta_min), "dmax": self.ratio(self.delta_max)}
