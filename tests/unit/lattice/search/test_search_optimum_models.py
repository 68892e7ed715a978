"""The searches stay exact with every privacy model: Flash, best-first, and top_down and LIGHTNING without a
budget find the exhaustive optimum and the
plain-Python oracle's (``tests/oracle_models.py``), for Loss and DM*, or all fail together; Flash settles
down-sets certain to fail without checking them.

Small random tables (``tests/strategies.py``: 2 quasi-identifiers, 0-30 rows, NULLs in quasi-identifiers and
sensitive attributes, 1-2 sensitive attributes with random models and parameters, sometimes delta-presence against
a population table with extra rows), on DuckDB and PostgreSQL, and fewer on Spark. Every example creates its own
uniquely named tables.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.config import parse_config
from sqlanon.errors import InputError, NoSolutionError
from tests.helpers import on_engines
from tests.strategies import KINDS, QIS, SEARCH_METRICS, SETTINGS, STRATEGIES, close, fresh

# The model tests' cases, under the names they had beside the generalization ones' (tests/strategies.py).
from tests.strategies import model_cases as cases


@on_engines("duckdb", "postgres")  # Spark: test_searches_on_spark_agree_with_exhaustive_and_oracle
@pytest.mark.parametrize("metric", SEARCH_METRICS)
@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=4, **SETTINGS)
@given(data=st.data())
def test_searches_agree_with_exhaustive_and_oracle(engine, kind: str, metric: str, data: st.DataObject) -> None:
    _agree(engine, data.draw(cases(kind=kind, max_height=4, min_rows=6), label="case"), metric, STRATEGIES)


@pytest.mark.spark
@on_engines("spark")
@settings(max_examples=5, **SETTINGS)
@given(data=st.data())
def test_searches_on_spark_agree_with_exhaustive_and_oracle(engine, data: st.DataObject) -> None:
    """The same on Spark, where a whole search costs seconds: the model kind, the metric and one strategy
    besides the exhaustive search drawn per example."""
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    metric = data.draw(st.sampled_from(SEARCH_METRICS), label="metric")
    strategy = data.draw(st.sampled_from(STRATEGIES[1:]), label="strategy")
    _agree(engine, data.draw(cases(kind=kind, max_height=4, min_rows=6), label="case"), metric,
           ("exhaustive", strategy))


def _agree(engine, case, metric: str, strategies: tuple[str, ...]) -> None:
    """Every strategy finds the oracle's optimum (or all fail), with its metric values and suppressed rows."""
    case.create_tables(engine)
    if case.input_error_expected():
        event("input error")
        with pytest.raises(InputError):
            sqlanon.anonymize(case.config(engine), dry_run=True)
        return
    oracle = case.oracle()
    if oracle.lattice_unsure():
        event("entropy within 1e-6 of the threshold: not compared")
        return
    event(f"lattice size {len(oracle.nodes())}")
    optimum = oracle.optimum(metric)
    results = {}
    for strategy in strategies:
        cfg = case.config(engine, metric=metric, strategy=strategy)
        where = f"metric={metric} strategy={strategy} {case.describe()}"
        if optimum is None:
            event("no solution")
            with pytest.raises(NoSolutionError):
                sqlanon.anonymize(cfg, dry_run=True)
            continue
        results[strategy] = result = sqlanon.anonymize(cfg, dry_run=True)
        node, value = optimum
        assert result.transformation == dict(zip(QIS, node, strict=True)), where
        assert close(result.metrics[metric], oracle.display(metric, value)), where
        at_node = oracle.evaluate(node)
        assert result.suppressed_rows == at_node.suppressed, where
        assert close(result.metrics["dm_star"], float(at_node.values["dm_star"])), where
        assert close(result.metrics["loss"], oracle.display("loss", at_node.values["loss"])), where
    if results:
        event("suppression at the optimum" if results["exhaustive"].suppressed_rows else "no suppression")
        for strategy in strategies[1:]:
            assert results[strategy].transformation == results["exhaustive"].transformation, strategy
            assert results[strategy].metrics[metric] == results["exhaustive"].metrics[metric], strategy


@pytest.mark.spark
def test_certain_suppression_settles_down_sets_without_checks(engine, tmp_path: Path) -> None:
    """The sensitive value follows qa, so every node below qa's top fails 0.1-closeness in classes that no
    specialization can save: Flash tags those down-sets infeasible from a few checks (the report's
    ``inferred_infeasible``, which nothing else sets with a non-monotone model) and keeps the optimum."""
    table = fresh("tc")
    rows = [(i, f"a{i % 8}", f"b{(i // 8) % 6}", "x" if i % 8 < 4 else "y") for i in range(480)]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR", "sa": "VARCHAR"}, rows)
    qa = {f"a{i}": [f"a{i // 2}x", f"a{i // 4}y", "*"] for i in range(8)}
    qb = {f"b{i}": [f"b{i // 2}x", f"b{i // 4}y", "*"] for i in range(6)}

    def config(strategy: str):
        return parse_config({
            "source": {"url": engine.url, "table": table},
            "output": {"table": f"{table}_out", "if_exists": "replace"},
            "attributes": {
                "id": {"role": "identifier"},
                "qa": {"role": "quasi_identifier", "hierarchy": {"inline": qa}},
                "qb": {"role": "quasi_identifier", "hierarchy": {"inline": qb}},
                "sa": {"role": "sensitive", "models": [{"t_closeness": {"t": 0.1, "distance": "equal"}}]},
            },
            "privacy": {"k": 2, "suppression_limit": 0.02},
            "search": {"metric": "loss", "strategy": strategy},
        })

    exhaustive = sqlanon.anonymize(config("exhaustive"), dry_run=True)
    flash = sqlanon.anonymize(config("flash"), dry_run=True, report=tmp_path / "flash.json")
    assert flash.transformation == exhaustive.transformation == {"qa": 3, "qb": 0}
    assert flash.metrics == exhaustive.metrics
    counts = flash.report["search"]["counts"]
    assert counts.get("inferred_infeasible", 0) > 0, counts
    assert flash.nodes_evaluated < exhaustive.nodes_evaluated
