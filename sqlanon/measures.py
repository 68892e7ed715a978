"""Measures of a table's equivalence classes and sensitive attributes, entirely in SQL: what ``sqlanon check``
reports of a published table, and what the run report shows for the privacy models of a written one. Only one
summary row per measure leaves the database.

Besides the k-anonymity measures, every sensitive attribute gets the largest/smallest parameter for which
the table satisfies each privacy model of issue 3.

Equivalence classes are the groups of records with equal quasi-identifiers; NULL is a value of its own
(``GROUP BY``). In a sensitive attribute NULL is one more distinct value and one more category of the
distributions (SEMANTICS.md); ``count(DISTINCT ...)`` is never used. For a class C of size s in a table of
n records, c_v = records of C with value v, r_1 >= r_2 >= ... >= r_m the counts c_v of C sorted descending
(m = distinct values of C, NULL included), p_v = c_v / s (class distribution), q_v = n_v / n (table):

- ``distinct_l`` = min over C of m: the largest l for distinct l-diversity (Machanavajjhala et al. 2007);
  the same number is ``p``, the largest p for p-sensitive k-anonymity (Truta, Vinay 2006).
- ``entropy_l`` = min over C of exp(-sum_v p_v ln p_v): the largest real l for entropy l-diversity
  (entropy >= ln l). Rounded to 12 significant digits (the sums are in double precision).
- ``recursive_l`` (for a given c > 0, default 3): min over C of L_C, where L_C is the largest l in 1..m with
  r_1 < c (r_l + r_{l+1} + ... + r_m) (Machanavajjhala et al. 2007, Definition 4.2, 1-based indices), or 0 if
  even l = 1 fails (r_1 < c (r_1 + ... + r_m) always holds for c > 1; for c <= 1 it needs m >= 2 resp. more).
  The tail sum shrinks as l grows, so the condition holds exactly for l = 1..L_C and the table satisfies
  recursive (c,l)-diversity exactly for l <= recursive_l. Compared exactly: r_1 * den(c) < num(c) * tail,
  with c taken as the decimal fraction it was written as.
- ``alpha`` = max over C of r_1 / s: the smallest alpha for (alpha,k)-anonymity (Wong et al. 2006).
- ``t_equal`` = max over C of 1/2 sum_v |p_v - q_v|, v over ALL values of the table (equal ground distance,
  Li, Li, Venkatasubramanian 2007): the smallest t for equal-distance t-closeness.
- ``t_ordered`` (numeric columns only, else None) = max over C of 1/(m'-1) sum_{i=1..m'} |sum_{j<=i} (p_j - q_j)|
  over the m' distinct values of the table in ascending order, NULL last; 0 when m' = 1.
- ``t_hierarchical`` (only with a hierarchy for the attribute) = max over C of
  sum over internal nodes N of level(N)/(h-1) * min(pos_extra(N), neg_extra(N)), where h = number of hierarchy
  columns (leaf column included, so the top is at level h-1 and weighs 1), extra(leaf v) = p_v - q_v,
  extra(N) = sum of its children's extras, pos_extra(N) / neg_extra(N) = sum of the positive / |negative|
  children's extras. NULL, which a hierarchy file cannot map, stays NULL below the top (its own chain of
  nodes) and joins the other values at the top, as in extended match.
  SQL evaluates the equivalent form 1/(h-1) * sum over nodes N at levels 0..h-2 of max(extra(N), 0):
  pos_extra(N) - neg_extra(N) = extra(N), so min(pos, neg) = pos_extra(N) - max(extra(N), 0); with
  S_j = sum over level-j nodes of max(extra, 0), and every node below the top having exactly one parent,
  sum_{j=1..h-1} j (S_{j-1} - S_j) = S_0 + ... + S_{h-2} - (h-1) S_{h-1}, and S_{h-1} = 0 (the root's extra
  is 1 - 1). Only nodes holding records of C can have a positive extra, so no class x node grid is needed.
- ``e`` (numeric columns only, else None) = min over C of (max - min) of the non-NULL values of C; a class
  whose values are all NULL counts as range 0. The largest e for (k,e)-anonymity (Zhang et al. 2007).
- delta-presence (with a population table holding the same quasi-identifier columns): ``delta_min`` /
  ``delta_max`` = min / max over the classes of the checked table (the research subset) of
  (records of the subset in the class) / (records of the population in the class) (Nergiz et al. 2007).

The t values are computed from integer numerators (counts scaled by s * n) and one final division, so both
engines return the same double. ``t_ordered`` pairs every class with every value of the table (classes x
m' rows); the other measures scale with the number of (class, value) cells.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engines.base import EngineAdapter

#: The c of recursive (c,l)-diversity that ``check`` measures with unless told otherwise.
DEFAULT_C = 3.0

_INTEGER_TYPES = {
    "tinyint", "smallint", "integer", "bigint", "hugeint", "utinyint", "usmallint", "uinteger", "ubigint",
    "uhugeint", "int", "int2", "int4", "int8",
}
_FLOAT_TYPES = {"float", "double", "real", "double precision", "float4", "float8"}


def numeric_kind(type_name: str) -> str | None:
    """'integer', 'decimal', 'float' or None (not numeric) for a type name as pg_typeof prints it.

    >>> [numeric_kind(t) for t in ("bigint", "DECIMAL(10,2)", "double precision", "varchar", "date")]
    ['integer', 'decimal', 'float', None, None]
    """
    name = type_name.strip().lower()
    if name in _INTEGER_TYPES:
        return "integer"
    if name in _FLOAT_TYPES:
        return "float"
    if re.fullmatch(r"(decimal|numeric)(\(\s*\d+\s*(,\s*\d+\s*)?\))?", name):
        return "decimal"
    return None


def column_types(adapter: EngineAdapter, table: Sequence[str], columns: Sequence[str]) -> list[str]:
    """The type names of ``columns`` of ``table``, as pg_typeof prints them (both engines have it)."""
    return [str(t) for t in adapter.run("audit_column_types.sql.j2", table=tuple(table), columns=list(columns))[0]]


@dataclass(frozen=True)
class ClassMeasures:
    """k-anonymity measures of a table's equivalence classes (``check_table.sql.j2``)."""

    rows: int
    classes: int
    smallest: int | None
    largest: int | None
    #: Classes, and their records, smaller than the k given (0 without one).
    below_k: int
    records_below_k: int
    #: Rows with a NULL quasi-identifier.
    rows_with_null: int


def measure_classes(adapter: EngineAdapter, table: Sequence[str], qis: Sequence[str], k: int | None) -> ClassMeasures:
    """The class sizes of ``table`` grouped by ``qis`` (NULL is a value), counted against ``k``."""
    with adapter.aggregate_settings(parallel=True):  # a published release's classes, as the verification's
        row = adapter.run("check_table.sql.j2", table=tuple(table), qis=list(qis), k=k if k is not None else 1)[0]
    rows, classes, smallest, largest, below, below_records, with_null = row
    return ClassMeasures(int(rows), int(classes), None if smallest is None else int(smallest),
                         None if largest is None else int(largest), int(below), int(below_records), int(with_null))


def _number(value: Any, kind: str | None) -> int | float | None:
    if value is None:
        return None
    if kind == "integer":
        return int(value)
    return float(value)


def _ratio(value: Any) -> float | None:
    return None if value is None else float(value)


def _rounded(value: Any) -> float | None:
    """Doubles from sums of logarithms, rounded to 12 significant digits (engines add in different orders)."""
    return None if value is None else float(f"{float(value):.12g}")


def measure_sensitive(
    adapter: EngineAdapter,
    table: tuple[str, ...],
    qis: list[str],
    column: str,
    c: Fraction,
    *,
    type_name: str | None = None,
    lookup: tuple[str, int] | None = None,
) -> dict[str, Any]:
    """The measures of one sensitive attribute of a table, as ``check`` reports them. ``type_name``: the
    column's type where the caller has it already; ``lookup``: (lookup table, height) of the attribute's
    hierarchy, for hierarchical t (None: not measured)."""
    if type_name is None:
        type_name = column_types(adapter, table, [column])[0]
    kind = numeric_kind(type_name)
    (classes, distinct_values, null_rows, distinct_l, entropy_l, recursive_l, alpha, t_equal, e) = adapter.run(
        "audit_sensitive.sql.j2", table=table, qis=qis, column=column,
        c_num=c.numerator, c_den=c.denominator, numeric=kind,
    )[0]
    empty = int(classes) == 0
    t_ordered = None
    if kind is not None:
        t_ordered = _ratio(adapter.run("audit_ordered_emd.sql.j2", table=table, qis=qis, column=column)[0][0])
    t_hierarchical = None
    if lookup is not None:
        name, height = lookup
        t_hierarchical = _ratio(adapter.run(
            "audit_hierarchical_emd.sql.j2", table=table, qis=qis, column=column, lookup=name, height=height,
        )[0][0])
    return {
        "type": type_name,
        "numeric": kind is not None,
        "distinct_values": int(distinct_values),
        "null_rows": int(null_rows),
        "distinct_l": None if empty else int(distinct_l),
        "p": None if empty else int(distinct_l),
        "entropy_l": _rounded(entropy_l),
        "recursive_c": float(c),
        "recursive_l": None if empty else int(recursive_l),
        "alpha": _ratio(alpha),
        "t_equal": _ratio(t_equal),
        "t_ordered": t_ordered,
        "t_hierarchical": t_hierarchical,
        "e": _number(e, kind),
    }


@dataclass(frozen=True)
class Presence:
    """delta-presence of a table against its population (``audit_presence.sql.j2``)."""

    population_rows: int
    classes: int
    delta_min: float | None
    delta_max: float | None
    #: Classes of the table with no record in the population (it is then no subset of it).
    classes_without_population: int
    #: Classes with more records than the population has (delta > 1).
    classes_larger_than_population: int


def measure_presence(
    adapter: EngineAdapter, table: tuple[str, ...], population: tuple[str, ...], qis: list[str]
) -> Presence:
    """The share of each class of ``table`` (the research subset) among the population's records of the class:
    its smallest and largest (Nergiz et al. 2007)."""
    flag = "sqlanon_in_subset"
    while flag in qis:  # the subset's marker column must not take a quasi-identifier's name
        flag += "_"
    classes, delta_min, delta_max, orphans, over, population_rows = adapter.run(
        "audit_presence.sql.j2", table=table, population=population, qis=qis, flag=flag,
    )[0]
    return Presence(int(population_rows), int(classes), _ratio(delta_min), _ratio(delta_max), int(orphans),
                    int(over))
