"""ML2 and dML2 of a release (seed 003, Eq. 4-5), as ``measure_ml2.sql.j2`` defines the frequent subtrees:
rooted label paths held by at least ``SUPPORT`` of the records (the paper's 1 %), at every hierarchy level."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .forest import Forest, T

if TYPE_CHECKING:
    from ...engines.base import EngineAdapter
    from ...session import Session
    from .cuts import Evaluation

#: The share of records a rooted path must be held by to be frequent.
SUPPORT = 0.01


def measure_ml2(adapter: EngineAdapter, session: Session, forest: Forest, released: str,
                best: Evaluation) -> dict[str, float]:
    cut_map, lifted = session.scratch("rbestmap"), session.scratch("rlifted")
    adapter.drop_tables([cut_map, lifted])
    adapter.run(T + "create_cut_map.sql.j2", table=cut_map, ancestors=forest.ancestors, dgh=forest.dgh,
                expanded=sorted(best.expanded))
    support = max(1, math.ceil(SUPPORT * forest.records))
    context = {"lifted": lifted, "source": forest.paths, "released": released, "ancestors": forest.ancestors,
               "dgh": forest.dgh, "map": cut_map, "heights": dict(enumerate(forest.heights)),
               "levels": max(forest.heights), "support": support, "depth": forest.depth}
    adapter.run(T + "measure_ml2.sql.j2", what="lift", **context)
    total, kept, dtree = adapter.run(T + "measure_ml2.sql.j2", what="measure", **context)[0]
    adapter.drop_tables([lifted])
    total, kept = int(total), int(kept)
    return {
        "ml2": 1.0 - kept / total if total else 0.0,
        "dml2": float(dtree or 0.0) / total if total else 0.0,
        "frequent_paths": float(total),
        "frequent_paths_kept": float(kept),
    }
