"""Node evaluation in SQL against the plain-Python oracle (``tests/oracle.py``): the classes, suppressed records and
every metric of random nodes, with each node query tuning on and off (code tables, packed class keys, Loss
weights per code, rolled-up code tables, sliced checks).

Small random tables (``tests/strategies.py``: 2-3 quasi-identifiers, 0-40 rows, random NULLs) with small random but
consistent inline hierarchies, on DuckDB and PostgreSQL. The engine fixture is function-scoped while hypothesis
runs many examples per call, so every example creates its own uniquely named tables.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from sqlanon.engines.duckdb_tuning import DuckDBNodeQueryTuning
from sqlanon.engines.postgres_tuning import PostgresNodeQueryTuning
from sqlanon.errors import InputError
from sqlanon.evaluation import FrequencySet, NodeEvaluator, rollup, slicing
from sqlanon.evaluation import evaluator as evaluator_module
from sqlanon.evaluation.evaluator import exact_in_double
from sqlanon.evaluation.tuning import tuning_for
from sqlanon.metrics import METRICS
from sqlanon.session import Session
from tests.helpers import on_engines, prepare, rolled_up_everywhere, sliced_everywhere
from tests.oracle import METRIC_NAMES
from tests.strategies import QI_NAMES, SETTINGS, Case, cases, close, fresh, text_case

pytestmark = pytest.mark.spark

#: Sliced checks and rolled-up code tables are DuckDB's and PostgreSQL's node query tunings; Spark's
#: tuning has neither (README, "On a cluster"), so the tests of their workings run on those two.
SLICING_ENGINES = on_engines("duckdb", "postgres")


@settings(max_examples=25, **SETTINGS)
@given(case=cases(), data=st.data())
def test_node_evaluation_matches_oracle(engine, case: Case, data: st.DataObject) -> None:
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    cfg = case.config(engine, table)
    with Session(cfg) as session:
        if case.input_error_expected(oracle):
            event("input error")
            with pytest.raises(InputError):
                prepare(session)
            return
        tuning = tuning_for(session.adapter)
        # With and without the frequency set's narrow copy for k-anonymity queries, on both engines.
        tuning.CODE_TABLE = data.draw(st.booleans(), label="code table")
        # And the Loss weights summed per row, or looked up per code of the suppressed classes.
        tuning.CODE_WEIGHTS = data.draw(st.booleans(), label="code weights")
        # And rolled-up code tables for the nodes above level 0 of a QI or two, or none.
        tuning.ROLLUPS = data.draw(st.booleans(), label="rolled-up code tables")
        with pytest.MonkeyPatch.context() as mp:
            rolled_up_everywhere(mp)
            prepared = prepare(session)
        if prepared.fset.rollups:
            event("rolled up")
        assert (prepared.fset.codes_table is not None) == tuning.CODE_TABLE
        assert tuning.CODE_WEIGHTS or prepared.fset.code_weights is None
        ctx = prepared.ctx
        assert prepared.total_rows == oracle.total_rows
        assert prepared.removed_for_null == oracle.removed_for_null
        assert ctx.records == oracle.n
        assert ctx.max_suppressed == oracle.max_suppressed
        assert ctx.heights == oracle.heights
        assert ctx.leaves == tuple(h.n_leaves for h in oracle.hier)
        # Both ways of summing on both engines: exact integers, and doubles (exact below 2^53).
        float_sums = data.draw(st.booleans(), label="float_sums")
        # And both class keys on both engines: the grouped columns, or one BIGINT packing them.
        tuning.PACKED_CLASS_KEY = data.draw(st.booleans(), label="packed class key")
        # What a feasibility check counts besides the suppressed records: what each metric reads.
        read = sorted({METRICS[name].class_statistics for name in METRIC_NAMES})
        counted = data.draw(st.sampled_from(read), label="counted")
        evaluator = NodeEvaluator(session.adapter, prepared.fset, case.k, loss_weights=True, float_sums=float_sums,
                                  class_statistics=counted)
        assert evaluator.float_sums == float_sums  # tiny tables: far below 2^53
        all_nodes = oracle.nodes()
        nodes = data.draw(st.lists(st.sampled_from(all_nodes), min_size=1, max_size=6, unique=True), label="nodes")
        # And the checks one by one, or together (a grouping set per class key), in as
        # many statements as a cap of 3 on GROUPING's arguments (PostgreSQL's is 31) makes them.
        ahead: set = set()
        if data.draw(st.booleans(), label="batched checks"):
            tuning.BATCHED_CHECKS = True
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(evaluator_module, "GROUPING_ARGUMENTS", data.draw(st.sampled_from([3, 31])))
                before = session.adapter.statements
                evaluator.prefetch(nodes)
            ahead = set(evaluator._prefetched)
            batched = session.adapter.statements - before
            event(f"{len(ahead)} of {len(nodes)} checks batched")
            assert 2 * batched <= len(ahead) <= len(nodes)  # each statement checks two class keys or more
            assert evaluator.evaluated == len(ahead)
        for node in nodes:
            expected = oracle.evaluate(node)
            where = f"node {node}"
            # The feasibility check first (the code table, when there is one), then the metric's own query.
            before = session.adapter.statements
            check = evaluator.evaluate(node, for_metric=False)
            assert (session.adapter.statements == before) == (node in ahead), where  # a batched check runs no SQL
            assert evaluator.context(node, False)["table"] == (prepared.fset.codes_table or prepared.fset.table)
            assert check.suppressed_records == expected.suppressed, where
            want_counts = {"classes": len(expected.classes), "suppressed_classes": expected.suppressed_classes,
                           "dm_star": expected.values["dm_star"]}
            assert {name: getattr(check, name) for name in want_counts} == {
                name: value if name in counted else None for name, value in want_counts.items()}, where
            stats = evaluator.evaluate(node)
            assert stats.classes == len(expected.classes), where
            assert stats.suppressed_records == expected.suppressed, where
            assert stats.suppressed_classes == expected.suppressed_classes, where
            assert stats.dm_star == expected.values["dm_star"], where
            for name in METRIC_NAMES:
                metric = METRICS[name]()
                shown = metric.display(metric.value(node, stats, ctx), ctx)
                want = oracle.display(name, expected.values[name])
                assert close(shown, want), f"{where}: {name} is {shown!r}, oracle says {want!r}"


def test_doubles_are_used_only_where_every_sum_is_exact() -> None:
    """The bound behind float sums: N^2 (sum of squared class sizes) and each level's total Loss weight
    must stay below 2^53, the first integer whose successor a double cannot represent."""
    def fset(records: int, weight: int) -> FrequencySet:
        return FrequencySet("fs", records, 1, ((0, weight),), ((False, False),))

    assert exact_in_double(fset(94_906_265, 2**53 - 1))  # floor(sqrt(2^53)) records
    assert not exact_in_double(fset(94_906_266, 0))
    assert not exact_in_double(fset(10, 2**53))
    assert exact_in_double(fset(0, 0))


def test_the_class_key_is_packed_only_when_it_fits_a_bigint() -> None:
    """Mixed-radix digits of one more than each QI's largest code: unique per class while the product of the
    grouped QIs' radices is at most 2^63 (the largest key is one less); otherwise the columns are grouped."""
    from sqlanon.engines.postgres import PostgresAdapter

    adapter = PostgresAdapter("postgresql://x@localhost/x", "postgresql://x@localhost/x")

    def group_by(max_codes: tuple[int, ...], node: tuple[int, ...] = (0, 0, 0)) -> str:
        fset = FrequencySet("fs", 10, 10, ((0, 0),) * 3, ((False, True),) * 3, max_codes)  # level 1: one code
        return NodeEvaluator(adapter, fset, 2, loss_weights=False).sql(node)[0].split("GROUP BY")[1].split("\n")[0]

    assert group_by((6, 2, 3)).strip() == "((CAST(q0_0 AS BIGINT)) * 3 + q1_0) * 4 + q2_0"
    assert group_by((2**31 - 1, 2**31 - 1, 1)).startswith(" ((CAST(")  # 2^31 * 2^31 * 2 = 2^63 fits
    assert group_by((2**31 - 1, 2**31 - 1, 2)).strip() == "q0_0, q1_0, q2_0"  # would overflow
    assert group_by((2**31 - 1, 2**31 - 1, 2), node=(0, 0, 1)).startswith(" (CAST(")  # q2_1 is constant
    assert group_by(()).strip() == "q0_0, q1_0, q2_0"  # no maxima known


def test_levels_with_a_single_code_are_left_out_of_the_grouping(engine) -> None:
    """A level whose code is the same on every row (a top level; here also a level the data never varies on)
    splits no class, so the k-anonymity query does not group by it; the statistics stay the oracle's."""
    qis = list(QI_NAMES[:3])
    hierarchies = {
        qis[0]: {v: [v[0], "*"] for v in ("a1", "a2", "b1", "b2")},
        qis[1]: {v: ["*"] for v in ("x", "y")},
        qis[2]: {v: [v[:2], "*"] for v in ("ab1", "ab2")},  # level 1 is constant in the data
    }
    rows = [{"id": i, qis[0]: a, qis[1]: x, qis[2]: z, "note": None}
            for i, (a, x, z) in enumerate([("a1", "x", "ab1"), ("a2", "y", "ab2"), ("b1", "x", "ab1"),
                                           ("b2", "x", "ab2"), ("a1", "y", "ab1"), ("b1", "x", "ab2")])]
    case = text_case(qis, hierarchies, rows, k=2, suppression_limit=6)
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    with Session(case.config(engine, table)) as session:
        prepared = prepare(session)
        evaluator = NodeEvaluator(session.adapter, prepared.fset, case.k, loss_weights=True)
        left_out = 0
        for node in oracle.nodes():
            # The feasibility check; the Loss weights query too unless it looks weights up per code, which
            # needs every QI's code (PostgreSQL).
            check, _ = evaluator.sql(node, loss_weights=False)
            weights, _ = evaluator.sql(node)
            grouped = [f"q{i}_{level}" in check.split("GROUP BY")[1] for i, level in enumerate(node)]
            by_weights = [f"q{i}_{level}" in weights.split("GROUP BY")[1] for i, level in enumerate(node)]
            assert by_weights == ([True] * len(node) if evaluator.code_weights else grouped), node
            constant = [level == len(next(iter(hierarchies[q].values()))) or (i == 2 and level == 1)
                        for i, (q, level) in enumerate(zip(qis, node, strict=True))]
            assert grouped == [not c for c in constant] or (all(constant) and all(grouped)), node
            left_out += sum(not g for g in grouped)
            stats, expected = evaluator.evaluate(node), oracle.evaluate(node)
            assert (stats.classes, stats.suppressed_records, stats.dm_star) == (
                len(expected.classes), expected.suppressed, expected.values["dm_star"]), node
            metric = METRICS["loss"]()
            assert close(metric.display(metric.value(node, stats, prepared.ctx), prepared.ctx),
                         oracle.display("loss", expected.values["loss"])), node
        assert left_out > 0
        assert prepared.fset.distinct_codes is None  # Loss's bound does not read them: not counted
    with Session(case.config(engine, table, metric="dm_star")) as session:
        # DM*'s bound reads the distinct codes per level: counted in the data (b1 and b2 share level 1's b).
        assert prepare(session).fset.distinct_codes == ((4, 2, 1), (2, 1), (2, 1, 1))


@SLICING_ENGINES
def test_node_queries_assembled_per_grouping_are_the_template_rendered_whole(engine) -> None:
    """The evaluator renders a node query once per shape and its class key once per grouping, then fills in the
    levels (``NodeEvaluator._query``): for every node, checks and Loss weights queries, plain or in parts, with
    either class key, the text must be the template rendered whole for that node."""
    qis = list(QI_NAMES[:3])
    hierarchies = {
        qis[0]: {v: [v[0], "*"] for v in ("a1", "a2", "b1", "b2")},
        qis[1]: {v: ["*"] for v in ("x", "y")},
        qis[2]: {v: [v[:2], "*"] for v in ("ab1", "ab2", "cd1")},
    }
    rows = [{"id": i, qis[0]: a, qis[1]: x, qis[2]: z, "note": None}
            for i, (a, x, z) in enumerate([("a1", "x", "ab1"), ("a2", "y", "ab2"), ("b1", "x", "cd1"),
                                           ("b2", "x", "ab2"), ("a1", "y", "ab1"), ("b1", "x", "ab2")])]
    case = text_case(qis, hierarchies, rows, k=2, suppression_limit=1)
    table = fresh("src")
    case.create_table(engine, table)
    with sliced_everywhere(parts=2, max_share=1.0), Session(case.config(engine, table)) as session:
        prepared = prepare(session)
        assert prepared.fset.slicing
        groupings = set()
        for packed in (False, True):
            tuning_for(session.adapter).PACKED_CLASS_KEY = packed
            evaluator = NodeEvaluator(session.adapter, prepared.fset, case.k, loss_weights=True, class_statistics=(),
                                      max_suppressed=1)
            for node in case.oracle().nodes():
                for weights in (False, True):
                    table_read, sliced = evaluator._table(node, weights)
                    grouped = (True,) * len(node) if weights and evaluator.code_weights else evaluator._grouped(node)
                    groupings.add((grouped, sliced))
                    whole = session.adapter.render(evaluator.template(weights, sliced), **evaluator.context(
                        node, weights, grouped, sliced=sliced, table=table_read))
                    assert evaluator.sql(node, loss_weights=weights) == whole, (node, weights, packed)
        assert len({g for g, _ in groupings}) > 2 and {s for _, s in groupings} == {False, True}


def test_loss_weights_are_looked_up_per_code_unless_a_code_has_two(engine) -> None:
    """The Loss weights query looks up each suppressed code's weight (CODE_WEIGHTS, build_code_weights.sql.j2)
    when every code has one weight. An unmapped NULL sharing the top label with a single value costs 1 there and
    the value 0: that hierarchy keeps the per-row sums. Both give the oracle's Loss."""
    qis = list(QI_NAMES[:2])
    rows = [{"id": i, qis[0]: a, qis[1]: b, "note": None}
            for i, (a, b) in enumerate([("a1", "only"), ("a2", None), ("a1", "only"), ("b1", None), ("a2", "only")])]
    for single, two_weights in ((["only"], True), (["only", "other"], False)):
        hierarchies = {qis[0]: {v: [v[0], "*"] for v in ("a1", "a2", "b1")}, qis[1]: {v: ["*"] for v in single}}
        case = text_case(qis, hierarchies, rows, k=2, suppression_limit=5)
        table = fresh("src")
        case.create_table(engine, table)
        oracle = case.oracle()
        with Session(case.config(engine, table)) as session:
            tuning_for(session.adapter).CODE_WEIGHTS = True
            prepared = prepare(session)
            assert (prepared.fset.code_weights is None) == two_weights, single
            assert session.adapter.table_exists([prepared.fset.code_weights or f"{session.prefix}cw"]) != two_weights
            evaluator = NodeEvaluator(session.adapter, prepared.fset, case.k, loss_weights=True)
            metric = METRICS["loss"]()
            for node in oracle.nodes():
                stats, expected = evaluator.evaluate(node), oracle.evaluate(node)
                assert stats.suppressed_records == expected.suppressed, (single, node)
                assert close(metric.display(metric.value(node, stats, prepared.ctx), prepared.ctx),
                             oracle.display("loss", expected.values["loss"])), (single, node)


@SLICING_ENGINES
@settings(max_examples=25, **SETTINGS)
@given(case=cases(), parts=st.integers(2, 5), max_share=st.sampled_from([0.0, 0.5, 1.0]), rolled_up=st.booleans(),
       by_ranges=st.booleans())
def test_sliced_checks_match_the_oracle(engine, case: Case, parts: int, max_share: float, rolled_up: bool,
                                        by_ranges: bool) -> None:
    """A check in parts counts the oracle's suppressed records, or, when it stops early, fewer but more than the
    limit, and only for a node whose classes lie in single parts (and no rolled-up table serves). On PostgreSQL
    parts are read by their ranges of row positions or through an index on the part."""
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    if case.input_error_expected(oracle):
        return
    with (sliced_everywhere(parts, max_share, rolled_up, by_ranges),
          Session(case.config(engine, table)) as session):
        prepared = prepare(session)
        fset, limit = prepared.fset, prepared.ctx.max_suppressed
        event("sliced" if fset.slicing else "not sliced (no limit, or no QI of height 3)")
        if fset.slicing:
            event("parts read by their row positions" if fset.part_ranges else "parts read through an index")
            assert bool(fset.part_ranges) == (engine.name == "postgres" and by_ranges)
        evaluator = NodeEvaluator(session.adapter, fset, case.k, loss_weights=True, class_statistics=(),
                                  max_suppressed=limit)
        for node in oracle.nodes():
            check, expected = evaluator.evaluate(node, for_metric=False), oracle.evaluate(node).suppressed
            if check.partial:
                event("stopped early")
                assert limit < check.suppressed_records <= expected, node
                assert slicing.sliceable(node, fset.slicing) and rollup.serving(node, fset.rollups) is None, node
            else:
                assert check.suppressed_records == expected, node


@SLICING_ENGINES
def test_a_check_stops_at_the_part_that_exceeds_the_limit(engine) -> None:
    """Two parts by the first letter of qa (level 1 of 3): part 1 ('a', 4 unique rows, the larger slice) already
    suppresses more than the limit of 2, so the check of the bottom node stops there, short of b2 in part 2;
    the node above it reads both parts."""
    qis = list(QI_NAMES[:2])
    hierarchies = {qis[0]: {v: [v[0], "*"] for v in ("a1", "a2", "a3", "a4", "b1", "b2")},
                   qis[1]: {v: [v, "*"] for v in ("x", "y")}}
    rows = [{"id": i, qis[0]: a, qis[1]: "x", "note": None}
            for i, a in enumerate(["a1", "a2", "a3", "a4", "b1", "b1", "b2"])]
    case = text_case(qis, hierarchies, rows, k=2, suppression_limit=2)
    table = fresh("src")
    case.create_table(engine, table)
    with sliced_everywhere(2, 1.0), Session(case.config(engine, table)) as session:
        prepared = prepare(session)
        assert prepared.fset.slicing == ((0, 1),) and prepared.fset.parts == 2
        evaluator = NodeEvaluator(session.adapter, prepared.fset, case.k, loss_weights=True, class_statistics=(),
                                  max_suppressed=2)
        bottom = evaluator.evaluate((0, 0), for_metric=False)
        assert (bottom.suppressed_records, bottom.partial) == (4, True)
        above = evaluator.evaluate((1, 0), for_metric=False)
        assert (above.suppressed_records, above.partial) == (0, False)
        top = evaluator.evaluate((2, 0), for_metric=False)  # above the slicing level: one whole check
        assert (top.suppressed_records, top.partial) == (0, False)
        assert "RECURSIVE" not in evaluator.sql((2, 0), loss_weights=False, comments=False)[0]
        assert "RECURSIVE" in evaluator.sql((1, 0), loss_weights=False, comments=False)[0]
        assert evaluator.evaluate((0, 0)).suppressed_records == 5  # the Loss weights query counts them all


@SLICING_ENGINES
def test_the_code_table_is_made_when_a_node_no_rolled_up_table_serves_needs_it(engine) -> None:
    """Rolled up from the frequency set, the code table waits: nodes at or above a rolled-up table's levels
    read that table, and the bottom node's feasibility check makes the code table, once, with the oracle's
    counts (a query of the Loss weights summed per row reads the frequency set itself)."""
    qis = list(QI_NAMES[:2])
    hierarchies = {qis[0]: {f"a{i}": [f"a{i // 3}", "*"] for i in range(9)},
                   qis[1]: {f"b{j}": [f"b{j // 2}", "*"] for j in range(4)}}
    rows = [{"id": 0, qis[0]: f"a{i}", qis[1]: f"b{(i * j) % 4}", "note": None} for i in range(9) for j in range(5)]
    case = text_case(qis, hierarchies, rows, k=3, suppression_limit=4)
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    with pytest.MonkeyPatch.context() as mp:
        rolled_up_everywhere(mp)
        for tuning in (DuckDBNodeQueryTuning, PostgresNodeQueryTuning):
            mp.setattr(tuning, "CODE_TABLE", True)
            mp.setattr(tuning, "ROLLUPS", True)
        with Session(case.config(engine, table)) as session:
            fset = prepare(session).fset
            assert fset.rollups and fset.codes_pending is not None and fset.codes_table is not None
            evaluator = NodeEvaluator(session.adapter, fset, case.k, loss_weights=True, class_statistics=(),
                                      max_suppressed=4)
            for node in [(1, 1), (2, 1), (1, 0), (0, 1)]:
                assert rollup.serving(node, fset.rollups) is not None
                assert evaluator.evaluate(node).suppressed_records == oracle.evaluate(node).suppressed, node
            assert not fset.codes_pending.made and not session.adapter.table_exists((fset.codes_table,))
            check = evaluator.evaluate((0, 0), for_metric=False)  # a feasibility check reads the code table
            assert check.suppressed_records == oracle.evaluate((0, 0)).suppressed
            assert fset.codes_pending.made and session.adapter.table_exists((fset.codes_table,))
            replaced = dataclasses.replace(fset, sensitive=())  # the core's copy shares it: not made twice
            assert NodeEvaluator(session.adapter, replaced, case.k, loss_weights=False).evaluate(
                (0, 0)).suppressed_records == oracle.evaluate((0, 0)).suppressed


@SLICING_ENGINES
def test_parts_over_many_pages_are_read_whole(engine) -> None:
    """A code table of 5,000 rows in 4 parts (many pages each, on PostgreSQL read by their ranges of row
    positions): a sliced check that reads every part counts what the whole check counts, to the record (k=11
    suppresses the classes of ten below the top), and one under a low limit stops after a part."""
    qis = list(QI_NAMES[:2])
    hierarchies = {qis[0]: {f"a{i:02d}": [f"a{i // 10}", "*"] for i in range(100)},
                   qis[1]: {f"b{j:02d}": [f"b{j // 10}", "*"] for j in range(50)}}
    rows = [{"id": 0, qis[0]: f"a{i:02d}", qis[1]: f"b{j:02d}", "note": None} for i in range(100) for j in range(50)]
    rows += [dict(r) for r in rows[:4000:7]]  # some classes of eleven and more at level 1
    case = text_case(qis, hierarchies, rows, k=11, suppression_limit=100)
    table = fresh("src")
    case.create_table(engine, table)
    with sliced_everywhere(4, 0.5), Session(case.config(engine, table)) as session:
        prepared = prepare(session)
        fset = prepared.fset
        assert fset.slicing and fset.parts == 4 and bool(fset.part_ranges) == (engine.name == "postgres")

        def evaluator(fset: FrequencySet, limit: int) -> NodeEvaluator:
            return NodeEvaluator(session.adapter, fset, case.k, loss_weights=True, class_statistics=(),
                                 max_suppressed=limit)

        sliced, whole = evaluator(fset, len(rows)), evaluator(dataclasses.replace(fset, slicing=()), len(rows))
        counts = {}
        for node in itertools.product(range(3), range(3)):
            check = sliced.evaluate(node, for_metric=False)
            assert not check.partial
            counts[node] = check.suppressed_records
            assert counts[node] == whole.evaluate(node, for_metric=False).suppressed_records, node
        assert counts[0, 0] == len(rows) and 0 < counts[1, 0] < len(rows) and counts[1, 1] == 0
        bottom = evaluator(fset, 100).evaluate((0, 0), for_metric=False)
        assert bottom.partial and 100 < bottom.suppressed_records < len(rows)
