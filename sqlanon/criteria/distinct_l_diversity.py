"""Distinct l-diversity (Machanavajjhala, Kifer, Gehrke, Venkitasubramaniam 2007, section 4.1; seed 000
section 2): every class holds at least l distinct values of the sensitive attribute, NULL counting as
one more value (SEMANTICS.md). Monotone with suppression: a merged class keeps every value of its parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion, ReportRow


class DistinctLDiversitySpec(CriterionSpec):
    l: int = Field(ge=1)


@dataclass(frozen=True)
class DistinctLDiversity(PrivacyCriterion, kind="distinct_l_diversity", spec=DistinctLDiversitySpec, listed=1):
    report = ReportRow("distinct l-diversity", "l", worst="distinct_l", per_class="distinct_values")
    summary_columns = ("nv",)
    counts_distinct_values = True
    l: int = 1

    def is_monotonic_with_generalization(self) -> bool:
        return True

    def parameters(self) -> dict[str, Any]:
        return {"l": self.l}
