"""Independent verification of a written table: only its own contents and the privacy parameters.

Masked rows (``suppressed_rows: mask``, ARX): a row whose every quasi-identifier is ``'*'`` is a suppressed
record, whether the writer masked it or the chosen levels generalized it that far; such rows are counted as
suppressed, held to the suppression limit and exempt from the class-size check (ARX treats them the same way).
The one exception is a table in which every row is all-``'*'``: that is the top generalization (one class),
held to k and not counted as suppressed. With ``remove`` every class, the all-``'*'`` one included, is held to
k and the suppressed records are the considered records that are missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from ..engines.base import EngineAdapter

#: How the verification treated rows whose every quasi-identifier is '*' (``Verification.masked_rows_as``).
#: mask mode: suppressed records, counted against the suppression limit and not held to k.
MASKED_AS_SUPPRESSED = "suppressed"
#: mask mode, every row all-'*': the top generalization, one class held to k.
MASKED_AS_CLASS = "top class"
#: remove mode: suppressed rows are gone, so all-'*' rows are a class like any other, held to k.
MASKED_AS_CLASS_REMOVE = "class"


@dataclass(frozen=True)
class Verification:
    verified: bool
    rows: int
    classes: int
    smallest_class: int | None
    classes_below_k: int
    suppressed_rows: int
    reason: str
    #: Rows whose every quasi-identifier is '*' (the masked rows in mask mode).
    masked_rows: int = 0
    #: How ``masked_rows`` were treated (one of the ``MASKED_AS_*`` texts).
    masked_rows_as: str = MASKED_AS_CLASS_REMOVE
    #: [class size, number of classes] ascending, every class of the written table (for the report).
    size_histogram: list[list[int]] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, object]:
        out = asdict(self)
        del out["size_histogram"]  # the report carries it; results and run records stay small
        return out


def class_distribution(adapter: EngineAdapter, table: Sequence[str], qis: Sequence[str],
                       starred: bool = True) -> list[tuple[int, bool, int]]:
    """(class size, whether the class is the all-'*' one, number of such classes), one pass over ``table``;
    ``starred``: the quasi-identifiers are text where '*' may stand (not so for numbers a method releases)."""
    with adapter.aggregate_settings(parallel=True):  # classes of a release: rows / k at most, if it holds
        rows = adapter.run("verify_output.sql.j2", table=tuple(table), qis=list(qis), starred=starred)
    return [(int(size), bool(star), int(count)) for size, star, count in rows]


def verify_output(
    adapter: EngineAdapter,
    *,
    table: Sequence[str],
    qis: Sequence[str],
    k: int,
    considered: int,
    max_suppressed: int,
    mask: bool,
    starred: bool = True,
) -> Verification:
    """Check k on the written table and that at most ``max_suppressed`` of ``considered`` rows are suppressed."""
    distribution = class_distribution(adapter, table, qis, starred)
    histogram: dict[int, int] = {}
    rows = sum(size * count for size, _, count in distribution)
    all_star = sum(size * count for size, star, count in distribution if star)  # at most one such class
    # Masked rows are suppressed records, unless every row is all-'*' (the top generalization: one class).
    star_suppressed = mask and 0 < all_star < rows
    classes = below_k = 0
    smallest = None
    for size, star, count in distribution:
        histogram[size] = histogram.get(size, 0) + count
        classes += count
        if star and star_suppressed:
            continue
        smallest = size if smallest is None else min(smallest, size)
        if size < k:
            below_k += count
    problems = []
    if mask:
        suppressed = all_star if star_suppressed else 0
        if rows != considered:
            problems.append(f"{rows} rows written, {considered} expected")
        if suppressed > max_suppressed:
            problems.append(f"{suppressed} masked rows (every quasi-identifier '*') exceed the suppression "
                            f"limit {max_suppressed}")
        treated = MASKED_AS_SUPPRESSED if star_suppressed or not all_star else MASKED_AS_CLASS
    else:
        suppressed = considered - rows
        if suppressed < 0 or suppressed > max_suppressed:
            problems.append(f"{suppressed} rows suppressed, limit {max_suppressed}")
        treated = MASKED_AS_CLASS_REMOVE
    if below_k:
        problems.append(f"{below_k} classes smaller than k={k}")
    return Verification(
        verified=not problems,
        rows=rows,
        classes=classes,
        smallest_class=smallest,
        classes_below_k=below_k,
        suppressed_rows=suppressed,
        reason="; ".join(problems) or "ok",
        masked_rows=all_star,
        masked_rows_as=treated,
        size_histogram=[[size, count] for size, count in sorted(histogram.items())],
    )
