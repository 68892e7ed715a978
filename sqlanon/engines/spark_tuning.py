"""Spark's node query tuning: the neutral one (``sqlanon/evaluation/tuning.py``) but for batched checks."""

from __future__ import annotations

from ..evaluation.tuning import NodeQueryTuning


class SparkNodeQueryTuning(NodeQueryTuning):
    # A statement costs a local Spark 0.1-0.3 s whatever its size (planning, scheduling a job), so several
    # checks in one, a grouping set each, cost little more than one (benchmarks/README.md). The other flags
    # stay off: they shape per-row work, which is not what a Spark statement's time is.
    BATCHED_CHECKS = True
