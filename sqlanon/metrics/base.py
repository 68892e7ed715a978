"""Interface of an information loss metric and the node-independent facts metrics use."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from ..evaluation.evaluator import NodeStats
from ..lattice import Node


@dataclass(frozen=True)
class MetricContext:
    """Everything a metric needs besides the node's own statistics."""

    records: int
    max_suppressed: int
    k: int
    heights: tuple[int, ...]
    #: Hierarchy rows as written (non-NULL leaves), per QI (N of the Loss metric).
    leaves: tuple[int, ...]
    #: Sum over all records of the Loss weight per QI and level (see FrequencySet).
    weight_sums: tuple[tuple[int, ...], ...]
    #: Distinct codes per QI and level in the data, when the metric reads them (``reads_distinct_codes``).
    distinct_codes: tuple[tuple[int, ...], ...] | None
    distinct_rows: int
    priorities: tuple[Fraction, ...]
    #: Declared loss per level for WIL (None entries: level / (height - 1)).
    level_loss: tuple[tuple[Fraction, ...] | None, ...]
    #: The edge weights of the WHD metric (``search.whd``): ("uniform" | "height", beta).
    whd_weights: tuple[str, float] = ("uniform", 1.0)


class InformationLossMetric:
    """A utility metric to minimize; lower is better."""

    name: ClassVar[str]
    #: Never decreases along a generalization (DM*, WIL, precision, height).
    monotone: ClassVar[bool]
    #: The node query must return the per-QI weight sums of suppressed records.
    needs_loss_weights: ClassVar[bool] = False
    #: The value follows from the levels alone, so it equals the lower bound (WIL, precision, height).
    levels_determine_value: ClassVar[bool] = False
    #: The lower bound is the value with nothing suppressed, so a feasible node's value exceeds it only by the
    #: cost of what is suppressed (Loss): nodes near the incumbent's bound are feasible only if nearly as good.
    bound_is_unsuppressed_value: ClassVar[bool] = False
    #: Class statistics the value reads besides the suppressed records (``NodeStats`` fields): a feasibility
    #: check counts only these.
    class_statistics: ClassVar[tuple[str, ...]] = ()
    #: The bound reads ``MetricContext.distinct_codes``, which the frequency set's summary counts only then.
    reads_distinct_codes: ClassVar[bool] = False

    def value(self, node: Node, stats: NodeStats, ctx: MetricContext) -> Fraction:
        raise NotImplementedError  # pragma: no cover

    def lower_bound(self, node: Node, ctx: MetricContext) -> Fraction:
        """A bound <= the value of this node and of every generalization of it (so it may prune them)."""
        raise NotImplementedError  # pragma: no cover

    def lower_bounds(self, max_levels: tuple[int, ...], ctx: MetricContext) -> list[int] | None:
        """``lower_bound`` of every node up to ``max_levels``, in ``Lattice.nodes()`` order, as ints; None when
        the metric has no faster way than node by node. Flash takes every bound: one pass over per-QI tables
        is 3-4x faster than calling ``lower_bound`` for each node."""
        return None

    def value_without_evaluation(self, node: Node, ctx: MetricContext, feasible: bool) -> Fraction | None:
        """The exact value when it follows from the levels alone (then no SQL is needed)."""
        return None

    def bound_given_suppressed(self, node: Node, ctx: MetricContext, suppressed: int) -> Fraction | None:
        """A bound <= this node's value when ``suppressed`` records are suppressed there (a feasibility check
        counted them), for a value that needs more than that check; None when the metric has none."""
        return None

    def display(self, value: Fraction, ctx: MetricContext) -> float:
        return float(value)


def products(columns: list[tuple[int, ...]]) -> list[int]:
    """The product of one entry per column for every combination, in ``itertools.product`` order."""
    out = [1]
    for column in columns:
        out = [a * b for a in out for b in column]
    return out
