"""The table a generalization run writes, checked with plain SQL against the plain-Python oracle
(``tests/oracle.py``): k-anonymous, exactly the oracle's classes, suppressed rows removed or masked, the other
columns copied.

Small random tables (``tests/strategies.py``: 2-3 quasi-identifiers, 0-40 rows, random NULLs) with small random but
consistent inline hierarchies, on DuckDB and PostgreSQL. The engine fixture is function-scoped while hypothesis
runs many examples per call, so every example creates its own uniquely named tables.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.errors import InputError, NoSolutionError
from tests.helpers import make_people, people_config, rolled_up_everywhere, write_config
from tests.oracle import METRIC_NAMES
from tests.strategies import SETTINGS, STRATEGY_NAMES, Case, cases, fresh

pytestmark = pytest.mark.spark


@settings(max_examples=20, **SETTINGS)
@given(
    case=cases(with_limits=True),
    metric=st.sampled_from(METRIC_NAMES),
    strategy=st.sampled_from(STRATEGY_NAMES),
    mode=st.sampled_from(["remove", "mask"]),
)
def test_written_table_is_k_anonymous(engine, case: Case, metric: str, strategy: str, mode: str) -> None:
    table, out = fresh("src"), fresh("out")
    case.create_table(engine, table)
    oracle = case.oracle()
    cfg = case.config(engine, table, metric=metric, strategy=strategy, output=out, suppressed_rows=mode)
    if case.input_error_expected(oracle):
        event("input error")
        with pytest.raises(InputError):
            sqlanon.anonymize(cfg)
        return
    optimum = oracle.optimum(metric)
    if optimum is None:
        event("no solution")
        with pytest.raises(NoSolutionError):
            sqlanon.anonymize(cfg)
        return
    if mode == "mask":  # a stale table of the same name is replaced (if_exists: replace)
        engine.execute(f'CREATE TABLE "{out}" (stale INTEGER)')
    result = sqlanon.anonymize(cfg)
    node = optimum[0]
    expected = oracle.evaluate(node)
    event(f"{mode}: suppressed rows {'> 0' if expected.suppressed else '= 0'}")
    assert result.transformation == dict(zip(case.qis, node, strict=True))
    assert result.verified is True
    assert result.suppressed_rows == expected.suppressed

    # Independent check with plain SQL on the written table.
    q = case.qis
    cols = ", ".join(f'"{c}"' for c in q)
    columns = [name for name, _ in engine.columns(out)]
    assert columns == [*q, "note"]  # the identifier is dropped, the rest kept in order
    groups = engine.execute(f'SELECT {cols}, count(*) FROM "{out}" GROUP BY {cols}')
    star = ("*",) * len(q)
    classes = {tuple(g[:-1]): int(g[-1]) for g in groups}
    for key, size in classes.items():
        if not (mode == "mask" and key == star):
            assert size >= case.k, f"class {key} has {size} < k={case.k} rows"
    total = sum(classes.values())
    considered = oracle.n
    if mode == "remove":
        assert total == considered - expected.suppressed
    else:
        assert total == considered
    assert expected.suppressed <= oracle.max_suppressed

    # The classes are exactly the oracle's generalization of the considered records.
    want: dict[tuple, int] = {}
    for key, size in expected.classes.items():
        if size >= case.k:
            want[key] = want.get(key, 0) + size
        elif mode == "mask":
            want[star] = want.get(star, 0) + size
    assert classes == want
    assert result.output_rows == total
    assert not any(t.startswith("sqlanon_") for t in engine.tables())  # no leftover work tables

    # Non-quasi-identifier columns are copied unchanged (all considered rows in mask mode).
    if mode == "mask":
        notes = sorted((r[0] or "") for r in engine.execute(f'SELECT note FROM "{out}"'))
        kept_rows = [r for r in case.rows if case.null_handling == "extended" or all(r[c] is not None for c in q)]
        assert notes == sorted((r["note"] or "") for r in kept_rows)


@pytest.mark.parametrize("metric", METRIC_NAMES)
def test_a_write_reads_the_code_table_even_when_rolled_up_tables_served_the_search(
        engine, metric: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Where rolled-up tables serve the k-anonymity queries (PostgreSQL), the code table is made at its first
    use; the write's failing classes are such a use even when no node query read it (a regression: the write
    failed with 'relation ..._fsc does not exist' after a search that never needed it)."""
    rolled_up_everywhere(monkeypatch)
    make_people(engine)
    data = people_config(engine.url, k=3)
    data["search"] = {"metric": metric}
    data["output"]["if_exists"] = "replace"
    result = sqlanon.anonymize(write_config(tmp_path / "c.yaml", data))
    assert result.verified, result.verification
