"""Optimality of the searches: exhaustive, Flash and best-first find the optimum of the plain-Python oracle
(``tests/oracle.py``), with its metric values and suppressed rows, for every metric; Flash also on wider
lattices, with sliced checks and rolled-up code tables.

Small random tables (``tests/strategies.py``: 2-3 quasi-identifiers, 0-40 rows, random NULLs) with small random but
consistent inline hierarchies, on DuckDB and PostgreSQL, and fewer on Spark. The engine fixture is function-scoped
while hypothesis runs many examples per call, so every example creates its own uniquely named tables.
"""

from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.engines.duckdb_tuning import DuckDBNodeQueryTuning
from sqlanon.errors import InputError, NoSolutionError
from sqlanon.lattice.search import flash
from tests.helpers import on_engines, sliced_everywhere
from tests.oracle import METRIC_NAMES, Oracle
from tests.strategies import SETTINGS, STRATEGY_NAMES, Case, cases, close, fresh

#: Pinned boundary: a limit of 0.3 of 5 records is floor(1.5) = 1 record, not round(1.5) = 2. The bottom node
#: suppresses b and c (2 records, Loss 0.4) and is infeasible; the top (Loss 1) is the optimum.
FLOORED_LIMIT = Case(qis=["qa"], hierarchies={"qa": {"a": ["*"], "b": ["*"], "c": ["*"]}}, types={"qa": "VARCHAR"},
                     level_loss={"qa": None}, rows=[{"qa": v, "note": None} for v in "aaabc"], k=2,
                     suppression_limit=0.3, null_handling="extended", priorities={"qa": 1.0})


@on_engines("duckdb", "postgres")  # Spark: test_a_search_on_spark_finds_the_oracle_optimum
@settings(max_examples=10, **SETTINGS)
@given(case=cases(with_limits=True))
@example(case=FLOORED_LIMIT)
def test_searches_find_the_oracle_optimum(engine, case: Case) -> None:
    prepared = _prepared(engine, case)
    if prepared is None:
        return
    for metric in METRIC_NAMES:
        for strategy in ("exhaustive", *STRATEGY_NAMES):
            _finds_the_oracle_optimum(engine, case, *prepared, metric, strategy)


@pytest.mark.spark
@on_engines("spark")
@settings(max_examples=4, **SETTINGS)
@given(case=cases(with_limits=True), metric=st.sampled_from(METRIC_NAMES),
       strategy=st.sampled_from(("exhaustive", *STRATEGY_NAMES)))
@example(case=FLOORED_LIMIT, metric="loss", strategy="flash")
def test_a_search_on_spark_finds_the_oracle_optimum(engine, case: Case, metric: str, strategy: str) -> None:
    """The same on Spark, where a whole search costs seconds (0.1-0.3 s a statement): one metric and one
    strategy per example, drawn."""
    prepared = _prepared(engine, case)
    if prepared is not None:
        _finds_the_oracle_optimum(engine, case, *prepared, metric, strategy)


def _prepared(engine, case: Case) -> tuple[str, Oracle] | None:
    """The case's table and oracle; None when the case is an input error (checked here) and nothing is searched."""
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    if case.input_error_expected(oracle):
        event("input error")
        with pytest.raises(InputError):
            sqlanon.anonymize(case.config(engine, table), dry_run=True)
        return None
    event(f"lattice size {len(oracle.nodes())}")
    return table, oracle


def _finds_the_oracle_optimum(engine, case: Case, table: str, oracle: Oracle, metric: str, strategy: str) -> None:
    optimum = oracle.optimum(metric)
    cfg = case.config(engine, table, metric=metric, strategy=strategy)
    where = f"metric={metric} strategy={strategy}"
    if optimum is None:
        event("no solution")
        with pytest.raises(NoSolutionError):
            sqlanon.anonymize(cfg, dry_run=True)
        return
    node, value = optimum
    result = sqlanon.anonymize(cfg, dry_run=True)
    assert result.transformation == dict(zip(case.qis, node, strict=True)), where
    assert close(result.metrics[metric], oracle.display(metric, value)), where
    at_node = oracle.evaluate(node)
    assert result.suppressed_rows == at_node.suppressed, where
    assert result.suppression_limit == oracle.max_suppressed, where
    assert result.rows_considered == oracle.n, where
    for name in METRIC_NAMES:
        assert close(result.metrics[name], oracle.display(name, at_node.values[name])), f"{where}: {name}"


@on_engines("duckdb", "postgres")  # Spark: the search property above, with fewer examples
@settings(max_examples=10, **SETTINGS)
@given(case=cases(qi_counts=(4, 5)), nothing_suppressed=st.booleans(), sliced=st.booleans())
def test_flash_finds_the_oracle_optimum_on_wider_lattices(engine, case: Case, nothing_suppressed: bool,
                                                          sliced: bool) -> None:
    """Flash on lattices of up to 4^5 nodes, where its phase-1 forms differ most: the cover (no suppression,
    or a metric the levels determine) and the walk with the dominance skip (DM*, AECS and Loss under a
    suppression limit), with whole checks or with sliced checks (slicing.py: Loss under a limit) and rolled-up
    code tables (rollup.py). Every metric; the optimum, its value and its suppressed rows equal the oracle's."""
    if nothing_suppressed:
        case = dataclasses.replace(case, suppression_limit=0)
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    if case.input_error_expected(oracle):
        return
    event(f"lattice of {len(oracle.nodes()) // 100 * 100}+ nodes")
    with sliced_everywhere(3, 0.5, rolled_up=True) if sliced else contextlib.nullcontext():
        _flash_finds_the_oracle_optimum(engine, case, table, oracle)


def _flash_finds_the_oracle_optimum(engine, case: Case, table: str, oracle: Oracle) -> None:
    for metric in METRIC_NAMES:
        cfg = case.config(engine, table, metric=metric, strategy="flash")
        optimum = oracle.optimum(metric)
        if optimum is None:
            with pytest.raises(NoSolutionError):
                sqlanon.anonymize(cfg, dry_run=True)
            continue
        node, value = optimum
        result = sqlanon.anonymize(cfg, dry_run=True)
        where = f"metric={metric}"
        assert result.transformation == dict(zip(case.qis, node, strict=True)), where
        assert close(result.metrics[metric], oracle.display(metric, value)), where
        assert result.suppressed_rows == oracle.evaluate(node).suppressed, where
        assert result.nodes_evaluated <= len(oracle.nodes()), where


@on_engines("duckdb", "postgres")
def test_the_cover_checks_incomparable_nodes_together(engine, monkeypatch) -> None:
    """Without suppression Flash's cover checks up to COVER_BATCH maximal nodes of the open region in one
    statement (``NodeEvaluator.prefetch``): the oracle's optimum, in fewer statements than one check each.
    PostgreSQL's tuning batches checks; DuckDB's does not (no faster there), but runs the same SQL when told."""
    monkeypatch.setattr(DuckDBNodeQueryTuning, "BATCHED_CHECKS", True)
    labels = {"a": ["ab", "*"], "b": ["ab", "*"], "c": ["cd", "*"], "d": ["cd", "*"]}
    qis = ["qa", "qb", "qc"]
    rows = [{"qa": "abcd"[i % 4], "qb": "abcd"[i // 4 % 4], "qc": "abcd"[i // 16 % 4 if i % 5 else 0], "note": None}
            for i in range(60)]
    case = Case(qis=qis, hierarchies=dict.fromkeys(qis, labels), types=dict.fromkeys(qis, "VARCHAR"),
                level_loss=dict.fromkeys(qis), rows=rows, k=4, suppression_limit=0, null_handling="extended",
                priorities=dict.fromkeys(qis, 1.0))
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    node, value = oracle.optimum("loss")
    assert 0 < sum(node) < 6  # neither the bottom nor the top: the cover has a region to check
    cfg = case.config(engine, table, metric="loss", strategy="flash")
    sqlanon.anonymize(cfg, dry_run=True)  # the first run in a database also makes the run history's tables
    runs = {}
    for batch in (1, flash.COVER_BATCH, 1):  # one check a statement before and after: the same fixed statements
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(flash, "COVER_BATCH", batch)
            runs.setdefault(batch, []).append(sqlanon.anonymize(cfg, dry_run=True))
    for result in runs[1] + runs[flash.COVER_BATCH]:
        assert result.transformation == dict(zip(qis, node, strict=True))
        assert close(result.metrics["loss"], oracle.display("loss", value))
    (alone, again), (batched,) = runs[1], runs[flash.COVER_BATCH]
    assert alone.statements == again.statements and alone.nodes_evaluated >= 4
    # every check alone is a statement; together, at least two fewer
    assert batched.statements <= alone.statements - 2, (batched.statements, alone.statements)
