"""``sqlanon check --box``: the boxes of a cloaking release (``method: cloaking``), each cloaked column c released as
the half-open interval [c_min, c_max) (NULL/NULL where the source value is NULL).

The boxes join the class key (``class_columns``). Every row's box must be valid (c_min < c_max, or both NULL).
With ``--source``, each source value must lie in its released box, and the *per-request k* is the fewest source
records (or distinct ``--subject`` values) inside a released box, over the distinct boxes, counting the box
dimensions only (not the other quasi-identifiers). That is what a request-mode release guarantees: each
request's box holds >= k subjects. It is not k-anonymity of the table, whose classes may be smaller.
"""

from __future__ import annotations

from typing import Any

from ..engines import EngineAdapter
from ..errors import ConfigError, InputError
from ..identifiers import display_name

#: What ``check`` prints when the table is not k-anonymous but every released box holds >= k subjects.
REQUEST_MODE_NOTE = ("not k-anonymous as a table; every released box holds >= k subjects of the source "
                     "(a request-mode release protects each request, not the table)")


def box_columns(boxes: list[str]) -> list[str]:
    """The released columns of the cloaked ones: c_min, c_max for each.

    >>> box_columns(["lat", "ts"])
    ['lat_min', 'lat_max', 'ts_min', 'ts_max']
    """
    return [f"{c}{end}" for c in boxes for end in ("_min", "_max")]


def check_box_columns(table: tuple[str, ...], columns: list[str], qis: list[str], boxes: list[str]) -> None:
    """Every ``--box`` column c has c_min and c_max in the checked table, none of them a ``--qi`` column."""
    missing = [c for c in box_columns(boxes) if c not in columns]
    if missing:
        raise ConfigError(f"--box: no column {', '.join(repr(m) for m in missing)} in {display_name(table)}; a "
                          f"cloaked column c is released as c_min and c_max (columns: {', '.join(columns)})")
    both = [c for c in box_columns(boxes) if c in qis]
    if both:
        raise ConfigError(f"--box: {', '.join(repr(b) for b in both)} is also given with --qi; the boxes join the "
                          f"classes by themselves")


def measure_boxes(adapter: EngineAdapter, table: tuple[str, ...], boxes: list[str]) -> dict[str, Any]:
    """The ``boxes`` object: the cloaked columns, the distinct boxes, the rows whose box is invalid."""
    with adapter.aggregate_settings():
        distinct, invalid = adapter.run("audit_boxes.sql.j2", table=table, boxes=boxes)[0]
    return {"columns": boxes, "distinct_boxes": int(distinct), "invalid_boxes": int(invalid)}


def per_request_k(  # noqa: PLR0913 - the count's inputs, each from one option of check
    adapter: EngineAdapter, table: tuple[str, ...], source: tuple[str, ...], boxes: list[str],
    subject: str | None, k: int | None,
) -> dict[str, Any]:
    """The fewest source records (distinct subjects with ``subject``) inside a released box; with ``k``, the
    boxes holding fewer. One statement: the distinct boxes joined to the source by range predicates."""
    try:
        _, fewest, below = adapter.run("audit_per_request_k.sql.j2", table=table, source=source, boxes=boxes,
                                       subject=subject, k=k if k is not None else 1,
                                       bucket=_disjoint_column(adapter, table, boxes))[0]
    except Exception as exc:  # e.g. a box and its source column have incompatible types
        raise InputError(f"--box: cannot count the source records of {display_name(source)} inside the boxes of "
                         f"{display_name(table)}: {exc}") from None
    return {"subject": subject, "per_request_k": None if fewest is None else int(fewest),
            "boxes_below_k": None if k is None else int(below)}


def _disjoint_column(adapter: EngineAdapter, table: tuple[str, ...], boxes: list[str]) -> int | None:
    """The last box column whose distinct (non-NULL) intervals in the table are disjoint, if any (request mode's
    time windows): the per-request count may then place each source record in its interval first."""
    for index in reversed(range(len(boxes))):
        overlaps = adapter.run("count_overlaps.sql.j2", output=table, column=boxes[index])[0][0]
        if int(overlaps) == 0:
            return index
    return None


def check_subject(source: tuple[str, ...], source_columns: list[str], subject: str | None) -> None:
    if subject is not None and subject not in source_columns:
        raise ConfigError(f"--subject: no column {subject!r} in the --source table {display_name(source)} "
                          f"(columns: {', '.join(source_columns)})")
