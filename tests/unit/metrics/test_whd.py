"""The weighted hierarchical distance as a search metric (``search.metric: whd``, seed 002 section 3.1).

The survey's worked values (0.6, 0.3431, 1) are doctests of ``sqlanon/metrics/whd.py``; the oracle's WHD
(``tests/oracle.py``) is compared with the metric at every node by the bound and optimality tests."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqlanon.evaluation.evaluator import NodeStats
from sqlanon.metrics import METRICS, MetricContext
from sqlanon.metrics.whd import whd
from tests.bad_input import base_config, config_file, expect_error
from tests.helpers import Engine, invoke

pytestmark = pytest.mark.spark


def _ctx(heights: tuple[int, ...], records: int = 10, weights: tuple[str, float] = ("uniform", 1.0)) -> MetricContext:
    return MetricContext(
        records=records, max_suppressed=records, k=2, heights=heights, leaves=tuple(max(h, 2) for h in heights),
        weight_sums=tuple((0,) * h for h in heights), distinct_codes=None, distinct_rows=records,
        priorities=tuple(Fraction(1) for _ in heights), level_loss=tuple(None for _ in heights),
        whd_weights=weights,
    )


def _stats(node: tuple[int, ...], suppressed: int) -> NodeStats:
    return NodeStats(node=node, classes=None, suppressed_records=suppressed, suppressed_classes=None, dm_star=None,
                     suppressed_weights=None)


@settings(max_examples=100, deadline=None)
@given(heights=st.lists(st.integers(1, 6), min_size=1, max_size=4).map(tuple))
def test_uniform_whd_equals_precision_at_every_node_without_suppression(heights: tuple[int, ...]) -> None:
    ctx = _ctx(heights)
    whd_metric, precision = METRICS["whd"](), METRICS["precision"]()
    for node in itertools.product(*(range(h) for h in heights)):
        assert whd_metric.value(node, _stats(node, 0), ctx) == precision.value(node, _stats(node, 0), ctx)


def test_height_weights_take_the_survey_example_through_the_metric() -> None:
    """Birthday (6 levels) three up and gender (2 levels) to '*': (0.3431 + 1) / 2 per cell, by height."""
    ctx = _ctx((6, 2), weights=("height", 1.0))
    value = METRICS["whd"]().value((3, 1), _stats((3, 1), 0), ctx)
    assert value == (whd(6, 0, 3, "height", 1) + 1) / 2
    assert round(float(value), 4) == 0.6715  # (0.34307 + 1) / 2
    assert METRICS["whd"]().value((3, 1), _stats((3, 1), 0), _ctx((6, 2))) == Fraction(4, 5)  # (0.6 + 1) / 2


def test_a_suppressed_record_costs_every_cell_in_full() -> None:
    """10 records, 2 quasi-identifiers at levels 1 of 3 and 0 of 2 (0.5 + 0 per kept record), 4 suppressed:
    (6 * 0.5 + 4 * 2) / (10 * 2) = 11 / 20; the bound is the value with nothing suppressed, 1 / 4."""
    metric, ctx = METRICS["whd"](), _ctx((3, 2))
    assert metric.value((1, 0), _stats((1, 0), 4), ctx) == Fraction(11, 20)
    assert metric.lower_bound((1, 0), ctx) == Fraction(1, 4) == metric.value((1, 0), _stats((1, 0), 0), ctx)
    assert metric.value((2, 1), _stats((2, 1), 10), ctx) == 1


def test_whd_is_reported_by_every_run_and_follows_its_weights(both: Engine, tmp_path: Path) -> None:
    """The chosen node's levels and suppressed rows give the reported WHD, with the configured weights."""
    for weights in ({}, {"weights": "height", "beta": 2}):
        data = base_config(both.url, k=4)
        data["search"] = {"metric": "whd", "whd": weights}
        data["output"]["if_exists"] = "replace"
        result = invoke("anonymize", config_file(tmp_path, data), "--json")
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        assert out["metric"] == "whd" and out["verified"]
        levels, heights = out["transformation"], out["hierarchy_heights"]
        n, s = out["rows"], out["suppressed_rows"]
        per_record = sum(whd(heights[a], 0, levels[a], weights.get("weights", "uniform"), weights.get("beta", 1))
                         for a in levels)
        expected = ((n - s) * per_record + s * len(levels)) / (n * len(levels))
        assert abs(out["metrics"]["whd"] - float(expected)) < 1e-12
        # The table's distortion: the sum over its cells.
        assert abs(out["metrics"]["whd_distortion"] - float(expected * n * len(levels))) < 1e-9
        # The node has a level strictly between the bottom and the top, where the weights make a difference.
        assert any(0 < levels[a] < heights[a] - 1 for a in levels), levels


def test_whd_weights_are_validated(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["search"] = {"metric": "whd", "whd": {"weights": "log"}}
    expect_error(["validate", config_file(tmp_path, data)], 2, "search.whd.weights", "log")
    data["search"] = {"metric": "whd", "whd": {"beta": 0}}
    expect_error(["validate", config_file(tmp_path, data)], 2, "search.whd.beta")
