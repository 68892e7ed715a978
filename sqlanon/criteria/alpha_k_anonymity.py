"""(alpha,k)-anonymity (Wong, Li, Fu, Wang 2006; seed 004 Definition 4): in every class no sensitive
value has a relative frequency above alpha: max_v c_v * den <= num * s (exact). Not monotone with
suppression: merging a passing class with a failing one can fail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion, ReportRow


class AlphaKAnonymitySpec(CriterionSpec):
    alpha: float = Field(gt=0, le=1)


@dataclass(frozen=True)
class AlphaKAnonymity(PrivacyCriterion, kind="alpha_k_anonymity", spec=AlphaKAnonymitySpec, listed=6):
    report = ReportRow("(alpha,k)-anonymity", "alpha", "<=", worst="alpha", per_class="alpha")
    summary_columns = ("maxc",)
    alpha: float = 1.0

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"alpha": self.ratio(self.alpha)}
