"""Recursive (c,l)-diversity (Machanavajjhala et al. 2007, Definition 4.2): with r_1 >= r_2 >= ... >= r_m
the counts of the sensitive values in a class, the class passes when r_1 < c (r_l + r_{l+1} + ... + r_m).
Indices as in the paper (1-based; the tail starts at the l-th most frequent value); a class with fewer
than l distinct values has an empty tail and fails. Compared exactly: r_1 * den < num * tail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import PrivacyCriterion


@dataclass(frozen=True)
class RecursiveClDiversity(PrivacyCriterion):
    kind = "recursive_cl_diversity"
    requirements = frozenset({"distribution", "ranks"})
    c: float = 1.0
    l: int = 1

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"l": self.l, "c": self.ratio(self.c)}
