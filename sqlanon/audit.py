"""``sqlanon check``: audit an existing (published) table, entirely in SQL.

Besides the k-anonymity measures, every sensitive attribute gets the largest/smallest parameter for which
the table satisfies each privacy model of issue 3. Only one summary row per attribute leaves the database.

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

import csv
import math
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .engines import EngineAdapter, adapter_for_url
from .errors import ConfigError, InputError
from .hierarchy.loading import _validate as validate_hierarchy_rows
from .hierarchy.loading import describe_lookup
from .identifiers import display_name, parse_qualified_name, parse_spelled_name
from .output.verify import class_distribution

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


@dataclass
class CheckResult:
    """What ``sqlanon check`` measured; ``to_dict()`` is the CLI's ``--json`` object.

    ``sensitive`` (attribute -> measures) is present only when sensitive attributes were given,
    ``delta_presence`` only with a population table.
    """

    table: str
    quasi_identifiers: list[str]
    k: int | None
    rows: int
    classes: int
    smallest_class: int | None
    largest_class: int | None
    classes_below_k: int | None
    records_below_k: int | None
    rows_with_null: int
    k_anonymous: bool | None
    sensitive: dict[str, dict[str, Any]] | None = field(default=None)
    delta_presence: dict[str, Any] | None = field(default=None)
    #: With ``masked_as_suppressed``: rows whose every quasi-identifier is '*', counted as suppressed records
    #: (excluded from ``classes`` and the class sizes above, included in ``rows``).
    masked_rows: int | None = field(default=None)
    #: With ``masked_as_suppressed``: the most masked rows allowed (None: no limit given).
    suppression_limit: int | None = field(default=None)
    #: With a ``suppression_limit``: whether ``masked_rows`` is within it.
    within_suppression_limit: bool | None = field(default=None)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("sensitive", "delta_presence"):
            if data[key] is None:
                del data[key]
        if self.masked_rows is None:  # without --masked-as-suppressed the report keeps its keys of before
            for key in ("masked_rows", "suppression_limit", "within_suppression_limit"):
                del data[key]
        return data

    @property
    def passed(self) -> bool:
        """k-anonymous (when k was given) and the masked rows within the limit (when one was given)."""
        return self.k_anonymous is not False and self.within_suppression_limit is not False


def parse_hierarchy_specs(specs: Sequence[str]) -> dict[str, Path]:
    """``ATTRIBUTE=FILE`` values of ``--hierarchy`` (repeatable) as a mapping.

    >>> parse_hierarchy_specs(["diagnosis=h/diagnosis.csv"])
    {'diagnosis': PosixPath('h/diagnosis.csv')}
    """
    result: dict[str, Path] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise ConfigError(f"--hierarchy: expected ATTRIBUTE=FILE, e.g. diagnosis=diagnosis.csv (got {spec!r})")
        name = name.strip()
        if name in result:
            raise ConfigError(f"--hierarchy: attribute {name!r} given twice (value {spec!r})")
        result[name] = Path(path.strip())
    return result


def parse_suppression_limit(value: str | int | float | Fraction | None) -> int | Fraction | None:
    """``--suppression-limit``: an integer is a count of records, a number with a point a fraction in [0, 1]
    of the table's rows (as ``privacy.suppression_limit``; floored).

    >>> parse_suppression_limit("3"), parse_suppression_limit("0.05"), parse_suppression_limit(None)
    (3, Fraction(1, 20), None)
    """
    if value is None:
        return None
    text = str(value).strip()
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, int) or (isinstance(value, str) and re.fullmatch(r"[+-]?\d+", text)):
            count = int(text)
            if count < 0:
                raise ValueError
            return count
        fraction = value if isinstance(value, Fraction) else Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ConfigError(
            f"--suppression-limit: expected a count (e.g. 10) or a fraction of the rows in [0, 1] "
            f"(e.g. 0.05) (got {value!r})"
        ) from None
    if not 0 <= fraction <= 1:
        raise ConfigError(f"--suppression-limit: a fraction must be in [0, 1] (got {value})")
    return fraction


def _parse_c(c: float | int | str | Fraction) -> Fraction:
    try:
        value = c if isinstance(c, Fraction) else Fraction(str(c))
    except (ValueError, ZeroDivisionError):
        raise ConfigError(f"--c: expected a number > 0 (got {c!r})") from None
    if value <= 0:
        raise ConfigError(f"--c: must be > 0 (got {c})")
    return value


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


def check(
    db: str,
    table: str,
    qis: list[str],
    k: int | None = None,
    *,
    sensitive: Sequence[str] | None = None,
    hierarchies: Mapping[str, str | Path] | None = None,
    population: str | None = None,
    c: float | int | str | Fraction = DEFAULT_C,
    masked_as_suppressed: bool = False,
    suppression_limit: str | int | Fraction | None = None,
) -> CheckResult:
    """Measure k-anonymity and the sensitive-attribute models of an existing table (NULL is a value).

    With ``masked_as_suppressed``, rows whose every quasi-identifier is '*' (masked by ``suppressed_rows:
    mask``, as ARX writes suppressed records) are suppressed records: they are left out of the classes and
    reported as ``masked_rows``, held to ``suppression_limit`` (a count, or a fraction of the rows) if given.
    An empty table is an input error: there is nothing to measure, and "k-anonymous" would be vacuous.
    """
    if not qis:
        raise ConfigError("--qi: give at least one quasi-identifier column")
    if k is not None and k < 1:
        raise ConfigError(f"--k: must be >= 1 (got {k})")
    if suppression_limit is not None and not masked_as_suppressed:
        raise ConfigError(
            f"--suppression-limit: limits the masked rows, so it needs --masked-as-suppressed "
            f"(got --suppression-limit {suppression_limit})"
        )
    limit_spec = parse_suppression_limit(suppression_limit)
    attributes = list(dict.fromkeys(sensitive or []))
    hierarchy_paths = {name: Path(path) for name, path in (hierarchies or {}).items()}
    for name, path in hierarchy_paths.items():
        if name not in attributes:
            raise ConfigError(
                f"--hierarchy: {name!r} is not one of the --sensitive attributes "
                f"({', '.join(attributes) or 'none given'}) (value {name}={path})"
            )
    c_value = _parse_c(c)
    hierarchy_rows = {
        name: read_hierarchy_file(path, f"--hierarchy {name}={path}") for name, path in hierarchy_paths.items()
    }
    parts = parse_qualified_name(table)
    population_parts = parse_qualified_name(population) if population is not None else None

    adapter = adapter_for_url(db, Path.cwd(), create=False)
    adapter.connect()
    created: list[str] = []
    try:
        # As the database resolves them (its case rule, search_path), like every name sqlanon reads.
        parts = adapter.resolve_relation(parse_spelled_name(table)).parts
        if population is not None:
            population_parts = adapter.resolve_relation(parse_spelled_name(population)).parts
        try:
            columns = adapter.column_names(parts)
        except Exception:
            raise InputError(f"--table: table {display_name(parts)} not found in {adapter.display_url}") from None
        unknown = [q for q in qis if q not in columns]
        if unknown:
            raise ConfigError(
                f"--qi: no column {', '.join(repr(u) for u in unknown)} in {display_name(parts)} "
                f"(columns: {', '.join(columns)})"
            )
        missing = [s for s in attributes if s not in columns]
        if missing:
            raise ConfigError(
                f"--sensitive: no column {', '.join(repr(u) for u in missing)} in {display_name(parts)} "
                f"(columns: {', '.join(columns)})"
            )
        both = [s for s in attributes if s in qis]
        if both:
            raise ConfigError(
                f"--sensitive: {', '.join(repr(b) for b in both)} is also a quasi-identifier (--qi); "
                f"a sensitive attribute must not be one"
            )
        if population_parts is not None:
            _check_population(adapter, population_parts, qis)

        prefix = f"sqlanon_{secrets.token_hex(4)}_audit_"
        lookups: dict[str, tuple[str, int]] = {}
        for index, (name, rows) in enumerate(hierarchy_rows.items()):
            where = f"--hierarchy {name}={hierarchy_paths[name]}"
            lookups[name] = (_load_hierarchy(adapter, rows, f"{prefix}h{index}", parts, name, where, created),
                             len(rows[0]) - 1)

        with adapter.aggregate_settings():
            row = adapter.run("check_table.sql.j2", table=parts, qis=qis, k=k if k is not None else 1)[0]
        if int(row[0]) == 0:
            raise InputError(
                f"--table: table {display_name(parts)} in {adapter.display_url} is empty (0 rows): "
                f"there are no equivalence classes to check"
            )
        distribution = class_distribution(adapter, parts, qis) if masked_as_suppressed else None
        measures: dict[str, dict[str, Any]] | None = None
        if attributes:
            types = adapter.run("audit_column_types.sql.j2", table=parts, columns=attributes)[0]
            measures = {
                name: _measure(adapter, parts, qis, name, str(type_name), c_value, lookups.get(name))
                for name, type_name in zip(attributes, types, strict=True)
            }
        presence = None
        if population_parts is not None:
            presence = _presence(adapter, parts, population_parts, qis)
    finally:
        try:
            adapter.drop_tables(list(reversed(created)))
        except Exception:  # noqa: BLE001 - the connection may be gone; temporary tables die with it
            pass
        finally:
            adapter.close()

    rows_, classes, smallest, largest, below, below_records, with_null = row
    masked = limit = within = None
    if distribution is not None:
        # The same class sizes without the all-'*' class, whose rows are reported as suppressed instead.
        kept = [(size, count) for size, star, count in distribution if not star]
        masked = sum(size * count for size, star, count in distribution if star)
        classes = sum(count for _, count in kept)
        smallest = min((size for size, _ in kept), default=None)
        largest = max((size for size, _ in kept), default=None)
        below = sum(count for size, count in kept if k is not None and size < k)
        below_records = sum(size * count for size, count in kept if k is not None and size < k)
        if limit_spec is not None:
            limit = limit_spec if isinstance(limit_spec, int) else math.floor(limit_spec * int(rows_))
            within = masked <= limit
    return CheckResult(
        table=display_name(parts),
        quasi_identifiers=qis,
        k=k,
        rows=int(rows_),
        classes=int(classes),
        smallest_class=None if smallest is None else int(smallest),
        largest_class=None if largest is None else int(largest),
        classes_below_k=None if k is None else int(below),
        records_below_k=None if k is None else int(below_records),
        rows_with_null=int(with_null),
        k_anonymous=None if k is None else int(below) == 0,
        sensitive=measures,
        delta_presence=presence,
        masked_rows=masked,
        suppression_limit=limit,
        within_suppression_limit=within,
    )


def measure_sensitive(
    adapter: EngineAdapter, table: tuple[str, ...], qis: list[str], column: str, c: Fraction
) -> dict[str, Any]:
    """The measures of one sensitive attribute of a table (no hierarchical t), as ``check`` reports them."""
    type_name = str(adapter.run("audit_column_types.sql.j2", table=table, columns=[column])[0][0])
    return _measure(adapter, table, qis, column, type_name, c, None)


def _measure(
    adapter: EngineAdapter,
    table: tuple[str, ...],
    qis: list[str],
    column: str,
    type_name: str,
    c: Fraction,
    lookup: tuple[str, int] | None,
) -> dict[str, Any]:
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


def _check_population(adapter: EngineAdapter, population: tuple[str, ...], qis: list[str]) -> None:
    try:
        columns = adapter.column_names(population)
    except Exception:
        raise InputError(
            f"--population: table {display_name(population)} not found in {adapter.display_url}"
        ) from None
    missing = [q for q in qis if q not in columns]
    if missing:
        raise ConfigError(
            f"--population: no column {', '.join(repr(m) for m in missing)} in {display_name(population)}; "
            f"the population needs the same quasi-identifier columns as the checked table "
            f"(columns: {', '.join(columns)})"
        )


def _presence(
    adapter: EngineAdapter, table: tuple[str, ...], population: tuple[str, ...], qis: list[str]
) -> dict[str, Any]:
    flag = "sqlanon_in_subset"
    while flag in qis:
        flag += "_"
    try:
        classes, delta_min, delta_max, orphans, over, population_rows = adapter.run(
            "audit_presence.sql.j2", table=table, population=population, qis=qis, flag=flag,
        )[0]
    except InputError:
        raise
    except Exception as exc:  # e.g. the same column has incompatible types in the two tables
        raise InputError(
            f"--population: cannot match the quasi-identifiers of {display_name(table)} with those of "
            f"{display_name(population)}: {exc}"
        ) from None
    if int(orphans):
        raise InputError(
            f"--population: {int(orphans)} equivalence class(es) of {display_name(table)} have no record in "
            f"{display_name(population)}; the checked table must be a subset of the population"
        )
    return {
        "population": display_name(population),
        "population_rows": int(population_rows),
        "classes": int(classes),
        "delta_min": _ratio(delta_min),
        "delta_max": _ratio(delta_max),
        "classes_larger_than_population": int(over),
    }


def read_hierarchy_file(path: Path, where: str) -> list[list[str | None]]:
    """An ARX-shaped hierarchy ``value;level1;...;top`` (';'-separated, no header) as lookup rows
    ``[value, l0, l1, ..., top]`` with ``l0 == value`` (the shape of ``create_lookup_table.sql.j2``)."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as fh:
            raw = [row for row in csv.reader(fh, delimiter=";") if row and any(cell for cell in row)]
    except FileNotFoundError:
        raise ConfigError(f"{where}: hierarchy file not found") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ConfigError(f"{where}: cannot read the hierarchy file: {exc}") from None
    if not raw:
        raise ConfigError(f"{where}: the hierarchy file is empty")
    height = len(raw[0])
    for lineno, row in enumerate(raw, start=1):
        if len(row) != height:
            raise ConfigError(
                f"{where}: line {lineno} has {len(row)} columns, expected {height} "
                f"(all rows of a hierarchy have the same number of ';'-separated columns)"
            )
    if height < 2:
        raise ConfigError(f"{where}: a hierarchy needs at least two columns (value;...;top), got {height}")
    return [[row[0], *row] for row in raw]


def _load_hierarchy(
    adapter: EngineAdapter,
    rows: list[list[str | None]],
    lookup: str,
    table: tuple[str, ...],
    column: str,
    where: str,
    created: list[str],
) -> str:
    """Create and fill a TEMPORARY lookup table and validate it against the data and as a tree."""
    height = len(rows[0]) - 1
    created.append(lookup)
    adapter.run("create_lookup_table.sql.j2", table=lookup, height=height)
    adapter.bulk_insert(adapter.quote_identifier(lookup), height + 1, rows)
    # Values of the column missing from the hierarchy (listed), values mapped twice, labels with two parents.
    validate_hierarchy_rows(adapter, lookup, table, column, height, where)
    _leaves, _null_rows, top_labels, _top_label = describe_lookup(adapter, lookup, height)
    if int(top_labels) != 1:
        tops = sorted({str(r[-1]) for r in rows})
        shown = ", ".join(repr(t) for t in tops[:10]) + (", ..." if len(tops) > 10 else "")
        raise InputError(
            f"{where}: the last column has {int(top_labels)} different values ({shown}); "
            f"hierarchical t-closeness needs a single top value"
        )
    return lookup


def format_report(result: CheckResult) -> list[str]:
    """Text lines for the sensitive-attribute and delta-presence part of ``sqlanon check``."""
    lines: list[str] = []

    def num(value: Any) -> str:
        return f"{value:.6g}" if isinstance(value, float) else str(value)

    for name, m in (result.sensitive or {}).items():
        nulls = f", {m['null_rows']} NULL rows" if m["null_rows"] else ""
        lines.append(f"  sensitive attribute {name} ({m['type']}, {m['distinct_values']} distinct values"
                     f"{' incl. NULL' if m['null_rows'] else ''}{nulls}):")
        if m["distinct_l"] is None:
            lines.append("    no equivalence classes (empty table)")
            continue
        lines.append(f"    distinct l-diversity: l = {m['distinct_l']}   (p-sensitivity: p = {m['p']})")
        lines.append(f"    entropy l-diversity: l = {num(m['entropy_l'])}")
        lines.append(f"    recursive (c,l)-diversity with c = {num(m['recursive_c'])}: l = {m['recursive_l']}")
        lines.append(f"    (alpha,k)-anonymity: alpha = {num(m['alpha'])}")
        ordered = "n/a (not numeric)" if m["t_ordered"] is None else num(m["t_ordered"])
        hierarchical = "n/a (no --hierarchy)" if m["t_hierarchical"] is None else num(m["t_hierarchical"])
        lines.append(f"    t-closeness: equal distance t = {num(m['t_equal'])}; ordered distance t = {ordered}; "
                     f"hierarchical distance t = {hierarchical}")
        lines.append(f"    (k,e)-anonymity: e = {'n/a (not numeric)' if m['e'] is None else num(m['e'])}")
    d = result.delta_presence
    if d is not None:
        if d["delta_min"] is None:
            lines.append(f"  delta-presence against {d['population']}: no classes (empty table)")
        else:
            lines.append(f"  delta-presence against {d['population']} ({d['population_rows']} rows): "
                         f"delta_min = {num(d['delta_min'])}, delta_max = {num(d['delta_max'])}")
        if d["classes_larger_than_population"]:
            lines.append(f"    warning: {d['classes_larger_than_population']} class(es) have more records than "
                         f"the population (delta > 1): the table is not a subset of the population")
    return lines


__all__ = [
    "CheckResult", "check", "format_report", "numeric_kind", "parse_hierarchy_specs", "parse_suppression_limit",
]
