"""delta-presence (Nergiz, Atzori, Clifton 2007, "Hiding the presence of individuals from shared
databases"): the source is a research subset of a population table; for every class of the subset,
delta_min <= (subset records in the class) / (population records in the class) <= delta_max, compared
exactly. The population is aggregated through the same hierarchies. Not monotone (ARX: non-monotone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field, model_validator

from .base import CriterionSpec, PrivacyCriterion, ReportRow


class DeltaPresenceConfig(CriterionSpec):
    """delta-presence (Nergiz, Atzori, Clifton 2007): the source is a research subset of a population table."""

    population_table: str
    delta_min: float = Field(default=0.0, ge=0, le=1)
    delta_max: float = Field(default=1.0, ge=0, le=1)

    @model_validator(mode="after")
    def _ordered(self) -> DeltaPresenceConfig:
        if self.delta_min > self.delta_max:
            raise ValueError(f"delta_min ({self.delta_min}) must not exceed delta_max ({self.delta_max})")
        return self


@dataclass(frozen=True)
class DeltaPresence(PrivacyCriterion, kind="delta_presence"):
    """Set under ``privacy.delta_presence`` (it bounds the classes against a population, not a sensitive
    attribute), so it has no ``spec`` among the models of an attribute."""

    report = ReportRow("delta-presence", "delta", "in")
    delta_min: float = 0.0
    delta_max: float = 1.0

    @classmethod
    def from_config(cls, config: DeltaPresenceConfig) -> DeltaPresence:
        return cls(delta_min=config.delta_min, delta_max=config.delta_max)

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"dmin": self.ratio(self.delta_min), "dmax": self.ratio(self.delta_max)}

    def limit(self) -> list[float]:
        return [self.delta_min, self.delta_max]
