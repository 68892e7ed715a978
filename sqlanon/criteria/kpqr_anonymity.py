"""(k,p,q,r)-anonymity (Domingo-Ferrer, Sebé, Solanas, PSD 2008; seed 004 Definition 7) for a numeric sensitive
attribute: every class that holds a value fewer than q * n records of the table hold (a rare value) has at least
p distinct values (NULL counts as one) and a population variance at least r times the whole attribute's. Classes
without a rare value are not bounded beyond k.

Not monotone: a class without a rare value (any variance) merged with one that has one must then meet r, and
its variance may be the lower. The search stays exact (no predictive tagging with it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion, ReportRow


class KpqrAnonymitySpec(CriterionSpec):
    p: int = Field(ge=1)
    q: float = Field(gt=0, le=1)
    r: float = Field(ge=0, le=1)


@dataclass(frozen=True)
class KpqrAnonymity(PrivacyCriterion, kind="kpqr_anonymity", spec=KpqrAnonymitySpec, listed=8):
    report = ReportRow("(k,p,q,r)-anonymity (p={p}, q={q:g})", "r")
    numeric_variant = "(k,p,q,r)-anonymity"
    counts_distinct_values = True
    p: int = 1
    q: float = 1.0
    r: float = 0.0

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"l": self.p, "q": self.ratio(self.q), "r": self.ratio(self.r)}

    def needs_numeric_column(self) -> bool:
        return True
