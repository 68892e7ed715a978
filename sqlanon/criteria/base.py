"""Interface of a privacy model (after ARX ``criteria/PrivacyCriterion.java``).

A model is checked per equivalence class inside the node query: ``kind`` selects its macros in
``sql/common/macros/criteria.sql.j2``, ``summary_columns`` the per-class aggregates those macros read, and
``is_monotonic_with_generalization`` whether the search may prune with it. Thresholds are passed as exact
fractions (numerator, denominator) so that both engines decide every class identically.

Besides its SQL a model class owns everything else that is particular to it, so that adding a model is one
module here and its macros (``registry.py`` finds the module): its config (``spec``, the mapping under its
kind in a sensitive attribute's ``models``), how it is built from that config (``from_spec``), how the run
report shows it (``report``: its name, parameter and the ``check`` measures of its worst class), and what it
needs of its attribute's column (a numeric type, a hierarchy).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple

from pydantic import BaseModel, ConfigDict


def as_fraction(value: float) -> Fraction:
    """The decimal the user wrote, exactly (0.2 -> 1/5, not the binary float).

    >>> as_fraction(0.2)
    Fraction(1, 5)
    """
    return Fraction(str(value))


class CriterionSpec(BaseModel):
    """A model's config: its parameters, strictly (an unknown key is an error), like every config mapping."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ReportRow(NamedTuple):
    """How the run report shows a model: its name (a format string over the model's fields), its parameter, the
    side of the limit a class must be on, the ``check`` measure of a sensitive attribute
    (``measures.measure_sensitive``) that is the value of the table's worst class, and the per-class measure of
    report_model_distribution.sql.j2 (None: not re-measured by the report)."""

    title: str
    parameter: str
    direction: str = ">="
    worst: str | None = None
    per_class: str | None = None


@dataclass(frozen=True)
class PrivacyCriterion:
    """A privacy model checked per equivalence class inside the node query.

    A subclass names its kind, and its config if a sensitive attribute's ``models`` list it, in its class line:
    ``class PSensitivity(PrivacyCriterion, kind="p_sensitivity", spec=PSensitivitySpec, listed=5)``.
    """

    #: Name in reports and configs, and the macro selector in the templates.
    kind: ClassVar[str]
    #: The config of a model set on a sensitive attribute (its mapping under ``kind``); None for the models
    #: the ``privacy`` section sets (k-anonymity, delta-presence), which are not listed under ``models``.
    spec: ClassVar[type[CriterionSpec] | None] = None
    #: Place among a sensitive attribute's models where configs and messages list them (the order in which
    #: they were added to sqlanon, which the config's error messages have always listed).
    listed: ClassVar[int] = 0
    #: Columns of its sensitive attribute's per-class summary that the model's SQL reads (classes or a{i} in
    #: judge.sql.j2): nv distinct values, maxc largest count, clogc sum c ln c, range (max_num and min_num).
    #: Only these are computed: the others cost a query an aggregate each, a logarithm or a join.
    summary_columns: ClassVar[tuple[str, ...]] = ()
    #: How the run report shows it.
    report: ClassVar[ReportRow]
    #: Whether the parameter is a number of distinct values every class needs: a model whose parameter
    #: exceeds the attribute's distinct values can never be met (the search's refusal says so).
    counts_distinct_values: ClassVar[bool] = False
    #: How messages name the variant of this kind that needs a numeric sensitive attribute (None: none does).
    numeric_variant: ClassVar[str | None] = None
    #: How messages name the variant of this kind that reads the attribute's hierarchy, as configured and in
    #: short (None: none does).
    hierarchy_variant: ClassVar[tuple[str, str] | None] = None

    #: Index of the sensitive attribute (position among sensitive attributes with models), or None.
    attribute: int | None = None
    #: Name of the sensitive attribute, for reports.
    attribute_name: str | None = field(default=None, compare=False)

    def __init_subclass__(cls, *, kind: str | None = None, spec: type[CriterionSpec] | None = None,
                          listed: int = 0, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind is not None:
            cls.kind, cls.spec, cls.listed = kind, spec, listed

    @classmethod
    def from_spec(cls, spec: CriterionSpec, attribute: int | None = None,
                  attribute_name: str | None = None) -> PrivacyCriterion:
        """The model its config describes, on the sensitive attribute ``attribute`` (by default its
        parameters are the spec's fields, under the same names)."""
        return cls(attribute=attribute, attribute_name=attribute_name, **spec.model_dump())

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

    def needs_numeric_column(self) -> bool:
        """Whether the sensitive attribute must have a numeric type (ranges, value order)."""
        return False

    def reads_hierarchy(self) -> bool:
        """Whether the model reads a generalization hierarchy of its sensitive attribute."""
        return False

    # -- the run report ---------------------------------------------------------------------------
    def report_title(self) -> str:
        return self.report.title.format(**{f.name: getattr(self, f.name) for f in fields(self)})

    def limit(self) -> Any:
        """The configured bound, as the report shows it."""
        return getattr(self, self.report.parameter)

    def measures(self) -> tuple[str | None, str | None]:
        """(worst-class measure, per-class measure) the report shows for this model."""
        return self.report.worst, self.report.per_class

    def check_c(self) -> Fraction | None:
        """The c of recursive (c,l)-diversity the measures must be taken with (None: any)."""
        return None

    @staticmethod
    def ratio(value: float) -> dict[str, int]:
        f = as_fraction(value)
        return {"num": f.numerator, "den": f.denominator}
