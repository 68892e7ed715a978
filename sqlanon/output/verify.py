"""Independent verification of a written table: only its own contents and the privacy parameters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from ..engines.base import EngineAdapter


@dataclass(frozen=True)
class Verification:
    verified: bool
    rows: int
    classes: int
    smallest_class: int | None
    classes_below_k: int
    suppressed_rows: int
    reason: str
    #: [class size, number of classes] ascending, every class of the written table (for the report).
    size_histogram: list[list[int]] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, object]:
        out = asdict(self)
        del out["size_histogram"]  # the report carries it; results and run records stay small
        return out


def verify_output(
    adapter: EngineAdapter,
    *,
    table: Sequence[str],
    qis: Sequence[str],
    k: int,
    considered: int,
    max_suppressed: int,
    mask: bool,
) -> Verification:
    """Check k on the written table and that at most ``max_suppressed`` of ``considered`` rows are suppressed."""
    histogram: dict[int, int] = {}
    rows = classes = below_k = all_star = 0
    smallest = None
    with adapter.aggregate_settings():
        distribution = adapter.run("verify_output.sql.j2", table=tuple(table), qis=list(qis))
    for size, star, count in distribution:
        size, count = int(size), int(count)
        histogram[size] = histogram.get(size, 0) + count
        rows += size * count
        classes += count
        if star:
            all_star += size * count  # at most one class has every quasi-identifier '*'
            continue
        smallest = size if smallest is None else min(smallest, size)
        if size < k:
            below_k += count
    problems = []
    if mask:
        suppressed = all_star if 0 < all_star < k else 0
        if rows != considered:
            problems.append(f"{rows} rows written, {considered} expected")
        if 0 < all_star < k and all_star > max_suppressed:
            problems.append(f"{all_star} masked rows exceed the suppression limit {max_suppressed}")
    else:
        suppressed = considered - rows
        if suppressed < 0 or suppressed > max_suppressed:
            problems.append(f"{suppressed} rows suppressed, limit {max_suppressed}")
        if all_star and all_star < k:
            problems.append(f"the all-'*' class has {all_star} < k rows")
    if below_k:
        problems.append(f"{below_k} classes smaller than k={k}")
    return Verification(
        verified=not problems,
        rows=rows,
        classes=classes,
        smallest_class=None if smallest is None else int(smallest),
        classes_below_k=below_k,
        suppressed_rows=suppressed,
        reason="; ".join(problems) or "ok",
        size_histogram=[[size, count] for size, count in sorted(histogram.items())],
    )
