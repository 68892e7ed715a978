"""Checking and integer-coding a hierarchy whose rows are already in Python (small files, inline mappings).

The same checks and codes as validate_hierarchy.sql.j2, describe_hierarchy.sql.j2 and encode_hierarchy.sql.j2,
which do this in the database for hierarchies that never pass through Python (large files parsed by the
database, tables, builders). Those take four to five statements per hierarchy whatever its size, a large
share of a small run; here the same work takes a fraction of one statement's time, and the coded table is
created and filled with two statements (on DuckDB all of a run's coded tables with two calls:
``EngineAdapter.create_coded_tables``). tests/unit/hierarchy/test_hierarchy_encoding.py holds both
implementations to the same verdict, description and coded rows, on both engines.

Labels are compared by code point, which is the byte order of their UTF-8 (the SQL's ``bytewise``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

Row = Sequence[str | None]  # value, l0 .. l{height-1}


def _order(label: str | None) -> tuple[bool, str]:
    return (label is None, label or "")  # NULL last, as ASC NULLS LAST


def well_formed(rows: Sequence[Row], height: int) -> bool:
    """Whether validate_hierarchy.sql.j2 finds nothing wrong with the hierarchy itself: no value with two
    labels at a level, no label with two parents at the next level, no value without a label at a level.
    When it does, the database lists the problems as for any other hierarchy, so the messages have one
    source."""
    labels: dict[str | None, list[str | None]] = {}
    parents: list[dict[str | None, str | None]] = [{} for _ in range(height - 1)]
    for value, *levels in rows:
        seen = labels.setdefault(value, [None] * height)
        for j, label in enumerate(levels):
            if label is not None and seen[j] != label:
                if seen[j] is not None:
                    return False
                seen[j] = label
        if value is None:
            continue  # the NULL mapping is no leaf of the tree (value IS NOT NULL in the SQL)
        if None in levels:
            return False
        for j in range(height - 1):
            if parents[j].setdefault(levels[j], levels[j + 1]) != levels[j + 1]:
                return False
    return True


@dataclass(frozen=True)
class Description:
    """describe_hierarchy.sql.j2's columns."""

    leaves: int  # non-NULL values as written (duplicates counted)
    null_rows: int
    top_labels: int  # distinct non-NULL labels at the top level
    top_label: str | None  # the least of them


def describe(rows: Sequence[Row]) -> Description:
    tops = {row[-1] for row in rows if row[-1] is not None}
    leaves = sum(1 for row in rows if row[0] is not None)
    return Description(leaves, len(rows) - leaves, len(tops), min(tops) if tops else None)


def encode(rows: Sequence[Row], height: int, null_explicit: bool) -> list[tuple[object, ...]]:
    """encode_hierarchy.sql.j2's rows: value, match_key, then per level label, code and Loss weight.

    Codes number a level's distinct labels from 1 in byte order, NULL last; the weight of a label is the
    number of non-NULL hierarchy rows carrying it at that level, minus one (an unmapped NULL at the top:
    max(N - 1, 1)). Rows that are written twice come out once."""
    total = sum(1 for row in rows if row[0] is not None)
    codes: list[dict[str | None, int]] = []
    counts: list[Counter[str | None]] = []
    for j in range(height):
        column = [row[j + 1] for row in rows]
        codes.append({label: g for g, label in enumerate(sorted(set(column), key=_order), start=1)})
        counts.append(Counter(row[j + 1] for row in rows if row[0] is not None))
    out = []
    for row in dict.fromkeys(tuple(row) for row in rows):
        value = row[0]
        cells: list[object] = [value, "N" if value is None else "V" + value]
        for j in range(height):
            label = row[j + 1]
            if label is None:
                weight = 0
            elif j == height - 1 and not null_explicit and value is None:
                weight = max(total - 1, 1)
            else:
                weight = max(counts[j][label] - 1, 0)
            cells += [label, codes[j][label], weight]
        out.append(tuple(cells))
    return out


def fixed_weights(coded: Sequence[Sequence[object]], height: int) -> tuple[int | None, ...]:
    """Per level, the Loss weight that every row of ``encode``'s output has there, None where they differ.

    >>> fixed_weights([("a", "Va", "a", 1, 0, "x", 1, 1, "*", 1, 2), ("b", "Vb", "b", 2, 0, "x", 1, 1, "*", 1, 2),
    ...                ("c", "Vc", "c", 3, 0, "y", 2, 0, "*", 1, 2)], 3)
    (0, None, 2)
    """
    weights = [{row[4 + 3 * j] for row in coded} for j in range(height)]
    return tuple(int(next(iter(w))) if len(w) == 1 else None for w in weights)  # type: ignore[call-overload]


#: A level's modified codes are written into the modification rate's statement as a list of at most this many
#: codes (those modified, or those not); beyond it the statement looks them up in the coded table.
MODIFIED_CODES_LISTED = 16


def modified_codes(coded: Sequence[Sequence[object]], height: int) -> tuple[tuple[bool, tuple[int, ...]] | None, ...]:
    """Per level, the level-0 codes of the rows whose label there is not their value (a NULL row's NULL label is
    no change; measure_modification.sql.j2), as (negated, codes): the codes modified (False) or those not
    (True), whichever list is shorter; None where both are longer than ``MODIFIED_CODES_LISTED``. (False, ())
    is a level that modifies nothing (level 0), (True, ()) one that modifies every value (a single top).

    >>> modified_codes([("a", "Va", "a", 1, 0, "ab", 1, 1, "*", 1, 2), ("b", "Vb", "b", 2, 0, "b", 2, 0, "*", 1, 2),
    ...                 (None, "N", None, 3, 0, None, 3, 0, "*", 1, 2)], 3)
    ((False, ()), (False, (1,)), (True, ()))
    """
    everything = {row[3] for row in coded}
    out: list[tuple[bool, tuple[int, ...]] | None] = []
    for j in range(height):
        modified = {row[3] for row in coded if row[2 + 3 * j] != row[0]}
        kept = everything - modified
        negated, codes = (True, kept) if len(kept) < len(modified) else (False, modified)
        out.append((negated, tuple(sorted(codes))) if len(codes) <= MODIFIED_CODES_LISTED else None)  # type: ignore[arg-type]
    return tuple(out)
