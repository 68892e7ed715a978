"""The content of a run report (``--report out.json|out.html``) that every method shares, gathered while the
session is open: the written table's classes and its privacy models measured by the ``check`` queries. A
method adds its own sections (``AnonymizationMethod.report_sections``).

Everything here is aggregates; no row of the table is read into Python.
"""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from ..config import AnonymizeConfig, Role
from ..criteria import AlphaKAnonymity, DistinctLDiversity, PrivacyCriterion, TCloseness, criteria_from_config
from ..criteria.base import as_fraction
from ..engines.base import EngineAdapter
from ..measures import DEFAULT_C, measure_sensitive, numeric_kind


def classes(histogram: list[list[int]]) -> dict[str, Any]:
    """Class statistics from the written table's size histogram (one pass, shared with its verification)."""
    count = sum(c for _, c in histogram)
    records = sum(s * c for s, c in histogram)
    return {
        "count": count,
        "smallest": histogram[0][0] if histogram else None,
        "largest": histogram[-1][0] if histogram else None,
        "average": round(records / count, 4) if count else None,
        "size_histogram": histogram,
    }


#: What the report measures of a sensitive attribute that no privacy model protects (it warns about it): the
#: models that would bound it, whose worst class is shown against no limit.
_UNDECLARED = (DistinctLDiversity(), AlphaKAnonymity(), TCloseness(distance="equal"))
#: The c of recursive (c,l)-diversity that measures are taken with where no model sets one.
_C = as_fraction(DEFAULT_C)


def _distribution(adapter: EngineAdapter, table: tuple[str, ...], qis: list[str], column: str, measure: str | None,
                  c: Fraction, measures: dict[str, Any]) -> list[list[Any]] | None:
    """[value, classes] pairs: how many classes of the written table have each value of the model's measure."""
    if measure is None or (measure == "e_range" and not measures["numeric"]):
        return None
    rows = adapter.run("report_model_distribution.sql.j2", table=table, qis=qis, column=column,
                       c_num=c.numerator, c_den=c.denominator, numeric=numeric_kind(measures["type"]),
                       measure=measure)
    return [[_plain(value), int(classes)] for value, classes in rows]


def _plain(value: Any) -> int | float | None:
    """JSON-friendly numbers: integral counts as int, ratios and ranges as float."""
    if value is None:
        return None
    number = float(value)
    return int(number) if number.is_integer() and not isinstance(value, float) else round(number, 6)


def models(
    adapter: EngineAdapter,
    cfg: AnonymizeConfig,
    table: tuple[str, ...] | None,
    class_info: dict[str, Any] | None,
    verification: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    """k and every configured model, with the value of the worst class of the written table.

    "worst" is measured on the written table by the ``sqlanon check`` queries; with masked suppression it
    includes the all-'*' class. Hierarchical t-closeness and delta-presence are not re-measured here
    (``satisfied`` then comes from the run's model re-check). Dry runs have no table: worst is None.
    A sensitive attribute without models gets rows too, ``declared: false`` with no limit: its distinct l,
    alpha and equal-distance t, which k-anonymity alone does not bound (the report warns about them).
    """
    smallest = (verification or {}).get("smallest_class") or (class_info or {}).get("smallest")
    criteria = criteria_from_config(cfg)
    # k-anonymity comes first (criteria_from_config), then the models of sensitive attributes; the other
    # table-wide models (delta-presence) close the table, after the undeclared attributes' rows.
    table_wide = [c for c in criteria if c.attribute is None]
    rows = [_table_wide_row(table_wide[0], smallest)]
    models_ok = None if verification is None else verification.get("models_verified", verification["verified"])
    qis = cfg.quasi_identifiers
    measured: dict[tuple[str, Fraction], dict[str, Any]] = {}
    for criterion in criteria:
        if criterion.attribute is None:
            continue
        name = criterion.attribute_name
        assert name is not None
        c = criterion.check_c() or _C
        worst_key, per_class = criterion.measures()
        worst = distribution = None
        if table is not None:
            if (name, c) not in measured:
                measured[name, c] = measure_sensitive(adapter, table, qis, name, c)
            measures = measured[name, c]
            worst = None if worst_key is None else measures[worst_key]
            distribution = _distribution(adapter, table, qis, name, per_class, c, measures)
        rows.append({"model": criterion.report_title(), "parameter": criterion.report.parameter,
                     "limit": criterion.limit(), "worst": worst, "direction": criterion.report.direction,
                     "attribute": name, "distribution": distribution})
    for name in (n for n, a in cfg.attributes.items() if a.role is Role.SENSITIVE and not a.models):
        measures = None if table is None else measure_sensitive(adapter, table, qis, name, _C)
        rows.extend({"model": model.report_title(), "parameter": model.report.parameter, "limit": None,
                     "worst": None if measures is None else measures[model.measures()[0]],
                     "direction": model.report.direction, "attribute": name, "distribution": None,
                     "declared": False}
                    for model in _UNDECLARED)
    rows.extend(_table_wide_row(c, None) for c in table_wide[1:])
    for row in rows:
        worst, limit = row["worst"], row["limit"]
        if row.setdefault("declared", True) is False:
            row["satisfied"] = None  # no limit to satisfy
        elif worst is None or row["direction"] == "in":
            row["satisfied"] = models_ok
        elif row["direction"] == ">=":
            row["satisfied"] = worst >= limit
        else:
            row["satisfied"] = worst <= limit + 1e-12  # t and alpha come back as doubles
    return rows


def _table_wide_row(criterion: PrivacyCriterion, worst: Any) -> dict[str, Any]:
    return {"model": criterion.report_title(), "attribute": None, "parameter": criterion.report.parameter,
            "limit": criterion.limit(), "worst": worst, "direction": criterion.report.direction}


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
