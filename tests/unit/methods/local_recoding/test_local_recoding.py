"""Local recoding (``method: local_recoding``): KACA in SQL against the plain-Python oracle
(``tests/oracle_kaca.py``) in both merging modes on both engines, the released table (k-anonymous, every value
generalized by its release), WHD and modification rate, suppression, the report, and every error path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.config import parse_config
from sqlanon.errors import InputError, NoSolutionError
from tests.bad_input import base_config, config_file, expect_error
from tests.helpers import Engine, invoke
from tests.oracle import OracleHierarchy
from tests.oracle_kaca import NoRelease, Unsure, kaca
from tests.strategies import QIS, SETTINGS, Case, ModelCase, cases, fresh, model_cases, text_case
from tests.unit.output.test_verification import tampering


def lr_config(case: Case, engine: Engine, table: str, **settings_: Any) -> Any:
    attributes: dict[str, Any] = {"id": {"role": "insensitive"}, "note": {"role": "insensitive"}}
    for q in case.qis:
        attributes[q] = {"role": "quasi_identifier", "hierarchy": {"inline": case.hierarchies[q]}}
    return parse_config({
        "method": "local_recoding",
        "source": {"url": engine.url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace"},
        "attributes": attributes,
        "privacy": {"k": case.k, "suppression_limit": 0, "null_handling": case.null_handling},
        "local_recoding": settings_,
        "history": {"enabled": False},
    })


def _order(item: tuple[tuple, int]) -> tuple:
    return item[1], tuple((v is None, v or "") for v in item[0])


def released(engine: Engine, table: str, qis: list[str]) -> list[tuple[tuple, int]]:
    cols = ", ".join(f'CAST("{q}" AS VARCHAR)' for q in qis)
    return sorted(((tuple(row[1:]), int(row[0])) for row in engine.execute(f'SELECT id, {cols} FROM "{table}"')),
                  key=_order)


def oracle_of(case: Case, **settings_: Any):
    hierarchies = [OracleHierarchy(case.hierarchies[q]) for q in case.qis]
    rows = [(i, r) for i, r in enumerate(case.rows)
            if case.null_handling == "extended" or all(r[q] is not None for q in case.qis)]
    records = [tuple(None if r[q] is None else str(r[q]) for q in case.qis) for _, r in rows]
    result = kaca(records, hierarchies, case.k, **settings_)
    # Record index -> the row's id.
    return result, sorted(((labels, rows[index][0]) for labels, index in result.released), key=_order)


#: Pinned: three classes of 1, 2 and 2 records where b's nearest is a (1/2 per cell), not c (the top); and equal
#: distances that the class ids decide.
PINNED = text_case(["qa", "qb"],
                   {"qa": {"a": ["ab", "*"], "b": ["ab", "*"], "c": ["c", "*"]},
                    "qb": {"x": ["*"], "y": ["*"]}},
                   [{"qa": a, "qb": b, "note": None} for a, b in
                    (("a", "x"), ("a", "x"), ("b", "x"), ("c", "y"), ("c", "y"), ("b", "y"), ("a", "y"))],
                   k=2, suppression_limit=0)


@settings(max_examples=40, **SETTINGS)
@given(case=cases(), merging=st.sampled_from(["one_at_a_time", "batched"]),
       choice=st.sampled_from(["deterministic", "random"]), seed=st.integers(0, 3),
       exact_classes=st.sampled_from([5000, 1, 4]))
@example(case=PINNED, merging="one_at_a_time", choice="deterministic", seed=0, exact_classes=5000)
@example(case=PINNED, merging="batched", choice="deterministic", seed=0, exact_classes=5000)
@example(case=PINNED, merging="batched", choice="deterministic", seed=0, exact_classes=1)
def test_kaca_in_sql_equals_the_oracle(engine: Engine, case: Case, merging: str, choice: str, seed: int,
                                       exact_classes: int) -> None:
    """Both merging modes, and batched rounds in blocks (exact_classes below the table's classes)."""
    oracle = case.oracle()
    if case.input_error_expected(oracle):
        return
    table = fresh("lr")
    case.create_table(engine, table)
    chosen = {"merging": merging, "choice": choice, "seed": seed, "exact_classes": exact_classes}
    result = sqlanon.anonymize(lr_config(case, engine, table, **chosen))
    expected, rows = oracle_of(case, **chosen)
    assert result.verified, result.verification
    assert released(engine, f"{table}_out", case.qis) == rows
    assert result.details["classes"] == expected.classes
    assert result.metrics["whd"] == pytest.approx(float(expected.whd), abs=1e-12)
    assert result.metrics["modification_rate"] == pytest.approx(float(expected.modification_rate), abs=1e-12)


@settings(max_examples=15, **SETTINGS)
@given(case=cases(qi_counts=(2, 4)))
def test_every_released_value_generalizes_its_original_and_classes_hold_k(engine: Engine, case: Case) -> None:
    """Independently of the oracle: each released label is the original's label at some level of its hierarchy,
    and every released combination has at least k rows."""
    oracle = case.oracle()
    if case.input_error_expected(oracle):
        return
    table = fresh("lr")
    case.create_table(engine, table)
    sqlanon.anonymize(lr_config(case, engine, table))
    by_id = dict(enumerate(case.rows))
    hierarchies = {q: OracleHierarchy(case.hierarchies[q]) for q in case.qis}
    counts: dict[tuple, int] = {}
    for labels, row_id in released(engine, f"{table}_out", case.qis):
        counts[labels] = counts.get(labels, 0) + 1
        for q, label in zip(case.qis, labels, strict=True):
            value = by_id[row_id][q]
            value = None if value is None else str(value)
            assert label in {hierarchies[q].label(value, lv) for lv in range(hierarchies[q].height)}, (q, value)
    assert all(size >= case.k for size in counts.values()), counts


@settings(max_examples=30, **SETTINGS)
@given(case=model_cases(), merging=st.sampled_from(["one_at_a_time", "batched"]),
       exact_classes=st.sampled_from([5000, 1]))
def test_classes_merge_until_every_privacy_model_holds(engine: Engine, case: ModelCase, merging: str,
                                                      exact_classes: int) -> None:
    """Privacy models on sensitive attributes judged by the same SQL as generalization's: a class failing one
    merges on, as a class below k does; the oracle judges with tests/oracle_models.py's verdicts. The written
    table's classes are re-checked (models_verified)."""
    if case.delta is not None or case.input_error_expected():
        return
    models = case.oracle()
    hierarchies = [OracleHierarchy(case.hierarchies[q]) for q in QIS]
    table = case.create_tables(engine)
    # Python mode: a JSON dump would write a hierarchy's NULL row (key None) as the value "None".
    data = case.config(engine).model_dump(exclude_none=True)
    data.pop("search")
    data.update(method="local_recoding", local_recoding={"merging": merging, "exact_classes": exact_classes})
    data["attributes"]["id"] = {"role": "insensitive"}
    data["privacy"]["suppression_limit"] = 0
    cfg = parse_config(data)
    considered = [r for r in case.rows if case.null_handling == "extended" or all(r[q] is not None for q in QIS)]
    if any(len({h.label(None if r[q] is None else str(r[q]), h.height - 1) for r in considered}) > 1
           for q, h in zip(QIS, hierarchies, strict=True)):
        # Classes may merge up to the top, so the records' values need one top value (a NULL mapped to a top
        # of its own counts); the method counts them in the frequency set, not in the hierarchy's rows.
        with pytest.raises(InputError, match="top"):
            sqlanon.anonymize(cfg)
        return
    try:
        expected = kaca(models.records, hierarchies, case.k, merging=merging, exact_classes=exact_classes,
                        verdict=lambda indices: models.class_verdict((), indices))
    except Unsure:
        event("a verdict on a model's boundary: not compared")
        return
    except NoRelease:
        expected = None
    if expected is None:
        event("no release")
        with pytest.raises(NoSolutionError):
            sqlanon.anonymize(cfg)
        return
    result = sqlanon.anonymize(cfg)
    assert result.verified and result.verification.get("models_verified"), result.verification
    assert result.details["classes"] == expected.classes
    ids = [i for i, r in enumerate(case.rows)
           if case.null_handling == "extended" or all(r[q] is not None for q in QIS)]
    rows = sorted(((labels, ids[index]) for labels, index in expected.released), key=_order)
    assert released(engine, f"{table}_out", list(QIS)) == rows


def test_the_written_table_is_held_to_the_models(both: Engine, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A written class that breaks a model is reported: the verification judges what was written."""
    data = lr_base(both.url, k=2)
    data["attributes"]["name"] = {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 2}}]}
    path = config_file(tmp_path, data)
    assert sqlanon.anonymize(path).verification["models_verified"]
    with tampering(monkeypatch, "UPDATE {out} SET name = 'n0'"):
        result = sqlanon.anonymize(path)
    assert not result.verified and result.verification["models_verified"] is False
    assert result.verification["classes_failing_models"] >= 1


@pytest.mark.spark
def test_height_weights_change_the_distance(engine: Engine) -> None:
    """b joins the a's at 'ab' under both weights, but the released WHD follows them: one step up a hierarchy of
    four levels is 1/3 of the way with uniform weights, (1/3) / (1/3 + 1/2 + 1) = 2/11 with height weights."""
    case = text_case(["qa"], {"qa": {"a": ["ab", "ab2", "*"], "b": ["ab", "ab2", "*"], "c": ["c", "c2", "*"]}},
                     [{"qa": v, "note": None} for v in "aabcc"], k=2, suppression_limit=0)
    for weights, expected in (("uniform", 3 * (1 / 3) / 5), ("height", 3 * (2 / 11) / 5)):
        table = fresh("lr")
        case.create_table(engine, table)
        result = sqlanon.anonymize(lr_config(case, engine, table, whd={"weights": weights}))
        assert result.metrics["whd"] == pytest.approx(expected)
        oracle, _ = oracle_of(case, weights=weights)
        assert result.metrics["whd"] == pytest.approx(float(oracle.whd))


def test_suppression_takes_the_costliest_small_classes_within_the_limit(both: Engine, tmp_path: Path) -> None:
    data = lr_base(both.url, k=4, suppression_limit=3)
    result = invoke("anonymize", config_file(tmp_path, data), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["verified"] and 0 < out["suppressed_rows"] <= 3
    assert out["suppressed_classes"] >= 1
    assert both.execute('SELECT count(*) FROM "t_out"')[0][0] == 20 - out["suppressed_rows"]
    # Masked instead of removed: the same rows, every quasi-identifier '*', counted against the limit.
    data["output"]["suppressed_rows"] = "mask"
    masked = json.loads(invoke("anonymize", config_file(tmp_path, data), "--json").stdout)
    assert masked["verified"] and masked["suppressed_rows"] == out["suppressed_rows"]
    stars = both.execute("""SELECT count(*) FROM "t_out" WHERE age = '*' AND sex = '*' AND code = '*'""")[0][0]
    assert stars >= out["suppressed_rows"]


def lr_base(url: str, **privacy: Any) -> dict[str, Any]:
    data = base_config(url, **privacy)
    data["method"] = "local_recoding"
    data["output"]["if_exists"] = "replace"
    return data


def test_cli_summary_json_and_reports(both: Engine, tmp_path: Path) -> None:
    path = config_file(tmp_path, lr_base(both.url, k=3))
    result = invoke("anonymize", path, "--report", tmp_path / "r.html", "--report", tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    assert "strategy kaca (batched)" in result.stdout and "records by level:" in result.stdout
    assert "modification rate" in result.stdout and "verified" in result.stdout
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Local recoding" in html and "Records per level" in html
    document = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    section = document["local_recoding"]
    assert set(section["records_by_level"]) == {"age", "sex", "code"}
    assert sum(section["records_by_level"]["age"].values()) == 20
    valid = invoke("validate", path, "--json")
    assert valid.exit_code == 0, valid.output
    assert json.loads(valid.stdout)["classes"] == 20


def test_apply_is_refused(db: Engine, tmp_path: Path) -> None:
    path = config_file(tmp_path, lr_base(db.url, k=3))
    report = tmp_path / "r.json"
    assert invoke("anonymize", path, "--report", report).exit_code == 0
    expect_error(["apply", "--transformation", report, "--source", "t", "--output", "t2", "--db", db.url], 2,
                 "local_recoding")


@pytest.mark.parametrize(("change", "fragments"), [
    (lambda d: d["attributes"]["age"].pop("hierarchy"), ("attributes.age", "needs a hierarchy")),
    (lambda d: d["attributes"]["age"].update(max_level=1), ("attributes.age.max_level", "not used")),
    (lambda d: d["privacy"].update(delta_presence={"population_table": "t", "delta_min": 0, "delta_max": 1}),
     ("privacy.delta_presence", "not available with method local_recoding")),
    (lambda d: d.update(search={"metric": "whd"}), ("search",)),
    (lambda d: d.update(local_recoding={"merging": "fast"}), ("local_recoding.merging", "fast")),
    (lambda d: d.update(local_recoding={"whd": {"weights": "log"}}), ("local_recoding.whd.weights",)),
])
def test_config_errors(db: Engine, tmp_path: Path, change, fragments: tuple[str, ...]) -> None:
    data = lr_base(db.url, k=3)
    change(data)
    expect_error(["validate", config_file(tmp_path, data)], 2, *fragments)
    assert "t_out" not in db.tables()


def test_a_hierarchy_with_two_tops_is_refused(both: Engine, tmp_path: Path) -> None:
    data = lr_base(both.url, k=3)
    data["attributes"]["code"]["hierarchy"] = {"inline": {"A": ["AB", "X"], "B": ["AB", "X"], "C": ["C", "Y"]}}
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "single top value")
    assert "t_out" not in both.tables()


@pytest.mark.parametrize("engine", ["duckdb", "postgres"], indirect=True)  # the README counts Spark's instances
def test_a_null_with_a_top_of_its_own_is_refused_only_when_the_data_holds_null(both: Engine, tmp_path: Path) -> None:
    """The single top is asked of the records' values (the frequency set), not of the hierarchy's rows: a NULL
    mapped to a second root is harmless until a NULL is to be released."""
    data = lr_base(both.url, k=3)
    data["attributes"]["code"]["hierarchy"] = {
        "inline": {"A": ["AB", "*"], "B": ["AB", "*"], "C": ["C", "*"], None: ["none", "none"]}}
    assert sqlanon.anonymize(parse_config(data)).verified
    both.execute('CREATE TABLE "t_null" AS SELECT * FROM "t"')
    both.execute('UPDATE "t_null" SET "code" = NULL WHERE "id" = (SELECT min("id") FROM "t_null")')
    data["source"]["table"] = "t_null"
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "2 different values",
                 "single top value")


def test_more_k_than_records_is_an_input_error(both: Engine, tmp_path: Path) -> None:
    expect_error(["anonymize", config_file(tmp_path, lr_base(both.url, k=21))], 2, "privacy.k", "21")
