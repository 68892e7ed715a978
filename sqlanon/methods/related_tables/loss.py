"""ML2 and dML2 of a release (seed 003, Eq. 4-5), as ``measure_ml2.sql.j2`` defines the frequent subtrees:
rooted label paths held by at least ``SUPPORT`` of the records (the paper's 1 %), at every hierarchy level."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .forest import Forest, T

if TYPE_CHECKING:
    from ...engines.base import EngineAdapter
    from ...session import Session
    from .cuts import Evaluation

#: The share of records a rooted path must be held by to be frequent.
SUPPORT = 0.01


def measure_ml2(adapter: EngineAdapter, session: Session, forest: Forest, released: str,
                best: Evaluation) -> dict[str, float]:
    cut_map, lifted, frequent = session.scratch("rbestmap"), session.scratch("rlifted"), session.scratch("rfreq")
    adapter.drop_tables([cut_map, lifted, frequent])
    adapter.run(T + "create_cut_map.sql.j2", table=cut_map, ancestors=forest.ancestors, dgh=forest.dgh,
                expanded=sorted(best.expanded))
    support = max(1, math.ceil(SUPPORT * forest.records))
    context = {"lifted": lifted, "frequent": frequent, "source": forest.paths, "released": released,
               "ancestors": forest.ancestors, "dgh": forest.dgh, "map": cut_map,
               "heights": dict(enumerate(forest.heights)), "levels": max(forest.heights),
               "support": support, "depth": forest.depth}
    total, kept, dtree = ml2_counts(adapter, context)
    return {
        "ml2": 1.0 - kept / total if total else 0.0,
        "dml2": float(dtree or 0.0) / total if total else 0.0,
        "frequent_paths": float(total),
        "frequent_paths_kept": float(kept),
    }


def ml2_counts(adapter: EngineAdapter, context: dict[str, Any]) -> tuple[int, int, float | None]:
    """``measure_ml2.sql.j2`` run: the paths lifted, the frequent prefixes mined a slice at a time (one side,
    level and length per statement), then measured: frequent source paths, those also frequent in the release,
    the sum of their dtree. The tables it makes are dropped."""
    adapter.run(T + "measure_ml2.sql.j2", what="lift", **context)
    slices = [(side, level, length) for side in (0, 1) for level in range(context["levels"])
              for length in range(1, context["depth"] + 1)]
    for n, (side, level, length) in enumerate(slices):
        adapter.run(T + "measure_ml2.sql.j2", what="mine", create=n == 0, side=side, level=level, length=length,
                    **context)
    total, kept, dtree = adapter.run(T + "measure_ml2.sql.j2", what="measure", **context)[0]
    adapter.drop_tables([context["lifted"], context["frequent"]])
    return int(total), int(kept), dtree
