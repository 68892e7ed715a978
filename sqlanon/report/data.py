"""The content of a run report (``--report out.json|out.html``) that every method shares, gathered while the
session is open: the written table's classes and its privacy models measured by the ``check`` queries. A
method adds its own sections (``AnonymizationMethod.report_sections``).

Everything here is aggregates; no row of the table is read into Python.
"""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from ..audit import measure_sensitive, numeric_kind
from ..config import AnonymizeConfig, Role
from ..engines.base import EngineAdapter


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


#: Per model kind: report name, parameter, the check measure of the worst class, the per-class measure of
#: report_model_distribution.sql.j2, and the side of the limit a class must be on.
_MODELS: dict[str, tuple[str, str, str, str | None, str]] = {
    "distinct_l_diversity": ("distinct l-diversity", "l", "distinct_l", "distinct_values", ">="),
    "entropy_l_diversity": ("entropy l-diversity", "l", "entropy_l", "entropy_l", ">="),
    "recursive_cl_diversity": ("recursive (c={c:g}, l)-diversity", "l", "recursive_l", "recursive_l", ">="),
    "p_sensitivity": ("p-sensitivity", "p", "p", "distinct_values", ">="),
    "alpha_k_anonymity": ("(alpha,k)-anonymity", "alpha", "alpha", "alpha", "<="),
    "k_e_anonymity": ("(k,e)-anonymity", "e", "e", "e_range", ">="),
}
#: What the report measures of a sensitive attribute that no privacy model protects (it warns about it):
#: (model that would bound it, parameter, measure of the worst class, direction).
_UNDECLARED = (
    ("distinct l-diversity", "l", "distinct_l", ">="),
    ("(alpha,k)-anonymity", "alpha", "alpha", "<="),
    ("t-closeness (equal)", "t", "t_equal", "<="),
)
#: t-closeness by ground distance; hierarchical t is not re-measured here (no hierarchy lookup in the report).
_T_CLOSENESS = {"equal": ("t_equal", "t_equal"), "ordered": ("t_ordered", None), "hierarchical": (None, None)}


def _model_spec(model: Any) -> tuple[str, str, Any, str | None, str | None, str]:
    """(report name, parameter, limit, worst-class measure, per-class measure, direction) of a configured model."""
    spec = model.spec
    if model.kind == "t_closeness":
        worst, per_class = _T_CLOSENESS[spec.distance]
        return f"t-closeness ({spec.distance})", "t", spec.t, worst, per_class, "<="
    name, parameter, worst, per_class, direction = _MODELS[model.kind]
    if model.kind == "recursive_cl_diversity":
        name = name.format(c=spec.c)
    return name, parameter, getattr(spec, parameter), worst, per_class, direction


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
    rows = [
        {
            "model": "k-anonymity",
            "attribute": None,
            "parameter": "k",
            "limit": cfg.privacy.k,
            "worst": smallest,
            "direction": ">=",
        }
    ]
    models_ok = None if verification is None else verification.get("models_verified", verification["verified"])
    for name in cfg.sensitive_with_models:
        measures: dict[str, Any] | None = None
        for model in cfg.attributes[name].models:
            c = Fraction(str(model.spec.c)) if model.kind == "recursive_cl_diversity" else Fraction(3)
            title, parameter, limit, worst_key, per_class, direction = _model_spec(model)
            worst = distribution = None
            if table is not None:
                if measures is None or model.kind == "recursive_cl_diversity":
                    measures = measure_sensitive(adapter, table, cfg.quasi_identifiers, name, c)
                worst = None if worst_key is None else measures[worst_key]
                distribution = _distribution(adapter, table, cfg.quasi_identifiers, name, per_class, c, measures)
            rows.append({"model": title, "parameter": parameter, "limit": limit, "worst": worst,
                         "direction": direction, "attribute": name, "distribution": distribution})
    for name in (n for n, a in cfg.attributes.items() if a.role is Role.SENSITIVE and not a.models):
        measures = None if table is None else measure_sensitive(adapter, table, cfg.quasi_identifiers, name,
                                                               Fraction(3))
        rows.extend({"model": title, "parameter": parameter, "limit": None,
                     "worst": None if measures is None else measures[key], "direction": direction,
                     "attribute": name, "distribution": None, "declared": False}
                    for title, parameter, key, direction in _UNDECLARED)
    dp = cfg.privacy.delta_presence
    if dp is not None:
        rows.append(
            {
                "model": "delta-presence",
                "attribute": None,
                "parameter": "delta",
                "limit": [dp.delta_min, dp.delta_max],
                "worst": None,
                "direction": "in",
            }
        )
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


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
