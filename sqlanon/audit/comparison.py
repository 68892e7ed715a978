"""``sqlanon check --source/--key``: the checked table against the table it was made from, rows matched on a key.

- The modification rate (seed 002, Li et al.): the share of quasi-identifier cells whose released value differs
  from the source value (``IS DISTINCT FROM``: NULL and NULL are equal; numbers compared as numbers when the
  column is numeric in both tables, else as text, so a masked '*' is a modification). A source row missing from
  the release (suppressed or removed) modifies each of its cells. Denominator: source rows x columns, the
  ``--qi`` columns and the ``--box`` columns (a box is a modification unless it and the source value are NULL).
- The WHD (weighted hierarchical distance, ``metrics/whd.py``) of each ``--qi`` column with a ``--hierarchy``:
  a released cell at level j costs ``cumulative[j]``, a missing row or a masked '*' cell 1, and a released value
  that is no label of its source value at any level is ``values_not_generalized`` (a violation; it costs 1).
  The database counts the cells per level; the weighting is exact, in Python.
- Microaggregation's information loss (``audit_information_loss.sql.j2``), only when every ``--qi`` column is
  numeric in both tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..engines import EngineAdapter
from ..errors import ConfigError, InputError
from ..identifiers import display_name
from ..measures import column_types, numeric_kind
from ..metrics.whd import cumulative


def check_source_columns(adapter: EngineAdapter, source: tuple[str, ...], key: str, qis: list[str],
                         boxes: list[str], columns: list[str]) -> list[str]:
    """The source's columns: it exists and holds the key, every ``--qi`` and every ``--box`` column; the checked
    table (``columns``) holds the key and every ``--qi`` column."""
    try:
        have = adapter.column_names(source)
    except Exception:
        raise InputError(f"--source: table {display_name(source)} not found in {adapter.display_url}") from None
    for where, names in (("--table", columns), ("--source", have)):
        missing = [c for c in [key, *qis] if c not in names]
        if missing:
            raise ConfigError(f"--key/--qi: no column {', '.join(repr(m) for m in missing)} in the {where} table")
    missing = [c for c in boxes if c not in have]
    if missing:
        raise ConfigError(f"--box: no column {', '.join(repr(m) for m in missing)} in the --source table "
                          f"{display_name(source)}; a cloaked column c is c in the source, c_min and c_max in the "
                          f"checked table")
    return have


def check_keys(adapter: EngineAdapter, key: str, tables: Sequence[tuple[str, tuple[str, ...]]]) -> None:
    """The key identifies every row of the source and of the checked table (``tables``: (option, parts))."""
    for where, table in tables:
        _rows, nulls, duplicated, example = adapter.run("audit_source_keys.sql.j2", table=table, key=key)[0]
        if int(duplicated):
            raise InputError(f"--key: {key!r} does not identify the rows of the {where} table {display_name(table)}: "
                             f"{int(duplicated)} value(s) are held by several rows (e.g. {example!r}); the rows of "
                             f"the two tables must match one to one")
        if int(nulls):
            raise InputError(f"--key: {int(nulls)} row(s) of the {where} table {display_name(table)} have a NULL "
                             f"{key!r}, which matches no row")


def compare_with_source(  # noqa: PLR0913 - the comparison's inputs, each from one option of check
    adapter: EngineAdapter, table: tuple[str, ...], source: tuple[str, ...], key: str, qis: list[str],
    boxes: list[str], lookups: dict[str, tuple[str, int]], whd: tuple[str, float],
) -> tuple[dict[str, Any], dict[str, int]]:
    """The ``source_comparison`` object, and the matched cells outside their box per ``--box`` column."""
    numeric = numeric_columns(adapter, table, source, qis)
    hierarchies = [{"index": qis.index(q), "lookup": lookups[q][0], "height": lookups[q][1]}
                   for q in qis if q in lookups]
    columns = [{"name": q, "numeric": q in numeric} for q in qis]
    try:
        row = adapter.run("audit_source_comparison.sql.j2", table=table, source=source, key=key, columns=columns,
                          hierarchies=hierarchies, boxes=boxes)[0]
    except Exception as exc:  # e.g. the key, or a box and its source column, have incompatible types
        raise InputError(f"--source: cannot compare {display_name(table)} with {display_name(source)} "
                         f"(matched on {key!r}): {exc}") from None
    values = iter([int(v) for v in row])
    source_rows, matched, unmatched = next(values), next(values), next(values)
    by = {q: {"modified_cells": next(values)} for q in qis}
    levels = {q: [next(values) for _ in range(lookups[q][1] + 2)] for q in qis if q in lookups}
    outside: dict[str, int] = {}
    for c in boxes:
        by[c] = {"modified_cells": next(values)}
        outside[c] = next(values)
    result = {"source": display_name(source), "key": key, "source_rows": source_rows, "matched_rows": matched,
              "missing_rows": source_rows - matched, "unmatched_table_rows": unmatched}
    result.update(_modification_rate(by, source_rows))
    if levels:
        result.update(_whd(by, levels, source_rows - matched, whd))
    return result, outside


def numeric_columns(adapter: EngineAdapter, table: tuple[str, ...], source: tuple[str, ...],
                    qis: list[str]) -> set[str]:
    """The ``--qi`` columns numeric in both tables."""
    if not qis:
        return set()
    both = zip(qis, column_types(adapter, table, qis), column_types(adapter, source, qis), strict=True)
    return {q for q, t, s in both if numeric_kind(t) is not None and numeric_kind(s) is not None}


def _rate(part: int | Fraction, whole: int) -> float | None:
    return None if whole == 0 else float(Fraction(part) / whole)


def _modification_rate(by: dict[str, dict[str, Any]], source_rows: int) -> dict[str, Any]:
    for v in by.values():
        v["modification_rate"] = _rate(v["modified_cells"], source_rows)
    modified = sum(v["modified_cells"] for v in by.values())
    cells = source_rows * len(by)
    return {"cells": cells, "modified_cells": modified, "modification_rate": _rate(modified, cells),
            "by_attribute": by}


def _whd(by: dict[str, dict[str, Any]], levels: dict[str, list[int]], missing: int,
         whd: tuple[str, float]) -> dict[str, Any]:
    """Per column with a hierarchy: its cells per level, WHD and distortion; the average over those columns."""
    weights, beta = whd
    total, cells = Fraction(0), 0
    for q, counts in levels.items():
        *at_level, masked, not_generalized = counts
        table = cumulative(len(at_level), weights, beta)
        distortion = sum((n * w for n, w in zip(at_level, table, strict=True)), Fraction(0))
        distortion += missing + masked + not_generalized
        rows = sum(counts) + missing
        by[q].update({"levels": at_level, "masked_cells": masked, "values_not_generalized": not_generalized,
                      "modified_by_level": rows - at_level[0], "whd": _rate(distortion, rows),
                      "whd_distortion": float(distortion)})
        total, cells = total + distortion, cells + rows
    return {"whd": _rate(total, cells), "whd_distortion": float(total), "whd_weights": weights, "whd_beta": beta,
            "values_not_generalized": sum(by[q]["values_not_generalized"] for q in levels)}


def information_loss(adapter: EngineAdapter, table: tuple[str, ...], source: tuple[str, ...], key: str,
                     qis: list[str], scale: str) -> tuple[dict[str, Any] | None, str | None]:
    """Microaggregation's information loss (SSE / SST), or None and why: it compares numbers, so every ``--qi``
    column must be numeric in both tables."""
    if not qis:
        return None, "no --qi columns to compare"
    numeric = numeric_columns(adapter, table, source, qis)
    not_numeric = [q for q in qis if q not in numeric]
    if not_numeric:
        return None, f"it compares numbers; not numeric in both tables: {', '.join(not_numeric)}"
    row = adapter.run("audit_information_loss.sql.j2", table=table, source=source, key=key, qis=qis, scale=scale)[0]
    by = {q: {"sse": float(row[1 + 2 * j]), "sst": float(row[2 + 2 * j])} for j, q in enumerate(qis)}
    for v in by.values():
        v["information_loss"] = 100 * v["sse"] / v["sst"] if v["sst"] else 0.0
    sse, sst = sum(v["sse"] for v in by.values()), sum(v["sst"] for v in by.values())
    return {"source": display_name(source), "key": key, "standardize": scale, "matched_rows": int(row[0]),
            "sse": sse, "sst": sst, "information_loss": 100 * sse / sst if sst else 0.0, "by_attribute": by}, None
