"""``sqlanon check``: audit an existing (published) table, entirely in SQL.

The command: its options checked (``options.py``), the table and the population resolved, the hierarchies
given loaded as scratch tables, and the measures of ``measures.py`` (which the run report shares) put together
as a ``CheckResult`` (``result.py``). (A package named ``check`` would shadow the function ``sqlanon.check``,
hence ``audit``.)
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
from ..identifiers import display_name, parse_spelled_name
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
from .options import (
    check_source_options,
    hierarchy_paths,
    parse_c,
    parse_hierarchy_specs,
    parse_k_and_limit,
    parse_q,
    parse_suppression_limit,
    read_hierarchy,
)
from .result import CheckResult, format_report


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
) -> CheckResult:
    """Measure k-anonymity and the sensitive-attribute models of an existing table (NULL is a value).

    With ``masked_as_suppressed``, rows whose every quasi-identifier is '*' (masked by ``suppressed_rows:
    mask``, as ARX writes suppressed records) are suppressed records: they are left out of the classes and
    reported as ``masked_rows``, held to ``suppression_limit`` (a count, or a fraction of the rows) if given.
    An empty table is an input error: there is nothing to measure, and "k-anonymous" would be vacuous.

    ``q`` adds, per sensitive attribute, the (k,p,q,r)-anonymity the table meets for that q (the largest p and
    r; seed 004 Definition 7). ``source`` and ``key`` add the information loss of a microaggregated table
    against its source, matched on ``key`` (``standardize``: the scale, as microaggregation's).
    """
    # Every option is checked, and every hierarchy file read, before the database is opened.
    limit_spec = parse_k_and_limit(qis, k, masked_as_suppressed, suppression_limit)
    q_value = parse_q(q)
    check_source_options(source, key, standardize)
    attributes = list(dict.fromkeys(sensitive or []))
    paths = hierarchy_paths(hierarchies, attributes)
    c_value = parse_c(c)
    hierarchy_rows = {
        name: read_hierarchy(path, f"--hierarchy {name}={path}") for name, path in paths.items()
    }
    spelled = parse_spelled_name(table)
    spelled_population = None if population is None else parse_spelled_name(population)
    spelled_source = None if source is None else parse_spelled_name(source)

    with DatabaseSession(adapter_for_url(db, Path.cwd(), create=False)) as session:
        adapter = session.adapter
        # As the database resolves them (its case rule, search_path), like every name sqlanon reads.
        parts = adapter.resolve_relation(spelled).parts
        population_parts = None if spelled_population is None else adapter.resolve_relation(spelled_population).parts
        columns = _checked_columns(adapter, parts, qis, attributes)
        if population_parts is not None:
            _check_population(adapter, population_parts, qis)
        lookups = _load_hierarchies(session, hierarchy_rows, paths, parts)
        measured = _measure_classes(adapter, parts, qis, k)
        distribution = class_distribution(adapter, parts, qis) if masked_as_suppressed else None
        measures = _measure_sensitive(adapter, parts, qis, attributes, c_value, lookups, q_value)
        presence = None if population_parts is None else _presence(adapter, parts, population_parts, qis)
        loss = None
        if spelled_source is not None and key is not None:
            loss = _information_loss(adapter, parts, adapter.resolve_relation(spelled_source).parts, key, qis,
                                     standardize, columns)

    masked = limit = within = None
    if distribution is not None:
        measured, masked = _without_masked_rows(measured, distribution, k)
        if limit_spec is not None:
            limit = limit_spec if isinstance(limit_spec, int) else math.floor(limit_spec * measured.rows)
            within = masked <= limit
    return CheckResult(
        table=display_name(parts),
        quasi_identifiers=qis,
        k=k,
        rows=measured.rows,
        classes=measured.classes,
        smallest_class=measured.smallest,
        largest_class=measured.largest,
        classes_below_k=None if k is None else measured.below_k,
        records_below_k=None if k is None else measured.records_below_k,
        rows_with_null=measured.rows_with_null,
        k_anonymous=None if k is None else measured.below_k == 0,
        sensitive=measures,
        delta_presence=presence,
        masked_rows=masked,
        suppression_limit=limit,
        within_suppression_limit=within,
        information_loss=loss,
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
    session: DatabaseSession, hierarchy_rows: dict[str, list[list[str | None]]], paths: dict[str, Path],
    table: tuple[str, ...],
) -> dict[str, tuple[str, int]]:
    """Each ``--hierarchy`` as a scratch lookup table: attribute -> (lookup table, height)."""
    lookups: dict[str, tuple[str, int]] = {}
    for index, (name, rows) in enumerate(hierarchy_rows.items()):
        where = f"--hierarchy {name}={paths[name]}"
        lookup = session.scratch(f"audit_h{index}")
        _load_hierarchy(session.adapter, rows, lookup, table, name, where)
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


def _information_loss(adapter: EngineAdapter, table: tuple[str, ...], source: tuple[str, ...], key: str,
                      qis: list[str], scale: str, columns: list[str]) -> dict[str, Any]:
    try:
        source_columns = adapter.column_names(source)
    except Exception:
        raise InputError(f"--source: table {display_name(source)} not found in {adapter.display_url}") from None
    for where, have in (("--table", columns), ("--source", source_columns)):
        missing = [c for c in [key, *qis] if c not in have]
        if missing:
            raise ConfigError(f"--key/--qi: no column {', '.join(repr(m) for m in missing)} in the {where} table")
    not_numeric = [q for q, t in zip(qis, column_types(adapter, source, qis), strict=True) if numeric_kind(t) is None]
    if not_numeric:
        raise ConfigError(f"--source: the information loss compares numbers; {', '.join(not_numeric)} are not "
                          f"numeric in {display_name(source)}")
    row = adapter.run("audit_information_loss.sql.j2", table=table, source=source, key=key, qis=qis, scale=scale)[0]
    by = {q: {"sse": float(row[1 + 2 * j]), "sst": float(row[2 + 2 * j])} for j, q in enumerate(qis)}
    for v in by.values():
        v["information_loss"] = 100 * v["sse"] / v["sst"] if v["sst"] else 0.0
    sse, sst = sum(v["sse"] for v in by.values()), sum(v["sst"] for v in by.values())
    return {"source": display_name(source), "key": key, "standardize": scale, "matched_rows": int(row[0]),
            "sse": sse, "sst": sst, "information_loss": 100 * sse / sst if sst else 0.0, "by_attribute": by}


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
    where: str,
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
            f"hierarchical t-closeness needs a single top value"
        )


__all__ = [
    "CheckResult", "check", "format_report", "numeric_kind", "parse_hierarchy_specs", "parse_suppression_limit",
]
