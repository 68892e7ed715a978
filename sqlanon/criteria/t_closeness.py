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
from typing import Any, Literal

from pydantic import Field

from .base import CriterionSpec, PrivacyCriterion, ReportRow


class TClosenessSpec(CriterionSpec):
    t: float = Field(ge=0, le=1)
    distance: Literal["equal", "hierarchical", "ordered"] = "equal"


#: The check measures of the worst class and per class, by ground distance. Hierarchical t is not re-measured
#: by the report (it has no hierarchy lookup), ordered t not per class.
_MEASURES: dict[str, tuple[str | None, str | None]] = {
    "equal": ("t_equal", "t_equal"), "ordered": ("t_ordered", None), "hierarchical": (None, None),
}


@dataclass(frozen=True)
class TCloseness(PrivacyCriterion, kind="t_closeness", spec=TClosenessSpec, listed=4):
    report = ReportRow("t-closeness ({distance})", "t", "<=")
    numeric_variant = "ordered t-closeness"
    hierarchy_variant = ("t_closeness with distance hierarchical", "hierarchical t_closeness")
    t: float = 0.0
    distance: str = "equal"

    def is_monotonic_with_generalization(self) -> bool:
        return False

    def parameters(self) -> dict[str, Any]:
        return {"t": self.ratio(self.t), "distance": self.distance}

    def needs_numeric_column(self) -> bool:
        # The ordered distance ranks the values by the column's own order, which must be numeric.
        return self.distance == "ordered"

    def reads_hierarchy(self) -> bool:
        return self.distance == "hierarchical"

    def measures(self) -> tuple[str | None, str | None]:
        return _MEASURES[self.distance]
