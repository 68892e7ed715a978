"""t-closeness (Li, Li, Venkatasubramanian 2007, "t-Closeness: Privacy beyond k-anonymity and
l-diversity"): the Earth Mover's Distance between a class's distribution of the sensitive attribute
and the whole table's is at most t. Three ground distances (section 4 of the paper):

- equal: every pair of values at distance 1; EMD = 1/2 sum_v |p_v - q_v|.
- ordered: values ranked 1..m (natural order of the column, NULL last); distance |i - j| / (m - 1);
  EMD = 1/(m-1) sum_i |sum_{j<=i} (p_j - q_j)|.
- hierarchical: distance level(LCA) / (h - 1) in the attribute's hierarchy; EMD = sum over internal nodes N
  of level(N)/(h-1) * min(pos_extra(N), neg_extra(N)).

All three are computed on integers scaled by s * n (class size times table size) and compared exactly with
t = num/den. Not monotone once suppression is allowed (ARX: non-monotone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import PrivacyCriterion


@dataclass(frozen=True)
class TCloseness(PrivacyCriterion):
    kind = "t_closeness"
    t: float = 0.0
    distance: str = "equal"

    @property
    def requirements(self) -> frozenset[str]:  # type: ignore[override]
        return frozenset({"distribution", f"emd_{self.distance}"})

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"t": self.ratio(self.t), "distance": self.distance}
