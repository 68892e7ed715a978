"""Recursive (c,l)-diversity (Machanavajjhala et al. 2007, Definition 4.2): with r_1 >= r_2 >= ... >= r_m
the counts of the sensitive values in a class, the class passes when r_1 < c (r_l + r_{l+1} + ... + r_m).
Indices as in the paper (1-based; the tail starts at the l-th most frequent value); a class with fewer
than l distinct values has an empty tail and fails. Compared exactly: r_1 * den < num * tail.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion, ReportRow, as_fraction


class RecursiveClDiversitySpec(CriterionSpec):
    c: float = Field(gt=0)
    l: int = Field(ge=1)


@dataclass(frozen=True)
class RecursiveClDiversity(PrivacyCriterion, kind="recursive_cl_diversity", spec=RecursiveClDiversitySpec, listed=3):
    report = ReportRow("recursive (c={c:g}, l)-diversity", "l", worst="recursive_l", per_class="recursive_l")
    counts_distinct_values = True
    c: float = 1.0
    l: int = 1

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"l": self.l, "c": self.ratio(self.c)}

    def check_c(self) -> Fraction:
        # The largest l the table meets depends on c: measured with this model's own.
        return as_fraction(self.c)
