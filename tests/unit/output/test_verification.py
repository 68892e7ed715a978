"""The independent verification must be able to fail: it is handed written tables that break k, the
suppression limit (masked rows included) or a privacy model, on DuckDB and PostgreSQL, and must report them.

1. ``verify_output`` directly on tables built by hand: a class of k-1 records, a class of exactly k, masked
   rows (every quasi-identifier '*') within and beyond the limit, fewer masked rows than k.
2. every privacy model's re-check of the written table (``_verify_models``): a run whose written table is
   tampered with right after the write (before the verification reads it) so that one class violates the
   model must come back unverified, and ``sqlanon check --sensitive`` measures the same violation.
3. ``sqlanon check``: ``--masked-as-suppressed`` / ``--suppression-limit``, and an empty table (exit 2).
4. where a run's verification reads the written table: inside the publishing transaction, before the rename,
   where the engine publishes so; an error there publishes nothing.
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import sqlanon
from sqlanon import run
from sqlanon.config import parse_config
from sqlanon.engines import adapter_for_url
from sqlanon.errors import EngineError
from sqlanon.output import verify_output
from sqlanon.output.writer import RENAME_IN_TRANSACTION, publication_strategy
from tests.helpers import Engine, invoke, quote, tampering

#: The whole module runs on Spark too: every verifier is handed a table that breaks its claim there as well.
pytestmark = pytest.mark.spark

_names = itertools.count()


def fresh(prefix: str) -> str:
    return f"{prefix}_{next(_names)}_{secrets.token_hex(3)}"


@contextmanager
def connected(engine: Engine) -> Iterator[Any]:
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        yield adapter
    finally:
        adapter.close()


def written(engine: Engine, classes: Sequence[tuple[tuple[str | None, str | None], int]]) -> str:
    """A 'written' table with two quasi-identifiers: each (key, size) is one class of ``size`` rows."""
    name = fresh("written")
    rows = [(a, b, f"r{i}") for i, ((a, b), size) in enumerate(classes) for _ in range(size)]
    engine.create_table(name, {"qa": "VARCHAR", "qb": "VARCHAR", "note": "VARCHAR"}, rows)
    return name


def verify(engine: Engine, table: str, *, k: int, considered: int, max_suppressed: int, mask: bool):
    with connected(engine) as adapter:
        return verify_output(adapter, table=(table,), qis=["qa", "qb"], k=k, considered=considered,
                             max_suppressed=max_suppressed, mask=mask)


# -- 1. verify_output on hand-made tables ---------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 5])
@pytest.mark.parametrize("mask", [False, True])
def test_a_class_of_k_minus_one_records_is_unverified(engine: Engine, k: int, mask: bool) -> None:
    table = written(engine, [(("a", "x"), k), (("b", "x"), k - 1), (("c", "y"), k + 3)])
    n = 3 * k + 2
    result = verify(engine, table, k=k, considered=n, max_suppressed=n, mask=mask)
    assert result.verified is False
    assert result.classes_below_k == 1
    assert result.smallest_class == k - 1
    assert f"1 classes smaller than k={k}" in result.reason
    assert result.suppressed_rows == 0 and result.rows == n


@pytest.mark.parametrize("k", [1, 2, 5])
@pytest.mark.parametrize("mask", [False, True])
def test_a_class_of_exactly_k_records_passes(engine: Engine, k: int, mask: bool) -> None:
    table = written(engine, [(("a", "x"), k), (("b", None), k + 1), ((None, None), k + 2)])
    n = 3 * k + 3
    result = verify(engine, table, k=k, considered=n, max_suppressed=0, mask=mask)
    assert result.verified is True, result.reason
    assert (result.classes_below_k, result.smallest_class, result.classes) == (0, k, 3)
    assert result.suppressed_rows == 0 and result.masked_rows == 0
    assert result.size_histogram == [[k, 1], [k + 1, 1], [k + 2, 1]]


def test_remove_mode_counts_the_missing_rows_against_the_limit(engine: Engine) -> None:
    table = written(engine, [(("a", "x"), 3), (("b", "x"), 3)])
    assert verify(engine, table, k=3, considered=8, max_suppressed=2, mask=False).verified is True
    beyond = verify(engine, table, k=3, considered=9, max_suppressed=2, mask=False)
    assert beyond.verified is False and beyond.suppressed_rows == 3
    assert "3 rows suppressed, limit 2" in beyond.reason
    more_rows_than_considered = verify(engine, table, k=3, considered=5, max_suppressed=2, mask=False)
    assert more_rows_than_considered.verified is False


def test_remove_mode_holds_an_all_star_class_to_k(engine: Engine) -> None:
    """With `remove`, suppressed rows are gone: an all-'*' class is an ordinary class, held to k."""
    table = written(engine, [(("a", "x"), 3), (("*", "*"), 2)])
    result = verify(engine, table, k=3, considered=5, max_suppressed=5, mask=False)
    assert result.verified is False and result.classes_below_k == 1 and result.smallest_class == 2
    assert result.masked_rows == 2 and result.masked_rows_as == "class"


@pytest.mark.parametrize("masked", [2, 7])  # fewer than k, and at least k (the case: not counted before)
def test_masked_rows_are_suppressed_and_held_to_the_limit(engine: Engine, masked: int) -> None:
    k = 5
    table = written(engine, [(("a", "x"), 5), (("b", "y"), 6), (("*", "*"), masked)])
    n = 11 + masked
    within = verify(engine, table, k=k, considered=n, max_suppressed=masked, mask=True)
    assert within.verified is True, within.reason
    assert within.suppressed_rows == masked == within.masked_rows
    assert within.masked_rows_as == "suppressed"
    assert within.smallest_class == 5 and within.classes_below_k == 0  # the masked rows are no class
    beyond = verify(engine, table, k=k, considered=n, max_suppressed=masked - 1, mask=True)
    assert beyond.verified is False
    assert beyond.suppressed_rows == masked
    assert f"{masked} masked rows (every quasi-identifier '*') exceed the suppression limit {masked - 1}" \
        in beyond.reason


def test_mask_mode_still_fails_a_small_class_beside_the_masked_rows(engine: Engine) -> None:
    table = written(engine, [(("a", "x"), 5), (("b", "y"), 4), (("*", "*"), 3)])
    result = verify(engine, table, k=5, considered=12, max_suppressed=12, mask=True)
    assert result.verified is False and result.classes_below_k == 1 and result.smallest_class == 4


def test_mask_mode_needs_every_considered_row(engine: Engine) -> None:
    table = written(engine, [(("a", "x"), 5), (("*", "*"), 1)])
    result = verify(engine, table, k=5, considered=7, max_suppressed=7, mask=True)
    assert result.verified is False and "6 rows written, 7 expected" in result.reason


def test_only_rows_with_every_quasi_identifier_star_are_masked(engine: Engine) -> None:
    """('*', 'x'), ('*', NULL) and (NULL, NULL) are classes like any other: held to k, not suppressed."""
    table = written(engine, [(("a", "x"), 5), (("*", "x"), 2), (("*", None), 5), ((None, None), 5)])
    result = verify(engine, table, k=5, considered=17, max_suppressed=17, mask=True)
    assert result.verified is False and result.classes_below_k == 1 and result.smallest_class == 2
    assert result.masked_rows == 0 and result.suppressed_rows == 0


def test_a_table_of_only_star_rows_is_the_top_class(engine: Engine) -> None:
    """Every row all-'*' is the top generalization: one class held to k, nothing counted as suppressed."""
    table = written(engine, [(("*", "*"), 6)])
    top = verify(engine, table, k=5, considered=6, max_suppressed=0, mask=True)
    assert top.verified is True, top.reason
    assert (top.suppressed_rows, top.masked_rows, top.masked_rows_as, top.smallest_class) == (0, 6, "top class", 6)
    small = verify(engine, table, k=7, considered=6, max_suppressed=6, mask=True)
    assert small.verified is False and small.classes_below_k == 1


# -- 2. every privacy model's re-check of the written table ----------------------------------------------

LETTERS = ("x", "y", "z", "w", "v")
SENSITIVE_HIERARCHY = {"x": ["A", "*"], "y": ["A", "*"], "z": ["B", "*"], "w": ["B", "*"], "v": ["B", "*"]}

#: model config, the attribute it is on, and the UPDATE that makes class qa='a' violate it. Each class of the
#: source holds every letter and every number twice: all models hold at the bottom node with nothing
#: suppressed; after the tampering class 'a' has one letter / one number.
MODELS: dict[str, tuple[dict[str, Any], str, str]] = {
    "distinct_l_diversity": ({"distinct_l_diversity": {"l": 3}}, "s", "s = 'x'"),
    "entropy_l_diversity": ({"entropy_l_diversity": {"l": 3}}, "s", "s = 'x'"),
    "recursive_cl_diversity": ({"recursive_cl_diversity": {"c": 2, "l": 3}}, "s", "s = 'x'"),
    "t_closeness_equal": ({"t_closeness": {"t": 0.3, "distance": "equal"}}, "s", "s = 'x'"),
    "t_closeness_ordered": ({"t_closeness": {"t": 0.2, "distance": "ordered"}}, "n", "n = 10"),
    "t_closeness_hierarchical": ({"t_closeness": {"t": 0.1, "distance": "hierarchical"}}, "s", "s = 'x'"),
    "p_sensitivity": ({"p_sensitivity": {"p": 3}}, "s", "s = 'x'"),
    "alpha_k_anonymity": ({"alpha_k_anonymity": {"alpha": 0.5}}, "s", "s = 'x'"),
    "k_e_anonymity": ({"k_e_anonymity": {"e": 20}}, "n", "n = 10"),
}


def make_source(engine: Engine) -> str:
    table = fresh("src")
    rows = [(i, qa, LETTERS[j % 5], 10 * (j % 5 + 1)) for i, (qa, j) in
            enumerate((qa, j) for qa in ("a", "b") for j in range(10))]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "s": "VARCHAR", "n": "INTEGER"}, rows)
    return table


def model_config(engine: Engine, source: str, models: dict[str, list], *, mode: str = "remove",
                 limit: float = 0.0, delta: dict[str, Any] | None = None):
    attributes: dict[str, Any] = {
        "id": {"role": "identifier"},
        "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {"a": ["*"], "b": ["*"]}}},
    }
    for column in ("s", "n"):
        spec: dict[str, Any] = {"role": "sensitive", "models": models.get(column, [])} if column in models else {
            "role": "insensitive"}
        if any("t_closeness" in m and m["t_closeness"]["distance"] == "hierarchical" for m in models.get(column, [])):
            spec["hierarchy"] = {"inline": SENSITIVE_HIERARCHY}
        attributes[column] = spec
    privacy: dict[str, Any] = {"k": 2, "suppression_limit": limit}
    if delta is not None:
        privacy["delta_presence"] = delta
    return parse_config({
        "source": {"url": engine.url, "table": source},
        "output": {"table": f"{source}_out", "if_exists": "replace", "suppressed_rows": mode},
        "attributes": attributes,
        "privacy": privacy,
        "search": {"metric": "loss", "strategy": "flash"},
        "history": {"enabled": False},
    })


@pytest.mark.parametrize("mode", ["remove", "mask"])
@pytest.mark.parametrize("model", sorted(MODELS))
def test_a_written_class_violating_a_model_is_reported(engine: Engine, monkeypatch: pytest.MonkeyPatch,
                                                       model: str, mode: str) -> None:
    spec, column, change = MODELS[model]
    source = make_source(engine)
    # A generous limit: before, mask mode accepted failing classes as long as their records fit in it.
    cfg = model_config(engine, source, {column: [spec]}, mode=mode, limit=0.5)
    honest = sqlanon.anonymize(cfg)
    assert honest.transformation == {"qa": 0} and honest.suppressed_rows == 0
    assert honest.verified is True and honest.verification["models_verified"] is True

    with tampering(monkeypatch, "UPDATE {out} SET " + change + " WHERE qa = 'a'"):
        result = sqlanon.anonymize(cfg)
    assert result.verification["models_verified"] is False, (model, result.verification)
    assert result.verification["classes_failing_models"] == 1
    assert result.verified is False and result.status == "unverified"
    # k and the limit still hold: only the model re-check can have caught it.
    assert result.verification["classes_below_k"] == 0 and result.verification["reason"] == "ok"

    # `sqlanon check --sensitive` measures the same violation on the written table (its t values against the
    # written table's own distribution: x or 10 is 12/20 of it now).
    measures = sqlanon.check(engine.url, f"{source}_out", ["qa"], k=2, sensitive=[column])
    m = measures.sensitive[column]
    if column == "s":
        assert m["distinct_l"] == m["p"] == m["recursive_l"] == 1 and m["alpha"] == 1.0
        assert m["entropy_l"] == 1.0 and m["t_equal"] == pytest.approx(0.4)
    else:
        assert m["e"] == 0 and m["t_ordered"] == pytest.approx(0.25)


def test_delta_presence_re_check_reports_a_written_class_above_delta_max(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Population: every source row twice (delta 1/2 per class). Moving four rows of class b into class a
    (still k-anonymous, same row count) gives a delta of 14/20 > 0.6."""
    source = make_source(engine)
    population = fresh("pop")
    rows = engine.execute(f'SELECT qa FROM {quote(source)}')
    engine.create_table(population, {"qa": "VARCHAR"}, [r for r in rows for _ in range(2)])
    delta = {"population_table": population, "delta_min": 0.0, "delta_max": 0.6}
    cfg = model_config(engine, source, {}, delta=delta)
    honest = sqlanon.anonymize(cfg)
    assert honest.transformation == {"qa": 0} and honest.verified is True

    with tampering(monkeypatch, "UPDATE {out} SET qa = 'a' WHERE qa = 'b' AND n IN (10, 20)"):
        result = sqlanon.anonymize(cfg)
    assert result.verification["models_verified"] is False
    assert result.verification["classes_failing_models"] == 1
    assert result.verified is False and result.verification["reason"] == "ok"
    presence = sqlanon.check(engine.url, f"{source}_out", ["qa"], population=population).delta_presence
    assert presence["delta_max"] == pytest.approx(0.7) and presence["delta_min"] == pytest.approx(0.3)


def test_masked_rows_beyond_the_limit_make_a_run_unverified(engine: Engine,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Mask mode, end to end: rows masked after the write (beyond the limit of 2) are counted and refused."""
    source = fresh("src")
    rows = [(i, "a" if i < 6 else "b", f"z{i % 3}") for i in range(12)]
    engine.create_table(source, {"id": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR"}, rows)
    cfg = parse_config({
        "source": {"url": engine.url, "table": source},
        "output": {"table": f"{source}_out", "if_exists": "replace", "suppressed_rows": "mask"},
        "attributes": {
            "id": {"role": "identifier"},
            "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {"a": ["*"], "b": ["*"]}}},
            "qb": {"role": "quasi_identifier", "hierarchy": {"inline": {"z0": ["*"], "z1": ["*"], "z2": ["*"]}}},
        },
        "privacy": {"k": 2, "suppression_limit": 2},
        "history": {"enabled": False},
    })
    honest = sqlanon.anonymize(cfg)
    assert honest.transformation == {"qa": 0, "qb": 0} and honest.verified is True
    assert honest.verification["masked_rows"] == 0 and honest.verification["masked_rows_as"] == "suppressed"
    with tampering(monkeypatch, "UPDATE {out} SET qa = '*', qb = '*' WHERE qa = 'a' AND qb IN ('z0', 'z1')"):
        result = sqlanon.anonymize(cfg)
    assert result.verified is False
    assert result.verification["suppressed_rows"] == result.verification["masked_rows"] == 4
    assert "4 masked rows (every quasi-identifier '*') exceed the suppression limit 2" in \
        result.verification["reason"]


def test_masked_rows_of_a_run_are_its_suppressed_rows(engine: Engine, tmp_path: Path) -> None:
    """Mask mode with fewer masked rows than k: verified, the masked rows are the run's suppressed rows, and
    `check --k` fails the table unless the masked rows are treated as suppressed (then within the limit)."""
    source = fresh("src")
    rows = [(i, f"a{i % 4}" if i < 18 else "a4") for i in range(20)]  # a0..a3: 5 or 4 rows; a4: 2 rows
    engine.create_table(source, {"id": "INTEGER", "qa": "VARCHAR"}, rows)
    hierarchy = {f"a{i}": [f"g{i // 2}", "*"] for i in range(5)}
    cfg = parse_config({
        "source": {"url": engine.url, "table": source},
        "output": {"table": f"{source}_out", "if_exists": "replace", "suppressed_rows": "mask"},
        "attributes": {"id": {"role": "identifier"},
                       "qa": {"role": "quasi_identifier", "hierarchy": {"inline": hierarchy}}},
        "privacy": {"k": 4, "suppression_limit": 0.1},
        "history": {"enabled": False},
    })
    report = tmp_path / "run.html"
    result = sqlanon.anonymize(cfg, report=report)
    assert result.transformation == {"qa": 0} and result.suppressed_rows == 2
    assert result.verified is True
    v = result.verification
    assert (v["masked_rows"], v["suppressed_rows"], v["masked_rows_as"]) == (2, 2, "suppressed")
    # The HTML report says how the verification treated the masked rows.
    html = report.read_text(encoding="utf-8")
    assert "rows with every quasi-identifier &#39;*&#39; <b>2</b>" in html or \
        "rows with every quasi-identifier '*' <b>2</b>" in html, html[:2000]
    assert "(verified as: suppressed)" in html

    out = f"{source}_out"
    plain = invoke("check", "--db", engine.url, "--table", out, "--qi", "qa", "--k", "4")
    assert plain.exit_code == 3 and "NOT k-anonymous" in plain.stdout
    treated = invoke("check", "--db", engine.url, "--table", out, "--qi", "qa", "--k", "4",
                     "--masked-as-suppressed", "--suppression-limit", "0.1")
    assert treated.exit_code == 0, treated.output
    assert "masked rows (every quasi-identifier '*'): 2, treated as suppressed (not in the classes) <= limit 2" \
        in treated.stdout
    assert "-> k-anonymous" in treated.stdout


# -- 3. sqlanon check -------------------------------------------------------------------------------------


def check_json(engine: Engine, *args: Any, code: int = 0) -> dict[str, Any]:
    result = invoke("check", "--db", engine.url, *args, "--json")
    assert result.exit_code == code, result.output
    return json.loads(result.stdout.strip())


def test_check_masked_as_suppressed(engine: Engine) -> None:
    table = written(engine, [(("a", "x"), 5), (("b", "y"), 6), (("*", "*"), 3), (("*", "y"), 5)])
    base = ["--table", table, "--qi", "qa,qb", "--k", "5"]
    plain = check_json(engine, *base, code=3)
    assert plain["classes"] == 4 and plain["smallest_class"] == 3 and plain["classes_below_k"] == 1
    assert "masked_rows" not in plain  # the report of before, without the option

    treated = check_json(engine, *base, "--masked-as-suppressed")
    assert treated["rows"] == 19 and treated["masked_rows"] == 3
    assert (treated["classes"], treated["smallest_class"], treated["largest_class"]) == (3, 5, 6)
    assert treated["classes_below_k"] == 0 and treated["records_below_k"] == 0 and treated["k_anonymous"] is True
    assert treated["suppression_limit"] is None and treated["within_suppression_limit"] is None

    within = check_json(engine, *base, "--masked-as-suppressed", "--suppression-limit", "3")
    assert within["suppression_limit"] == 3 and within["within_suppression_limit"] is True
    beyond = check_json(engine, *base, "--masked-as-suppressed", "--suppression-limit", "2", code=3)
    assert beyond["k_anonymous"] is True and beyond["within_suppression_limit"] is False
    # a fraction of the rows, floored: 0.15 x 19 = 2.85 -> 2
    floored = check_json(engine, *base, "--masked-as-suppressed", "--suppression-limit", "0.15", code=3)
    assert floored["suppression_limit"] == 2
    text = invoke("check", "--db", engine.url, *base, "--masked-as-suppressed", "--suppression-limit", "2")
    assert text.exit_code == 3 and "> the limit 2 -> TOO MANY SUPPRESSED" in text.stdout


def test_check_suppression_limit_errors(engine: Engine) -> None:
    table = written(engine, [(("a", "x"), 5)])
    base = ["check", "--db", engine.url, "--table", table, "--qi", "qa,qb", "--k", "5"]
    alone = invoke(*base, "--suppression-limit", "3")
    assert alone.exit_code == 2 and "--suppression-limit" in alone.stderr and "--masked-as-suppressed" in alone.stderr
    for bad in ("-1", "1.5", "lots"):
        result = invoke(*base, "--masked-as-suppressed", "--suppression-limit", bad)
        assert result.exit_code == 2 and "--suppression-limit" in result.stderr, bad


@pytest.mark.parametrize("extra", [[], ["--k", "5"], ["--k", "5", "--masked-as-suppressed"], ["--sensitive", "s"]])
def test_check_on_an_empty_table_is_an_input_error(engine: Engine, extra: list[str]) -> None:
    engine.create_table("nothing", {"qa": "VARCHAR", "s": "VARCHAR"}, [])
    result = invoke("check", "--db", engine.url, "--table", "nothing", "--qi", "qa", *extra)
    assert result.exit_code == 2, result.output
    assert "nothing" in result.stderr and "empty" in result.stderr
    assert "k-anonymous" not in result.stdout
    as_json = invoke("check", "--db", engine.url, "--table", "nothing", "--qi", "qa", *extra, "--json")
    assert as_json.exit_code == 2 and json.loads(as_json.stdout)["status"] == "invalid_input"


def test_check_only_masked_rows(engine: Engine) -> None:
    """Every row masked: no class is left; the rows are all suppressed (and k-anonymity holds vacuously)."""
    table = written(engine, [(("*", "*"), 4)])
    report = check_json(engine, "--table", table, "--qi", "qa,qb", "--k", "5", "--masked-as-suppressed")
    assert report["classes"] == 0 and report["masked_rows"] == 4 and report["smallest_class"] is None
    assert report["k_anonymous"] is True


# -- 4. where the verification reads the written table ----------------------------------------------------------


def private_tables(engine: Engine) -> list[tuple]:
    """Tables of the writer's private names that another session sees (none once a run is over)."""
    return engine.execute("SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'sqlanon_tmp_%'")


def test_the_verification_reads_the_new_table_before_it_is_published(engine: Engine,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Published by a rename in a transaction, the table is verified under its private name inside that
    transaction, before the old one is dropped: no other session sees it yet, and the old output is still
    there (PostgreSQL then reads rows its own transaction wrote, without setting their hint bits:
    ``output/writer.py``). Other strategies verify the published table."""
    source = make_source(engine)
    cfg = model_config(engine, source, {})
    assert sqlanon.anonymize(cfg).verified is True  # the old output, which the second run replaces
    seen: list[tuple[tuple[str, ...], str, bool, list[tuple] | None]] = []
    original = run._verify

    def spy(adapter: Any, method: Any, release: Any, table: tuple[str, ...]) -> Any:
        strategy = publication_strategy(adapter)
        old_output = adapter.table_exists((*table[:-1], f"{source}_out"))  # as the run's transaction sees it
        outside = None
        if strategy == RENAME_IN_TRANSACTION:  # another session: it sees committed tables only
            outside = engine.execute("SELECT table_name FROM information_schema.tables WHERE table_name IN (?, ?) "
                                     "ORDER BY table_name", [table[-1], f"{source}_out"])
        seen.append((table, strategy, old_output, outside))
        return original(adapter, method, release, table)

    monkeypatch.setattr(run, "_verify", spy)
    result = sqlanon.anonymize(cfg)
    assert result.verified is True and result.output_rows == 20
    [(table, strategy, old_output, outside)] = seen
    if strategy == RENAME_IN_TRANSACTION:
        assert table[-1].startswith("sqlanon_tmp_")
        assert old_output, "the old output was dropped before the verification"
        assert outside == [(f"{source}_out",)]
        assert private_tables(engine) == []
    else:
        assert table[-1] == f"{source}_out"


def test_a_verification_that_fails_with_an_error_publishes_nothing(engine: Engine,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """An error while verifying inside the publishing transaction rolls the write back: the old output stays,
    row for row, and no private table is left."""
    with connected(engine) as adapter:
        if publication_strategy(adapter) != RENAME_IN_TRANSACTION:
            pytest.skip("this engine publishes before it verifies (output/writer.py)")
    source = make_source(engine)
    cfg = model_config(engine, source, {})
    engine.execute(f"CREATE TABLE {quote(source + '_out')} AS SELECT 'old' AS marker")

    def broken(adapter: Any, method: Any, release: Any, table: tuple[str, ...]) -> Any:
        assert adapter.table_exists(table)
        raise EngineError("connection lost while verifying")

    monkeypatch.setattr(run, "_verify", broken)
    with pytest.raises(EngineError, match="connection lost while verifying"):
        sqlanon.anonymize(cfg)
    assert engine.execute(f"SELECT * FROM {quote(source + '_out')}") == [("old",)]
    assert private_tables(engine) == []
