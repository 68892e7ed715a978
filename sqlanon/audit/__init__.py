"""``sqlanon check``: audit an existing (published) table, entirely in SQL.

The command: its options checked (``options.py``), the table and the population resolved, the hierarchies
given loaded as scratch tables, and the measures of ``measures.py`` (which the run report shares), the comparison
with a source table (``comparison.py``) and the boxes of a cloaking release (``boxes.py``) put together as a
``CheckResult`` (``result.py``). (A package named ``check`` would shadow the function ``sqlanon.check``, hence
``audit``.)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..engines import EngineAdapter, adapter_for_url
from ..errors import ConfigError, InputError
from ..hierarchy.loading import describe_lookup, load_lookup_rows
from ..identifiers import SpelledName, display_name, parse_spelled_name
from ..measures import (
    DEFAULT_C,
    ClassMeasures,
    column_types,
    measure_classes,
    measure_presence,
    measure_sensitive,
    numeric_kind,
)
from ..output.verify import class_distribution
from ..session import DatabaseSession
from .boxes import box_columns, check_box_columns, check_subject, measure_boxes, per_request_k
from .comparison import check_keys, check_source_columns, compare_with_source, information_loss
from .options import (
    check_box_options,
    check_source_options,
    hierarchy_paths,
    parse_boxes,
    parse_c,
    parse_hierarchy_specs,
    parse_k_and_limit,
    parse_q,
    parse_suppression_limit,
    parse_whd,
    read_hierarchy,
)
from .result import CheckResult, format_report, format_verdict


def check(  # noqa: PLR0913 - sqlanon.check, the public entry point: one keyword per option of `sqlanon check`
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
    q: float | str | None = None,
    source: str | None = None,
    key: str | None = None,
    standardize: str = "z_score",
    boxes: str | Sequence[str] | None = None,
    subject: str | None = None,
    per_request: bool = False,
    whd_weights: str = "uniform",
    whd_beta: float | int | str = 1.0,
) -> CheckResult:
    """Measure k-anonymity and the sensitive-attribute models of an existing table (NULL is a value).

    With ``masked_as_suppressed``, rows whose every quasi-identifier is '*' (masked by ``suppressed_rows:
    mask``, as ARX writes suppressed records) are suppressed records: they are left out of the classes and
    reported as ``masked_rows``, held to ``suppression_limit`` (a count, or a fraction of the rows) if given.
    An empty table is an input error: there is nothing to measure, and "k-anonymous" would be vacuous.

    ``q`` adds, per sensitive attribute, the (k,p,q,r)-anonymity the table meets for that q (the largest p and
    r; seed 004 Definition 7). ``source`` and ``key`` compare the table with the table it was made from, rows
    matched on ``key`` (``comparison.py``): the modification rate, the WHD of the quasi-identifiers given a
    hierarchy (``whd_weights``, ``whd_beta``), and the information loss of a microaggregated table
    (``standardize``: the scale, as microaggregation's) when every quasi-identifier is numeric.

    ``boxes`` names the cloaked columns of a cloaking release, each released as c_min and c_max (``boxes.py``):
    they join the classes; with ``source``, the per-request k (fewest source records, or distinct ``subject``
    values, inside a released box), which ``per_request`` judges against ``k`` instead of the classes.
    """
    # Every option is checked, and every hierarchy file read, before the database is opened.
    box_list = parse_boxes(boxes)
    limit_spec = parse_k_and_limit(qis, k, masked_as_suppressed, suppression_limit, box_list)
    check_source_options(source, key, standardize)
    check_box_options(box_list, source=source, subject=subject, per_request=per_request, k=k,
                      masked_as_suppressed=masked_as_suppressed)
    attributes = list(dict.fromkeys(sensitive or []))
    paths = hierarchy_paths(hierarchies, attributes, qis, source)
    plan = _Plan(
        table=parse_spelled_name(table), qis=qis, k=k, attributes=attributes, c=parse_c(c), q=parse_q(q),
        paths=paths, hierarchy_rows={name: read_hierarchy(path, f"--hierarchy {name}={path}")
                                     for name, path in paths.items()},
        population=None if population is None else parse_spelled_name(population),
        source=None if source is None else parse_spelled_name(source),
        key=key, standardize=standardize, boxes=box_list, subject=subject, per_request=per_request,
        whd=parse_whd(whd_weights, whd_beta), masked=masked_as_suppressed,
    )
    with DatabaseSession(adapter_for_url(db, Path.cwd(), create=False)) as session:
        found = _measure(session, plan)
    return _result(plan, found, limit_spec)


@dataclasses.dataclass(frozen=True)
class _Plan:
    """The options of one check, parsed."""

    table: SpelledName
    qis: list[str]
    k: int | None
    attributes: list[str]
    c: Fraction
    q: Fraction | None
    paths: dict[str, Path]
    hierarchy_rows: dict[str, list[list[str | None]]]
    population: SpelledName | None
    source: SpelledName | None
    key: str | None
    standardize: str
    boxes: list[str]
    subject: str | None
    per_request: bool
    whd: tuple[str, float]
    masked: bool


@dataclasses.dataclass
class _Found:
    """What the database measured."""

    parts: tuple[str, ...]
    measured: ClassMeasures
    distribution: list[tuple[int, bool, int]] | None
    sensitive: dict[str, dict[str, Any]] | None
    presence: dict[str, Any] | None
    boxes: dict[str, Any] | None
    comparison: dict[str, Any] | None = None
    loss: dict[str, Any] | None = None


def _measure(session: DatabaseSession, plan: _Plan) -> _Found:
    adapter = session.adapter
    # As the database resolves them (its case rule, search_path), like every name sqlanon reads.
    parts = adapter.resolve_relation(plan.table).parts
    columns = _checked_columns(adapter, parts, plan.qis, plan.attributes)
    check_box_columns(parts, columns, plan.qis, plan.boxes)
    classes = [*plan.qis, *box_columns(plan.boxes)]  # the class key
    population = None if plan.population is None else adapter.resolve_relation(plan.population).parts
    if population is not None:
        _check_population(adapter, population, classes)
    source = None if plan.source is None else adapter.resolve_relation(plan.source).parts
    if source is not None:
        assert plan.key is not None
        check_subject(source, check_source_columns(adapter, source, plan.key, plan.qis, plan.boxes, columns),
                      plan.subject)
        check_keys(adapter, plan.key, [("--source", source), ("--table", parts)])
    lookups = _load_hierarchies(session, plan, parts, source)
    found = _Found(
        parts=parts,
        measured=_measure_classes(adapter, parts, classes, plan.k),
        distribution=class_distribution(adapter, parts, classes) if plan.masked else None,
        sensitive=_measure_sensitive(adapter, parts, classes, plan.attributes, plan.c, lookups, plan.q),
        presence=None if population is None else _presence(adapter, parts, population, classes),
        boxes=measure_boxes(adapter, parts, plan.boxes) if plan.boxes else None,
    )
    if source is not None:
        _compare(adapter, plan, found, source, lookups)
    return found


def _compare(adapter: EngineAdapter, plan: _Plan, found: _Found, source: tuple[str, ...],
             lookups: dict[str, tuple[str, int]]) -> None:
    """The source comparison, the information loss (numeric quasi-identifiers only) and, with boxes, the values
    outside their box and the per-request k."""
    assert plan.key is not None
    comparison, outside = compare_with_source(adapter, found.parts, source, plan.key, plan.qis, plan.boxes,
                                              lookups, plan.whd)
    found.loss, omitted = information_loss(adapter, found.parts, source, plan.key, plan.qis, plan.standardize)
    if omitted is not None:
        comparison["information_loss_omitted"] = omitted
    found.comparison = comparison
    if found.boxes is not None:
        found.boxes["values_outside_box"] = outside
        found.boxes.update(per_request_k(adapter, found.parts, source, plan.boxes, plan.subject, plan.k))
        fewest = found.boxes["per_request_k"]
        found.boxes["per_request_k_anonymous"] = None if plan.k is None else fewest is not None and fewest >= plan.k
        found.boxes["per_request_judged"] = plan.per_request


def _result(plan: _Plan, found: _Found, limit_spec: int | Fraction | None) -> CheckResult:
    measured, k = found.measured, plan.k
    masked = limit = within = None
    if found.distribution is not None:
        measured, masked = _without_masked_rows(measured, found.distribution, k)
        if limit_spec is not None:
            limit = limit_spec if isinstance(limit_spec, int) else math.floor(limit_spec * measured.rows)
            within = masked <= limit
    return CheckResult(
        table=display_name(found.parts),
        quasi_identifiers=plan.qis,
        k=k,
        rows=measured.rows,
        classes=measured.classes,
        smallest_class=measured.smallest,
        largest_class=measured.largest,
        classes_below_k=None if k is None else measured.below_k,
        records_below_k=None if k is None else measured.records_below_k,
        rows_with_null=measured.rows_with_null,
        k_anonymous=None if k is None else measured.below_k == 0,
        sensitive=found.sensitive,
        delta_presence=found.presence,
        masked_rows=masked,
        suppression_limit=limit,
        within_suppression_limit=within,
        information_loss=found.loss,
        source_comparison=found.comparison,
        boxes=found.boxes,
    )


def _checked_columns(
    adapter: EngineAdapter, table: tuple[str, ...], qis: list[str], attributes: list[str]
) -> list[str]:
    """The columns of ``table``, which must hold every ``--qi`` and ``--sensitive`` column, none of them both."""
    try:
        columns = adapter.column_names(table)
    except Exception:
        raise InputError(f"--table: table {display_name(table)} not found in {adapter.display_url}") from None
    unknown = [q for q in qis if q not in columns]
    if unknown:
        raise ConfigError(
            f"--qi: no column {', '.join(repr(u) for u in unknown)} in {display_name(table)} "
            f"(columns: {', '.join(columns)})"
        )
    missing = [s for s in attributes if s not in columns]
    if missing:
        raise ConfigError(
            f"--sensitive: no column {', '.join(repr(u) for u in missing)} in {display_name(table)} "
            f"(columns: {', '.join(columns)})"
        )
    both = [s for s in attributes if s in qis]
    if both:
        raise ConfigError(
            f"--sensitive: {', '.join(repr(b) for b in both)} is also a quasi-identifier (--qi); "
            f"a sensitive attribute must not be one"
        )
    return columns


def _load_hierarchies(
    session: DatabaseSession, plan: _Plan, table: tuple[str, ...], source: tuple[str, ...] | None
) -> dict[str, tuple[str, int]]:
    """Each ``--hierarchy`` as a scratch lookup table: attribute -> (lookup table, height). A sensitive
    attribute's is validated against the checked table's values; a quasi-identifier's against the source's
    (the checked table holds its labels, not its leaves)."""
    lookups: dict[str, tuple[str, int]] = {}
    for index, (name, rows) in enumerate(plan.hierarchy_rows.items()):
        where = f"--hierarchy {name}={plan.paths[name]}"
        lookup = session.scratch(f"audit_h{index}")
        if name in plan.qis:
            assert source is not None
            _load_hierarchy(session.adapter, rows, lookup, source, name, where, "the WHD")
        else:
            _load_hierarchy(session.adapter, rows, lookup, table, name, where, "hierarchical t-closeness")
        lookups[name] = (lookup, len(rows[0]) - 1)
    return lookups


def _measure_classes(adapter: EngineAdapter, table: tuple[str, ...], qis: list[str], k: int | None) -> ClassMeasures:
    measured = measure_classes(adapter, table, qis, k)
    if measured.rows == 0:
        raise InputError(
            f"--table: table {display_name(table)} in {adapter.display_url} is empty (0 rows): "
            f"there are no equivalence classes to check"
        )
    return measured


def _measure_sensitive(
    adapter: EngineAdapter, table: tuple[str, ...], qis: list[str], attributes: list[str], c: Fraction,
    lookups: dict[str, tuple[str, int]], q: Fraction | None,
) -> dict[str, dict[str, Any]] | None:
    """Each sensitive attribute's measures (``measure_sensitive``), with its (k,p,q,r)-anonymity for ``q``; None
    without sensitive attributes."""
    if not attributes:
        return None
    types = column_types(adapter, table, attributes)
    measures = {
        name: measure_sensitive(adapter, table, qis, name, c, type_name=type_name, lookup=lookups.get(name))
        for name, type_name in zip(attributes, types, strict=True)
    }
    if q is not None:
        for name, type_name in zip(attributes, types, strict=True):
            measures[name]["kpqr"] = _kpqr(adapter, table, qis, name, q, numeric_kind(type_name))
    return measures


def _without_masked_rows(
    measured: ClassMeasures, distribution: list[tuple[int, bool, int]], k: int | None
) -> tuple[ClassMeasures, int]:
    """The class measures without the all-'*' class, whose rows are suppressed records instead; and their count."""
    kept = [(size, count) for size, star, count in distribution if not star]
    masked = sum(size * count for size, star, count in distribution if star)
    below = [(size, count) for size, count in kept if k is not None and size < k]
    return dataclasses.replace(
        measured,
        classes=sum(count for _, count in kept),
        smallest=min((size for size, _ in kept), default=None),
        largest=max((size for size, _ in kept), default=None),
        below_k=sum(count for _, count in below),
        records_below_k=sum(size * count for size, count in below),
    ), masked


def _kpqr(adapter: EngineAdapter, table: tuple[str, ...], qis: list[str], column: str, q: Fraction,
          numeric: str | None) -> dict[str, Any]:
    """The (k,p,q,r)-anonymity a table meets for q: the classes holding a rare value, the fewest distinct values
    among them (the largest p) and their smallest variance ratio (the largest r; a numeric column only)."""
    _, rare, fewest, ratio = adapter.run("audit_kpqr.sql.j2", table=table, qis=qis, column=column,
                                         num=q.numerator, den=q.denominator, numeric=numeric is not None)[0]
    return {"q": float(q), "classes_with_rare_values": int(rare), "p": None if fewest is None else int(fewest),
            "r": None if ratio is None else float(ratio)}


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
    try:
        presence = measure_presence(adapter, table, population, qis)
    except InputError:
        raise
    except Exception as exc:  # e.g. the same column has incompatible types in the two tables
        raise InputError(
            f"--population: cannot match the quasi-identifiers of {display_name(table)} with those of "
            f"{display_name(population)}: {exc}"
        ) from None
    if presence.classes_without_population:
        raise InputError(
            f"--population: {presence.classes_without_population} equivalence class(es) of {display_name(table)} "
            f"have no record in {display_name(population)}; the checked table must be a subset of the population"
        )
    return {
        "population": display_name(population),
        "population_rows": presence.population_rows,
        "classes": presence.classes,
        "delta_min": presence.delta_min,
        "delta_max": presence.delta_max,
        "classes_larger_than_population": presence.classes_larger_than_population,
    }


def _load_hierarchy(
    adapter: EngineAdapter, rows: list[list[str | None]], lookup: str, table: tuple[str, ...], column: str,
    where: str, purpose: str,
) -> None:
    """Fill the TEMPORARY lookup table ``lookup`` and validate it against the data and as a tree with a single
    top value (the top of the hierarchical distance)."""
    load_lookup_rows(adapter, rows, lookup, table, column, where)
    height = len(rows[0]) - 1
    _leaves, _null_rows, top_labels, _top_label = describe_lookup(adapter, lookup, height)
    if int(top_labels) != 1:
        tops = sorted({str(r[-1]) for r in rows})
        shown = ", ".join(repr(t) for t in tops[:10]) + (", ..." if len(tops) > 10 else "")
        raise InputError(
            f"{where}: the last column has {int(top_labels)} different values ({shown}); "
            f"{purpose} needs a single top value"
        )


__all__ = [
    "CheckResult", "check", "format_report", "format_verdict", "numeric_kind", "parse_hierarchy_specs",
    "parse_suppression_limit",
]
