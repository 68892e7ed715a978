"""Entropy l-diversity (Machanavajjhala et al. 2007, Definition 4.1 "entropy l-diversity"):
-sum_v p(v) ln p(v) >= ln(l) in every class, p the class distribution of the sensitive attribute.

Logarithms are irrational, so the test runs in double precision with a tolerance of 1e-9 on the
entropy (a uniform class over exactly l values passes on both engines). Not monotone once suppression
is allowed: merging a diverse class with a non-diverse one can fail (ARX declares it non-monotone too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion, ReportRow

ENTROPY_TOLERANCE = 1e-9


class EntropyLDiversitySpec(CriterionSpec):
    l: float = Field(ge=1)


@dataclass(frozen=True)
class EntropyLDiversity(PrivacyCriterion, kind="entropy_l_diversity", spec=EntropyLDiversitySpec, listed=2):
    report = ReportRow("entropy l-diversity", "l", worst="entropy_l", per_class="entropy_l")
    summary_columns = ("clogc",)
    counts_distinct_values = True
    l: float = 1.0

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"l": float(self.l), "tolerance": ENTROPY_TOLERANCE}
