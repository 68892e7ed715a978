"""(k,e)-anonymity (Zhang, Koudas, Srivastava, Yu 2007; seed 004 Definition 5) for a numeric sensitive
attribute: the range max - min of its values in every class is at least e. NULLs are ignored; a class
whose values are all NULL has no range and fails. Monotone: a merged class's range contains its parts'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion, ReportRow


class KEAnonymitySpec(CriterionSpec):
    e: float = Field(ge=0)


@dataclass(frozen=True)
class KEAnonymity(PrivacyCriterion, kind="k_e_anonymity", spec=KEAnonymitySpec, listed=7):
    report = ReportRow("(k,e)-anonymity", "e", worst="e", per_class="e_range")
    summary_columns = ("range",)
    numeric_variant = "(k,e)-anonymity"
    e: float = 0.0

    def is_monotonic_with_generalization(self) -> bool:
        return True

    def parameters(self) -> dict[str, Any]:
        return {"e": float(self.e)}

    def needs_numeric_column(self) -> bool:
        return True
