"""MDAV (Maximum Distance to Average Vector; Domingo-Ferrer & Mateo-Sanz 2002, Domingo-Ferrer & Torra 2005) in
the database: Python counts the rounds, every round is one statement over all parts at once.

A round forms, in each part with n >= 3k records left, a group of the k records nearest to r (the record farthest
from the centroid of those left) and one of the k nearest to s (the record farthest from r); a part with
2k <= n < 3k left gets the group around r and its rest as the last group; a part with k <= n < 2k, the rest.
Every tie goes to the lower row id. Exact MDAV is one part (or one per pattern of NULL quasi-identifiers);
tables larger than the partition size are first split at medians (``split_parts.sql.j2``), so that the number of
rounds, hence of statements, depends on the partition size and k, not on the number of records.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...engines.base import EngineAdapter

TEMPLATES = "methods/microaggregation/"


def rounds_needed(n: int, k: int) -> int:
    """MDAV rounds of a part of n >= k records: one per two groups while 3k or more are left, plus the last.

    >>> [rounds_needed(n, 3) for n in (3, 5, 6, 8, 9, 14, 15, 1080)]
    [1, 1, 1, 1, 2, 2, 3, 180]
    """
    return 1 if n < 3 * k else (n - 3 * k) // (2 * k) + 2


@dataclass(frozen=True)
class Grouping:
    """What MDAV did: parts it ran in, rounds, and the records it could not group (suppressed)."""

    parts: int
    rounds: int
    split_rounds: int
    suppressed: int


def describe_parts(adapter: EngineAdapter, table: str) -> tuple[dict[int, int], int]:
    """({part: records not yet grouped}, suppressed records)."""
    parts, suppressed = {}, 0
    for part, records in adapter.run(TEMPLATES + "describe_parts.sql.j2", table=table):
        if part is None:
            suppressed = int(records)
        else:
            parts[int(part)] = int(records)
    return parts, suppressed


def split(adapter: EngineAdapter, table: str, d: int, limit: int) -> tuple[dict[int, int], int]:
    """Split the parts larger than ``limit`` at medians until none is; returns the parts and the rounds."""
    parts, _ = describe_parts(adapter, table)
    rounds = 0
    while parts and max(parts.values()) > limit:
        adapter.run(TEMPLATES + "split_parts.sql.j2", table=table, d=d, limit=limit)
        parts, _ = describe_parts(adapter, table)
        rounds += 1
    return parts, rounds


def group(  # noqa: PLR0913 - keyword-only: MDAV's k, dimensions and partitioning, named at the call site
    adapter: EngineAdapter, table: str, *, k: int, d: int, limit: int, part_size: int, suppressed: int,
    global_rounds: int = 0, progress: Callable[[int, int], None] | None = None,
) -> Grouping:
    """Group every record of ``table`` not yet grouped (``grp`` NULL) by MDAV, part by part.

    Once a part (a pattern of NULLs) is larger than ``limit``, every part is split into parts of at most
    ``part_size`` records, after up to ``global_rounds`` rounds of exact MDAV over all the records: they group the
    records farthest from the centroid, the outliers that dominate the loss of skewed data, as exact MDAV does,
    before median splits could separate them. (A round leaves a part at least k records or none, so every part
    it leaves can still be split and grouped.)"""
    parts, _ = describe_parts(adapter, table)
    large = bool(parts) and max(parts.values()) > limit
    first = min(global_rounds, max(rounds_needed(n, k) for n in parts.values())) if large else 0
    base = 0
    for r in range(first):
        adapter.run(TEMPLATES + "group_round.sql.j2", table=table, k=k, d=d, base=0, stride=3 * first,
                    offset=3 * r)
        if progress is not None:
            progress(r + 1, first + 1)
    if first:
        base = (max(parts) + 1) * 3 * first  # group ids above every one of the global rounds
    parts, split_rounds = split(adapter, table, d, part_size) if large else (parts, 0)
    later = max((rounds_needed(n, k) for n in parts.values()), default=0)
    for r in range(later):
        adapter.run(TEMPLATES + "group_round.sql.j2", table=table, k=k, d=d, base=base, stride=3 * later,
                    offset=3 * r)
        if progress is not None:
            progress(first + r + 1, first + later)
    return Grouping(parts=len(parts), rounds=first + later, split_rounds=split_rounds, suppressed=suppressed)
