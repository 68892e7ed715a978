"""Privacy models on sensitive attributes in the node queries, against the plain-Python oracle
(``tests/oracle_models.py``): the classes and suppressed records of random nodes, the records certain to fail
in every specialization (Flash tags down-sets with them), prepared node queries, t-closeness's bounds.

Small random tables (``tests/strategies.py``: 2 quasi-identifiers, 0-30 rows, NULLs in quasi-identifiers and
sensitive attributes, 1-2 sensitive attributes with random models and parameters, sometimes delta-presence against
a population table with extra rows), on DuckDB and PostgreSQL. Every example creates its own uniquely named tables.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.config import parse_config
from sqlanon.criteria import criteria_from_config
from sqlanon.errors import InputError
from sqlanon.evaluation import NodeEvaluator
from sqlanon.evaluation.tuning import tuning_for
from sqlanon.session import Session
from tests.helpers import prepare
from tests.oracle_models import Model
from tests.strategies import SETTINGS, SensitiveColumn, fresh

# The model tests' cases, under the names they had beside the generalization ones' (tests/strategies.py).
from tests.strategies import ModelCase as Case
from tests.strategies import model_cases as cases

pytestmark = pytest.mark.spark


def closeness_boundary(distance: str, first: tuple, second: tuple) -> Case:
    """Pinned boundary: classes qa=a0 and qa=a1 of five records each whose EMD is exactly t = 0.2 (a decimal
    a double cannot hold); both must pass (<= t) at node (0, 0)."""
    numeric = distance == "ordered"
    leaves = [1, 2, 3] if numeric else ["x", "y", "z"]
    hierarchy = {"x": ["A", "*"], "y": ["A", "*"], "z": ["B", "*"]} if distance == "hierarchical" else None
    rows = [{"qa": qa, "qb": "b", "sa": v, "note": None} for qa, values in (("a0", first), ("a1", second))
            for v in values]
    model = Model("t_closeness", {"t": 0.2, "distance": distance})
    return Case(hierarchies={"qa": {"a0": ["*"], "a1": ["*"]}, "qb": {"b": ["*"]}},
                types={"qa": "VARCHAR", "qb": "VARCHAR"}, rows=rows,
                sensitive=[SensitiveColumn("sa", numeric, leaves, [model], hierarchy)],
                k=2, suppression_limit=0, null_handling="extended")


@settings(max_examples=20, **SETTINGS)
@given(case=cases())
@example(case=closeness_boundary("equal", ("x",) * 5, ("x", "x", "x", "y", "z")))
@example(case=closeness_boundary("ordered", (1,) * 5, (1, 1, 2, 2, 3)))
@example(case=closeness_boundary("hierarchical", ("x",) * 5, ("x", "x", "y", "y", "z")))
def test_node_evaluation_matches_oracle(engine, case: Case) -> None:
    case.create_tables(engine)
    cfg = case.config(engine)
    with Session(cfg) as session:
        if case.input_error_expected():
            event("input error")
            with pytest.raises(InputError):
                prepare(session)
            return
        prepared = prepare(session)
        oracle = case.oracle()
        assert prepared.ctx.records == oracle.n
        evaluator = NodeEvaluator(session.adapter, prepared.fset, cfg.privacy.k, True, criteria_from_config(cfg))
        for node in oracle.nodes():  # every node of the (small) lattice
            expected = oracle.evaluate(node)
            if expected.unsure:
                event("entropy within 1e-6 of the threshold: not compared")
                continue
            for name in expected.failed_models:
                event(f"a class fails {name}")
            stats = evaluator.evaluate(node)
            where = f"node {node}, {case.describe()}"
            assert stats.classes == len(expected.classes) == len(expected.members), where
            assert stats.suppressed_records == expected.suppressed, where
            assert stats.suppressed_classes == expected.suppressed_classes, where
            assert stats.dm_star == expected.values["dm_star"], where


@pytest.mark.parametrize("models", ([], [{"distinct_l_diversity": {"l": 2}}]))
def test_node_queries_run_without_the_templates_comments(engine, models: list[dict[str, Any]]) -> None:
    """A run sends each node query without the template's comment lines (parsing them cost DuckDB ~7% of a
    k-only query); ``explain`` shows them. Both forms are the same statement and give the same row."""
    table = fresh("people")
    engine.create_table(table, {"age": "INTEGER", "sex": "VARCHAR", "diag": "VARCHAR"},
                        [(20 + i % 9, "FM"[i % 2], "abc"[i % 3]) for i in range(40)])
    cfg = parse_config({
        "source": {"url": engine.url, "table": table}, "output": {"table": f"{table}_out"},
        "attributes": {
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "diag": {"role": "sensitive", "models": models} if models else {"role": "insensitive"},
        },
        "privacy": {"k": 2, "suppression_limit": 0.1}, "history": {"enabled": False},
    }, source="<test>")
    with Session(cfg) as session:
        prepared = prepare(session)
        for weights in (False, True):
            evaluator = NodeEvaluator(session.adapter, prepared.fset, 2, weights, criteria_from_config(cfg))
            for node in ((0, 0), (1, 0), (1, 1)):
                shown, shown_params = evaluator.sql(node)
                sent, sent_params = evaluator.sql(node, comments=False)
                assert shown.startswith("-- evaluate_node:") and sent_params == shown_params
                assert sent == "".join(line for line in shown.splitlines(keepends=True)
                                       if not line.lstrip().startswith("--"))
                assert session.adapter.execute(sent, sent_params) == session.adapter.execute(shown, shown_params)
                # (a k-anonymity query sums over no suppressed class to NULL)
                assert evaluator.evaluate(node, for_metric=weights).suppressed_records == \
                    (session.adapter.execute(shown, shown_params)[0][0] or 0)


@pytest.mark.parametrize("kind", ("t_equal", "t_ordered", "t_hierarchical", "entropy_l_diversity", None))
@settings(max_examples=12, **SETTINGS)
@given(data=st.data())
def test_certain_suppression_bounds_every_specialization(engine, kind: str | None, data: st.DataObject) -> None:
    """``NodeStats.certain`` of a node, which lets Flash tag a whole down-set infeasible without checking
    it, is at most the oracle's suppressed records of the node and of each of its specializations."""
    case = data.draw(cases(kind=kind, max_height=4, min_rows=6), label="case")
    case.create_tables(engine)
    if case.input_error_expected():
        return
    cfg = case.config(engine)
    oracle = case.oracle()
    nodes = oracle.nodes()
    expected = {node: oracle.evaluate(node) for node in nodes}
    with Session(cfg) as session:
        prepared = prepare(session)
        evaluator = NodeEvaluator(session.adapter, prepared.fset, cfg.privacy.k, False, criteria_from_config(cfg))
        k_alone = NodeEvaluator(session.adapter, prepared.fset, cfg.privacy.k, False)
        for node in nodes:
            certain = evaluator.evaluate(node).certain
            below = [s for s in nodes if all(a <= b for a, b in zip(s, node, strict=True))]
            unsure = [s for s in below if expected[s].unsure]
            if unsure:
                event("entropy within 1e-6 of the threshold: not compared")
                continue
            least = min(expected[s].suppressed for s in below)
            assert certain <= least + 1e-9, f"node {node}: certain {certain} > {least}, {case.describe()}"
            assert certain <= expected[node].suppressed + 1e-9
            below_k = k_alone.evaluate(node).suppressed_records
            assert certain >= below_k - 1e-9  # classes below k stay below k in every specialization
            if certain > below_k + 1e-9:
                event("a model share adds to the classes below k")


def test_equal_closeness_share_uses_the_over_represented_values(engine) -> None:
    """Table distribution x 0.6, y 0.2, z 0.2. Class a0 = (0.2, 0.4, 0.4) has EMD 0.4 and over-represents
    {y, z} (table share 0.4): its failing parts hold at least (0.4 - 0.1) / (1 - 0.4 - 0.1) = 0.6 of it.
    Class a1 is all x (EMD 0.4, over-represents {x}, share 0.6): (0.4 - 0.1) / (1 - 0.6 - 0.1) = 1, and
    indeed every part of it fails. The looser (EMD - t) / (1 - t) would give 1/3 for both."""
    table = fresh("share")
    values = ["x", "y", "y", "z", "z"] + ["x"] * 5
    rows = [(i, "a0" if i < 5 else "a1", v) for i, v in enumerate(values)]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "sa": "VARCHAR"}, rows)
    cfg = parse_config({
        "source": {"url": engine.url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace"},
        "attributes": {
            "id": {"role": "identifier"},
            "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {"a0": ["*"], "a1": ["*"]}}},
            "sa": {"role": "sensitive", "models": [{"t_closeness": {"t": 0.1, "distance": "equal"}}]},
        },
        "privacy": {"k": 2, "suppression_limit": 0.5},
    })
    with Session(cfg) as session:
        prepared = prepare(session)
        evaluator = NodeEvaluator(session.adapter, prepared.fset, 2, False, criteria_from_config(cfg))
        stats = evaluator.evaluate((0,))
    assert stats.suppressed_records == 10
    assert stats.certain == pytest.approx(5 * 0.6 + 5 * 1.0, abs=1e-9)


def test_hierarchical_closeness_share_needs_a_single_root(engine) -> None:
    """With two top labels (an explicit NULL mapping allows them), the hierarchical EMD is not convex: qa = x1
    (c, c) and x2 (a, b) pass 0.1-closeness while their union X fails it (EMD 3/20), so X proves no share of
    records failed in every specialization, and Flash must still find the node below X at 0% suppression."""
    table = fresh("roots")
    values = [("x1", "c"), ("x1", "c"), ("x2", "a"), ("x2", "b")] + [("y", "b")] * 3 + [("y", "c")] * 3
    rows = [(i, qa, sa) for i, (qa, sa) in enumerate(values)]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "sa": "VARCHAR"}, rows)

    def config(strategy: str):
        return parse_config({
            "source": {"url": engine.url, "table": table},
            "output": {"table": f"{table}_out", "if_exists": "replace"},
            "attributes": {
                "id": {"role": "identifier"},
                "qa": {"role": "quasi_identifier",
                       "hierarchy": {"inline": {"x1": ["X", "*"], "x2": ["X", "*"], "y": ["Y", "*"]}}},
                "sa": {"role": "sensitive",
                       "hierarchy": {"inline": {"a": ["T1"], "b": ["T1"], "c": ["T2"], None: ["T2"]}},
                       "models": [{"t_closeness": {"t": 0.1, "distance": "hierarchical"}}]},
            },
            "privacy": {"k": 2, "suppression_limit": 0},
            "search": {"metric": "loss", "strategy": strategy},
        })

    cfg = config("flash")
    with Session(cfg) as session:
        prepared = prepare(session)
        evaluator = NodeEvaluator(session.adapter, prepared.fset, 2, False, criteria_from_config(cfg))
        assert evaluator.evaluate((0,)).suppressed_records == 0
        above = evaluator.evaluate((1,))
    assert above.suppressed_records == 4  # X fails
    assert above.certain == 0
    exhaustive = sqlanon.anonymize(config("exhaustive"), dry_run=True)
    flash = sqlanon.anonymize(cfg, dry_run=True)
    assert flash.transformation == exhaustive.transformation == {"qa": 0}


def test_prepared_model_queries_match_unprepared(engine) -> None:
    """DuckDB runs model node queries as one prepared statement with the levels as parameters (PREPARE once,
    then one EXECUTE per node); every node's statistics equal those of the query rendered for the node."""
    table = fresh("prep")
    rows = [(i, f"a{i % 6}", f"b{(i // 6) % 4}", f"s{(i * 7) % 5}" if i % 3 else "s0") for i in range(120)]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR", "sa": "VARCHAR"}, rows)
    cfg = parse_config({
        "source": {"url": engine.url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace"},
        "attributes": {
            "id": {"role": "identifier"},
            "qa": {"role": "quasi_identifier",
                   "hierarchy": {"inline": {f"a{i}": [f"a{i // 2}x", "*"] for i in range(6)}}},
            "qb": {"role": "quasi_identifier",
                   "hierarchy": {"inline": {f"b{i}": [f"b{i // 2}x", "*"] for i in range(4)}}},
            "sa": {"role": "sensitive", "models": [{"entropy_l_diversity": {"l": 2.5}},
                                                    {"t_closeness": {"t": 0.15, "distance": "equal"}}]},
        },
        "privacy": {"k": 2, "suppression_limit": 0.1},
        "search": {"metric": "loss"},
    })
    with Session(cfg) as session:
        fset = prepare(session).fset
        adapter = session.adapter
        tuning = tuning_for(adapter)
        prepared = NodeEvaluator(adapter, fset, 2, True, criteria_from_config(cfg))
        plain = NodeEvaluator(adapter, fset, 2, True, criteria_from_config(cfg))
        plain.prepared = False
        assert prepared.prepared == tuning.PREPARED_NODE_QUERIES
        nodes = list(itertools.product(range(3), range(3)))
        before = adapter.statements
        ours = [prepared.evaluate(node) for node in nodes]
        issued = adapter.statements - before
        theirs = [plain.evaluate(node) for node in nodes]
    assert [replace(s, certain=0.0) for s in ours] == [replace(s, certain=0.0) for s in theirs]
    assert all(math.isclose(a.certain, b.certain, rel_tol=1e-12) for a, b in zip(ours, theirs, strict=True))
    assert tuning.PREPARED_NODE_QUERIES == (engine.name == "duckdb")  # PostgreSQL: planning is a small share
    assert issued == len(nodes) + (1 if tuning.PREPARED_NODE_QUERIES else 0)
    assert any(stats.suppressed_records for stats in ours) and any(stats.certain for stats in ours)


def test_prepared_statements_keep_every_value(engine) -> None:
    """``execute_prepared`` passes DuckDB's EXECUTE literals: floats keep their exact double, one PREPARE per
    text; other values (text) run as an ordinary statement with bind parameters."""
    from sqlanon.engines import adapter_for_url

    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        assert adapter.execute_prepared("SELECT 1", []) == [(1,)]
        placeholder = adapter.PLACEHOLDER
        double = "DOUBLE" if engine.name == "spark" else "DOUBLE PRECISION"
        query = f"SELECT CAST({placeholder} AS {double}), CAST({placeholder} AS BIGINT) + 1"
        values = [0.1, 1 / 3, 1e-300, 2.5e300, 5e-324, -7.25, 2.0**60]
        before = adapter.statements
        got = [adapter.execute_prepared(query, [v, 2**40])[0] for v in values]
        issued = adapter.statements - before
        assert got == [(v, 2**40 + 1) for v in values]
        assert issued == len(values) + (1 if tuning_for(adapter).PREPARED_NODE_QUERIES else 0)
        assert adapter.execute_prepared(f"SELECT {placeholder}", ["it's"]) == [("it's",)]
    finally:
        adapter.close()


def test_largest_emd_of_a_sensitive_attribute(engine) -> None:
    """The bound M of failing_share's (EMD - t) / (M - t): the EMD of a single value, in the node queries'
    scale. Ordered over 1, 2, 3 with counts 1, 1, 2: from the first value 0 + 1 + 2*2 = 5 (the last gives 3),
    i.e. 5 / (n (m - 1)) = 5/8. Hierarchical with a, b under T1 and c under T2: from a, b at distance 1/2 and
    c, c at 1 give (0.5 + 2) / 4 = 0.625, twice n (height - 1) = 16 times that is 10 (from c: 8)."""
    table = fresh("emdmax")
    rows = [(i, "x", v, n) for i, (v, n) in enumerate([("a", 1), ("b", 2), ("c", 3), ("c", 3)])]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "sh": "VARCHAR", "so": "INTEGER"}, rows)
    cfg = parse_config({
        "source": {"url": engine.url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace"},
        "attributes": {
            "id": {"role": "identifier"},
            "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {"x": ["*"]}}},
            "sh": {"role": "sensitive", "hierarchy": {"inline": {"a": ["T1", "*"], "b": ["T1", "*"], "c": ["T2", "*"]}},
                   "models": [{"t_closeness": {"t": 0.1, "distance": "hierarchical"}}]},
            "so": {"role": "sensitive", "models": [{"t_closeness": {"t": 0.1, "distance": "ordered"}}]},
        },
        "privacy": {"k": 1},
    })
    with Session(cfg) as session:
        sensitive = {s["column"]: s for s in prepare(session).fset.sensitive}
    assert sensitive["so"]["ordered_max"] == 5
    assert sensitive["sh"]["hierarchical_max"] == 10 and sensitive["sh"]["single_root"]
