"""What a hierarchy coded in Python tells of its levels, read instead of the coded table: the Loss weight columns
the frequency set does not store (``FrequencySet.fixed_weights``) and the modified codes of the modification
rate's statement (``encoding.modified_codes``).

Where every row of a hierarchy's level has the same Loss weight (a level-0 value is its own label: 0; a single top
label: N - 1), the frequency set stores no w{i}_{j} column, and every reader takes that weight times the row's count
(build_frequency_set.sql.j2). These tests build the frequency set both ways on random tables and hierarchies
(``tests/strategies.py``) and require the same weight sums and the same Loss weights of every node's suppressed
classes, with and without privacy models (whose queries read the weights per row, prepared on DuckDB with the
level as a parameter), and check that the columns are really left out.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqlanon.criteria import criteria_from_config
from sqlanon.evaluation import FrequencySet, NodeEvaluator
from sqlanon.hierarchy import encoding
from sqlanon.hierarchy.encoding import fixed_weights
from sqlanon.session import Session
from tests.helpers import prepare
from tests.strategies import SETTINGS, Case, ModelCase, cases, fresh, model_cases

pytestmark = pytest.mark.spark


def test_fixed_weights_are_those_every_row_shares() -> None:
    # value, match key, then per level: label, code, weight (encode's rows)
    rows = [("a", "Va", "a", 1, 0, "ab", 1, 1, "*", 1, 2),
            ("b", "Vb", "b", 2, 0, "ab", 1, 1, "*", 1, 2),
            (None, "N", None, 3, 0, None, 2, 0, "*", 1, 2)]
    assert fixed_weights(rows, 3) == (0, None, 2)
    assert fixed_weights(rows[:2], 3) == (0, 1, 2)
    assert fixed_weights([], 2) == (None, None)


def _compare(adapter, prepared, k: int, criteria, nodes, float_sums: bool, basic: bool) -> None:
    """The frequency set as prepared (fixed weights left out) against the same one with every weight column
    stored: the same weight sums, and the same Loss weights of every node's suppressed classes."""
    fset = prepared.fset
    fixed = [h.fixed_weights for h in prepared.hierarchies]
    # Every hierarchy of these cases is coded in Python, and its level 0 weighs 0 throughout.
    assert all(f and f[0] == 0 for f in fixed)
    assert fset.fixed_weights == tuple(fixed)
    columns = set(adapter.column_names((fset.table,)))
    for i, levels in enumerate(fixed):
        for j, weight in enumerate(levels):
            assert (f"w{i}_{j}" in columns) == (weight is None), (i, j, weight)
    whole = FrequencySet.build(
        adapter, table=fresh("fs_whole"), source=prepared.source, basic=basic, sensitive=fset.sensitive,
        population=fset.population,
        hierarchies=[dataclasses.replace(h, fixed_weights=()) for h in prepared.hierarchies],
    )
    assert all(w is None for levels in whole.fixed_weights for w in levels)
    assert {f"w{i}_{j}" for i, h in enumerate(prepared.hierarchies) for j in range(h.height)} <= set(
        adapter.column_names((whole.table,)))
    assert whole.weight_sums == fset.weight_sums
    for node in nodes:
        got = NodeEvaluator(adapter, fset, k, True, criteria, float_sums=float_sums).evaluate(node)
        want = NodeEvaluator(adapter, whole, k, True, criteria, float_sums=float_sums).evaluate(node)
        assert got.suppressed_weights is not None
        assert (got.suppressed_records, got.suppressed_weights) == (want.suppressed_records, want.suppressed_weights)


@settings(max_examples=15, **SETTINGS)
@given(case=cases(), data=st.data())
def test_weights_left_out_are_computed_as_stored(engine, case: Case, data: st.DataObject) -> None:
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    if case.input_error_expected(oracle):
        return
    with Session(case.config(engine, table)) as session:
        nodes = data.draw(st.lists(st.sampled_from(oracle.nodes()), min_size=1, max_size=5, unique=True),
                          label="nodes")
        _compare(session.adapter, prepare(session), case.k, (), nodes, data.draw(st.booleans(), label="float_sums"),
                 case.null_handling == "basic")


@settings(max_examples=10, **SETTINGS)
@given(case=model_cases(), data=st.data())
def test_weights_left_out_are_computed_as_stored_with_models(engine, case: ModelCase, data: st.DataObject) -> None:
    """Model queries sum the weights per row (judge.sql.j2), on DuckDB as one prepared statement whose levels are
    parameters choosing among every level's column or fixed weight."""
    case.create_tables(engine)
    if case.input_error_expected():
        return
    cfg = case.config(engine)
    with Session(cfg) as session:
        nodes = data.draw(st.lists(st.sampled_from(case.oracle().nodes()), min_size=1, max_size=4, unique=True),
                          label="nodes")
        _compare(session.adapter, prepare(session), cfg.privacy.k, criteria_from_config(cfg), nodes, False,
                 case.null_handling == "basic")


@settings(max_examples=15, **SETTINGS)
@given(case=cases(), listed=st.sampled_from([0, 1, 3, 16]))
def test_modified_codes_are_those_the_coded_table_gives(engine, case: Case, listed: int) -> None:
    """Each level's listed codes (modified, or negated: not modified) are exactly the level-0 codes that
    measure_modification.sql.j2 otherwise looks up in the coded table; a level with a longer list has none."""
    table = fresh("src")
    case.create_table(engine, table)
    oracle = case.oracle()
    if case.input_error_expected(oracle):
        return
    with Session(case.config(engine, table)) as session, pytest.MonkeyPatch.context() as mp:
        mp.setattr(encoding, "MODIFIED_CODES_LISTED", listed)
        prepared = prepare(session)
        adapter = session.adapter
        for h in prepared.hierarchies:
            coded = adapter.quote_identifier(h.coded_table)
            every = {int(r[0]) for r in adapter.execute(f"SELECT g0 FROM {coded}")}
            for j, entry in enumerate(h.modified_codes):
                level = adapter.quote_identifier(f"l{j}")
                modified = {int(r[0]) for r in adapter.execute(
                    f"SELECT g0 FROM {coded} WHERE {level} IS DISTINCT FROM value")}
                shortest = min(len(modified), len(every - modified))
                if entry is None:
                    assert shortest > listed, (h.attribute, j)
                    continue
                negated, codes = entry
                assert len(codes) <= listed and (every - set(codes) if negated else set(codes)) == modified, (
                    h.attribute, j, entry, modified)
