"""p-sensitive k-anonymity (Truta and Vinay 2006; seed 004 Definition 2): at least p distinct values of
the sensitive attribute in each class (NULL counts as a value). Monotone with suppression, like distinct
l-diversity: a merged class keeps all values of its parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion, ReportRow


class PSensitivitySpec(CriterionSpec):
    p: int = Field(ge=1)


@dataclass(frozen=True)
class PSensitivity(PrivacyCriterion, kind="p_sensitivity", spec=PSensitivitySpec, listed=5):
    report = ReportRow("p-sensitivity", "p", worst="p", per_class="distinct_values")
    summary_columns = ("nv",)
    counts_distinct_values = True
    p: int = 1

    def is_monotonic_with_generalization(self) -> bool:
        return True

    def parameters(self) -> dict[str, Any]:
        return {"l": self.p}
