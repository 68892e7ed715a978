"""p-sensitive k-anonymity (Truta and Vinay 2006; seed 004 Definition 2): at least p distinct values of
the sensitive attribute in each class (NULL counts as a value). Monotone with suppression, like distinct
l-diversity: a merged class keeps all values of its parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion


class PSensitivitySpec(CriterionSpec):
    p: int = Field(ge=1)


@dataclass(frozen=True)
class PSensitivity(PrivacyCriterion):
    kind = "p_sensitivity"
    spec = PSensitivitySpec
    listed = 5
    summary_columns = ("nv",)
    title = "p-sensitivity"
    parameter = "p"
    worst_measure = "p"
    class_measure = "distinct_values"
    counts_distinct_values = True
    p: int = 1

    def is_monotonic_with_generalization(self) -> bool:
        return True

    def parameters(self) -> dict[str, Any]:
        return {"l": self.p}
