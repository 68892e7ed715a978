"""Distinct l-diversity (Machanavajjhala, Kifer, Gehrke, Venkitasubramaniam 2007, section 4.1; seed 000
section 2): every class holds at least l distinct values of the sensitive attribute, NULL counting as
one more value (SEMANTICS.md). Monotone with suppression: a merged class keeps every value of its parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import PrivacyCriterion


@dataclass(frozen=True)
class DistinctLDiversity(PrivacyCriterion):
    kind = "distinct_l_diversity"
    requirements = frozenset({"distribution"})
    summary_columns = ("nv",)
    l: int = 1

    def is_monotonic_with_generalization(self) -> bool:
        return True

    def parameters(self) -> dict[str, Any]:
        return {"l": self.l}
