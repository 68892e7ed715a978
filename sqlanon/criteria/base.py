"""Interface of a privacy model (after ARX ``criteria/PrivacyCriterion.java``).

A model is checked per equivalence class inside the node query: it names the SQL it needs
(``kind`` selects its macros in ``sql/common/macros/criteria.sql.j2``) and the aggregates those macros
use (``requirements``), and says whether it is monotone. Thresholds are passed as exact fractions
(numerator, denominator) so that both engines decide every class identically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar


def as_fraction(value: float) -> Fraction:
    """The decimal the user wrote, exactly (0.2 -> 1/5, not the binary float).

    >>> as_fraction(0.2)
    Fraction(1, 5)
    """
    return Fraction(str(value))


@dataclass(frozen=True)
class PrivacyCriterion:
    """A privacy model checked per equivalence class inside the node query."""

    #: Name in reports and configs, and the macro selector in the templates.
    kind: ClassVar[str]
    #: Aggregates the node query must compute for this model.
    requirements: ClassVar[frozenset[str]] = frozenset()
    #: Columns of its sensitive attribute's per-class summary that the model's SQL reads (classes or a{i} in
    #: judge.sql.j2): nv distinct values, maxc largest count, clogc sum c ln c, range (max_num and min_num).
    #: Only these are computed: the others cost a query an aggregate each, a logarithm or a join.
    summary_columns: ClassVar[tuple[str, ...]] = ()
    #: Index of the sensitive attribute (position among sensitive attributes with models), or None.
    attribute: int | None = None
    #: Name of the sensitive attribute, for reports.
    attribute_name: str | None = field(default=None, compare=False)

    def is_monotonic_with_generalization(self) -> bool:
        """True when a generalization of a feasible node (suppression limit included) is feasible.

        Only monotone models may be used for predictive tagging; the search stays exact otherwise.
        """
        raise NotImplementedError  # pragma: no cover

    def parameters(self) -> dict[str, Any]:
        """Template parameters (integers, exact fraction parts, floats for logarithms)."""
        return {}

    def context(self, index: int) -> dict[str, Any]:
        return {"kind": self.kind, "index": index, "attribute": self.attribute,
                "summary_columns": list(self.summary_columns), **self.parameters()}

    @staticmethod
    def ratio(value: float) -> dict[str, int]:
        f = as_fraction(value)
        return {"num": f.numerator, "den": f.denominator}
