"""Microaggregation (``method: microaggregation``): MDAV in SQL against the plain-Python oracle
(``tests/oracle_microaggregation.py``), the CASC Census figures, NULLs, partitioned MDAV, the released table's
independent verification, and every error path."""

from __future__ import annotations

import csv
import json
import math
import secrets
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.config import parse_config
from tests.helpers import Engine, invoke, tampering, write_config
from tests.oracle_microaggregation import information_loss, mdav, standardize

CENSUS_COLUMNS = ["AFNLWGT", "AGI", "EMCONTRB", "FEDTAX", "PTOTVAL", "STATETAX", "TAXINC", "POTHVAL", "INTVAL",
                  "PEARNVAL", "FICA", "WSALVAL", "ERNVAL"]


def config(url: str, table: str, qis: list[str], k: int, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "method": "microaggregation",
        "source": {"url": url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace", "seed": 0.25},
        "attributes": {q: {"role": "quasi_identifier"} for q in qis},
        "other_columns": "insensitive",
        "privacy": {"k": k},
        "history": {"enabled": False},
    }
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key].update(value)
        else:
            data[key] = value
    return data


def anonymize(engine: Engine, tmp_path: Path, data: dict[str, Any], name: str = "c.yaml") -> Any:
    return sqlanon.anonymize(write_config(tmp_path / name, data))


# -- CASC Census -------------------------------------------------------------------------------------------


@pytest.fixture
def census(engine: Engine, shared_datasets: Path) -> Engine:
    with open(shared_datasets / "census" / "census.csv", newline="") as fh:
        rows = [[int(v) for v in row] for row in list(csv.reader(fh))[1:]]
    engine.create_table("census", {c: "BIGINT" for c in CENSUS_COLUMNS}, rows)
    return engine


@pytest.mark.parametrize(("k", "expected"), [(3, 5.692), (4, 7.495), (5, 9.088), (7, 11.598), (10, 14.156)])
def test_census_all_13_attributes(census: Engine, tmp_path: Path, k: int, expected: float) -> None:
    """MDAV on the 13 standardized attributes of the CASC Census (seed 004's data): IL as in the literature
    (5.69 / 9.09 / 14.16 for k = 3, 5, 10) and as the implementer's reading of seed 004 reproduces it."""
    result = anonymize(census, tmp_path, config(census.url, "census", CENSUS_COLUMNS, k))
    assert result.verified is True and result.method == "microaggregation"
    assert abs(result.metrics["information_loss"] - expected) <= 0.01, result.metrics
    assert abs(result.metrics["sst"] - 1080 * 13) < 1e-6  # z-scores: SST = n * d
    assert k <= result.smallest_group and result.largest_group <= 2 * k - 1


@pytest.mark.parametrize(("k", "paper"), [(3, 5.58), (4, 7.52), (5, 9.21), (7, 11.53)])
def test_census_first_12_attributes_match_seed_004(census: Engine, tmp_path: Path, k: int, paper: float) -> None:
    """Seed 004 Table 2's "k-anonymity" column used 12 of the 13 attributes; without ERNVAL, MDAV is within 0.05."""
    result = anonymize(census, tmp_path, config(census.url, "census", CENSUS_COLUMNS[:12], k))
    assert abs(result.metrics["information_loss"] - paper) <= 0.05, result.metrics


# -- the oracle --------------------------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, list[list[float]]]:
    k = draw(st.integers(2, 4))
    d = draw(st.integers(1, 3))
    n = draw(st.integers(k, 8 * k))
    values = st.integers(-1000, 1000).map(lambda v: v / 8)
    rows = draw(st.lists(st.lists(values, min_size=d, max_size=d), min_size=n, max_size=n,
                         unique_by=lambda r: tuple(r)))
    return k, rows


def _released(engine: Engine, table: str, d: int) -> dict[int, tuple[float, ...]]:
    cols = ", ".join(f"q{j}" for j in range(d))
    return {int(r[0]): tuple(r[1:]) for r in engine.execute(f'SELECT id, {cols} FROM "{table}"')}


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=tables())
def test_sql_mdav_equals_the_oracle(engine: Engine, tmp_path_factory: pytest.TempPathFactory,
                                    case: tuple[int, list[list[float]]]) -> None:
    """Same groups as the plain-Python MDAV (rows ordered as sqlanon numbers them: by the quasi-identifiers),
    every group of k..2k-1 records, each value replaced by its group's mean, the same IL."""
    k, rows = case
    d = len(rows[0])
    ordered = sorted(rows)  # row ids follow the quasi-identifiers
    z = standardize(ordered)
    expected = mdav(z, k)
    assume(not expected.near_tie)
    tmp = tmp_path_factory.mktemp("ma")
    table = f"t{secrets.token_hex(4)}"
    engine.create_table(table, {"id": "INTEGER", **{f"q{j}": "DOUBLE PRECISION" for j in range(d)}},
                        [[i, *r] for i, r in enumerate(rows)])
    result = anonymize(engine, tmp, config(engine.url, table, [f"q{j}" for j in range(d)], k))
    assert result.verified is True
    released = _released(engine, f"{table}_out", d)
    index = {tuple(r): i for i, r in enumerate(rows)}
    for group in expected.groups:
        assert k <= len(group) <= 2 * k - 1 or len(rows) < 2 * k
        means = [sum(ordered[i][j] for i in group) / len(group) for j in range(d)]
        for i in group:
            got = released[index[tuple(ordered[i])]]
            assert all(math.isclose(g, m, rel_tol=1e-9, abs_tol=1e-9) for g, m in zip(got, means, strict=True))
    il = information_loss(z, expected.groups)[2]
    assert math.isclose(result.metrics["information_loss"], il, rel_tol=1e-7, abs_tol=1e-7)
    assert result.groups == len(expected.groups)


@pytest.mark.spark
@pytest.mark.parametrize("scale", ["range", "none"])
def test_other_scales_equal_the_oracle(engine: Engine, tmp_path: Path, scale: str) -> None:
    rows = [[(i * 37) % 101 / 3, (i * 53) % 97 * 10.0] for i in range(40)]
    engine.create_table("s", {"id": "INTEGER", "q0": "DOUBLE PRECISION", "q1": "DOUBLE PRECISION"},
                        [[i, *r] for i, r in enumerate(rows)])
    result = anonymize(engine, tmp_path, config(engine.url, "s", ["q0", "q1"], 3,
                                                microaggregation={"standardize": scale}))
    z = standardize(sorted(rows), scale)
    expected = mdav(z, 3)
    assert not expected.near_tie
    assert math.isclose(result.metrics["information_loss"], information_loss(z, expected.groups)[2],
                        rel_tol=1e-9)
    assert result.details["standardize"] == scale


# -- NULLs, partitions, rounding ------------------------------------------------------------------------------


def _with_nulls(engine: Engine, null_rows: int) -> None:
    rows = [[i, float(i % 17), float((i * 7) % 23)] for i in range(30)]
    rows += [[100 + i, float(i), None] for i in range(null_rows)]
    engine.create_table("n", {"id": "INTEGER", "q0": "DOUBLE PRECISION", "q1": "DOUBLE PRECISION"}, rows)


@pytest.mark.spark
def test_null_quasi_identifiers_group_among_themselves(engine: Engine, tmp_path: Path) -> None:
    """Extended matching: records NULL in the same quasi-identifiers form their own groups and keep NULL."""
    _with_nulls(engine, 7)
    result = anonymize(engine, tmp_path, config(engine.url, "n", ["q0", "q1"], 3))
    assert result.verified is True and result.suppressed_rows == 0 and result.parts == 2
    out = engine.execute('SELECT id, q0, q1 FROM "n_out"')
    assert len(out) == 37
    assert {r[0] for r in out if r[2] is None} == set(range(100, 107))


def test_a_null_pattern_of_fewer_than_k_records_is_suppressed_within_the_limit(engine: Engine,
                                                                                 tmp_path: Path) -> None:
    _with_nulls(engine, 2)
    refused = invoke("anonymize", write_config(tmp_path / "a.yaml", config(engine.url, "n", ["q0", "q1"], 3)))
    assert refused.exit_code == 3, refused.output
    assert "2 records have a pattern of NULL quasi-identifiers" in refused.stderr
    assert "suppression limit is 0" in refused.stderr
    result = anonymize(engine, tmp_path, config(engine.url, "n", ["q0", "q1"], 3, privacy={"suppression_limit": 2}))
    assert result.verified is True and result.suppressed_rows == 2
    assert len(engine.execute('SELECT * FROM "n_out"')) == 30
    basic = anonymize(engine, tmp_path, config(engine.url, "n", ["q0", "q1"], 3,
                                               privacy={"null_handling": "basic"}), "b.yaml")
    assert basic.removed_for_null == 2 and basic.suppressed_rows == 0 and basic.rows_considered == 30


def test_partitioned_mdav_groups_every_record_with_a_bounded_number_of_rounds(engine: Engine,
                                                                              tmp_path: Path) -> None:
    rows = [[i, float((i * 7919) % 1009), float((i * 104729) % 997), float(i % 13)] for i in range(600)]
    engine.create_table("p", {"id": "INTEGER", "a": "DOUBLE PRECISION", "b": "DOUBLE PRECISION",
                              "c": "DOUBLE PRECISION"}, rows)
    exact = anonymize(engine, tmp_path, config(engine.url, "p", ["a", "b", "c"], 4))
    parts_of_60 = {"partition_size": 60, "part_size": 60}
    parted = anonymize(engine, tmp_path, config(engine.url, "p", ["a", "b", "c"], 4,
                                                microaggregation={**parts_of_60, "global_rounds": 0}), "p.yaml")
    assert parted.verified is True and parted.parts >= 8 and parted.strategy == "mdav (partitioned)"
    assert 4 <= parted.smallest_group and parted.largest_group <= 7
    assert parted.rounds < exact.rounds / 5
    # Median splits cost some loss, not much.
    assert exact.metrics["information_loss"] <= parted.metrics["information_loss"] <= \
        1.5 * exact.metrics["information_loss"]
    # Global rounds first: exact MDAV's first 10 rounds over the whole table, then the parts.
    first = anonymize(engine, tmp_path, config(engine.url, "p", ["a", "b", "c"], 4,
                                               microaggregation={**parts_of_60, "global_rounds": 10}), "g.yaml")
    assert first.verified is True and 4 <= first.smallest_group and first.largest_group <= 7
    assert first.rounds > 10 and first.parts >= 8
    ordered = sorted(r[1:] for r in rows)
    z = standardize(ordered)
    expected = mdav(z, 4)
    if not expected.near_tie:  # the 20 groups of those rounds are exact MDAV's first 20
        released = {int(r[0]): tuple(r[1:]) for r in engine.execute('SELECT id, a, b, c FROM "p_out"')}
        index = {tuple(r[1:]): r[0] for r in rows}
        for group in expected.groups[:20]:
            means = [sum(ordered[i][j] for i in group) / 4 for j in range(3)]
            for i in group:
                got = released[index[tuple(ordered[i])]]
                assert all(math.isclose(g, m, rel_tol=1e-9) for g, m in zip(got, means, strict=True))


def test_round_releases_rounded_means(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("r", {"id": "INTEGER", "q0": "INTEGER"}, [[i, i * 3 + (i % 2)] for i in range(10)])
    data = config(engine.url, "r", ["q0"], 3)
    data["attributes"]["q0"]["round"] = 1
    result = anonymize(engine, tmp_path, data)
    assert result.verified is True
    values = [r[0] for r in engine.execute('SELECT q0 FROM "r_out"')]
    assert all(round(v, 1) == v for v in values)
    assert len(set(values)) == result.groups


# -- the independent verification ---------------------------------------------------------------------------


def test_a_released_table_that_breaks_k_is_not_verified(engine: Engine, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The verifier reads the written table only: one record moved out of its group leaves a class of one."""
    engine.create_table("v", {"id": "INTEGER", "q0": "DOUBLE PRECISION"}, [[i, float(i)] for i in range(12)])
    with tampering(monkeypatch, "UPDATE {out} SET q0 = -1 WHERE id = 0"):
        result = anonymize(engine, tmp_path, config(engine.url, "v", ["q0"], 3))
    assert result.verified is False
    assert result.verification["classes_below_k"] >= 1 and result.verification["smallest_class"] == 1
    assert anonymize(engine, tmp_path, config(engine.url, "v", ["q0"], 3), "ok.yaml").verified is True


def test_cli_summary_json_and_report(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("j", {"id": "INTEGER", "q0": "DOUBLE PRECISION", "q1": "BIGINT"},
                        [[i, i / 7, (i * 13) % 31] for i in range(20)])
    path = write_config(tmp_path / "c.yaml", config(engine.url, "j", ["q0", "q1"], 4))
    text = invoke("anonymize", path)
    assert text.exit_code == 0, text.output
    assert "groups: 4 of 4..7 records" in text.stdout or "groups: " in text.stdout
    assert "information loss: IL=" in text.stdout and "verified: smallest class" in text.stdout
    as_json = invoke("anonymize", path, "--json", "--report", tmp_path / "r.json", "--report", tmp_path / "r.html")
    assert as_json.exit_code == 0, as_json.output
    out = json.loads(as_json.stdout)
    assert out["method"] == "microaggregation" and out["verified"] is True
    assert set(out["metrics"]) == {"sse", "sst", "information_loss", "modification_rate"}
    assert set(out["modification_rate_by_attribute"]) == {"q0", "q1"}
    assert set(out["information_loss_by_attribute"]) == {"q0", "q1"}
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["method"] == "microaggregation" and report["microaggregation"]["groups"] == out["groups"]
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "microaggregation" in html.lower() and "information loss" in html.lower()


# -- errors ---------------------------------------------------------------------------------------------------


def _small(engine: Engine) -> None:
    engine.create_table("e", {"id": "INTEGER", "q0": "DOUBLE PRECISION", "name": "VARCHAR"},
                        [[i, float(i), f"n{i}"] for i in range(10)])


def expect_exit(args: list[Any], code: int, *fragments: str) -> None:
    result = invoke(*args)
    assert result.exit_code == code, result.output
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in {result.stderr}"


@pytest.mark.spark
def test_a_text_quasi_identifier_is_refused_with_a_hint(engine: Engine, tmp_path: Path) -> None:
    _small(engine)
    data = config(engine.url, "e", ["q0", "name"], 3)
    path = write_config(tmp_path / "c.yaml", data)
    expect_exit(["anonymize", path], 2, str(path), "attributes.name", "needs a numeric column", "generalization")
    expect_exit(["validate", path], 2, "attributes.name")


@pytest.mark.parametrize(("change", "fragments"), [
    ({"attributes": {"q0": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5]}}}}},
     ("attributes.q0", "uses no hierarchy")),
    ({"output": {"suppressed_rows": "mask"}}, ("output.suppressed_rows", "keeps numeric")),
    ({"microaggregation": {"standardize": "log"}}, ("microaggregation.standardize",)),
    ({"microaggregation": {"partition": 5}}, ("microaggregation.partition", "unknown key")),
    ({"microaggregation": {"partition_size": 500, "part_size": 800}}, ("microaggregation.part_size",
                                                                        "exceeds partition_size")),
    ({"method": "clustering"}, ("method: unknown method 'clustering'", "generalization, microaggregation")),
])
def test_config_errors(engine: Engine, tmp_path: Path, change: dict[str, Any], fragments: tuple[str, ...]) -> None:
    _small(engine)
    data = config(engine.url, "e", ["q0"], 3, **change)
    path = write_config(tmp_path / "c.yaml", data)
    expect_exit(["anonymize", path], 2, str(path), *fragments)


def test_generalization_rejects_a_quasi_identifier_without_hierarchy_and_names_the_other_method(
        tmp_path: Path) -> None:
    data = config("duckdb:///:memory:", "e", ["q0"], 3)
    del data["method"]
    path = write_config(tmp_path / "c.yaml", data)
    expect_exit(["validate", path], 2, "attributes.q0: a quasi_identifier needs a hierarchy",
                "method: microaggregation")


def test_apply_and_save_transformation_are_refused(engine: Engine, tmp_path: Path) -> None:
    """Microaggregation has no reusable plan: its groups depend on the data itself."""
    _small(engine)
    path = write_config(tmp_path / "c.yaml", config(engine.url, "e", ["q0"], 3))
    expect_exit(["anonymize", path, "--save-transformation", tmp_path / "t.json"], 2, "--save-transformation",
                "no reusable plan")
    assert not (tmp_path / "t.json").exists()
    report = tmp_path / "r.json"
    assert invoke("anonymize", path, "--report", report).exit_code == 0
    expect_exit(["apply", "--transformation", report, "--db", engine.url, "--source", "e", "--output", "e2"], 2,
                "method microaggregation has no reusable plan")
    assert "e2" not in engine.tables()


@pytest.mark.spark
def test_validate_reports_the_method(engine: Engine, tmp_path: Path) -> None:
    _small(engine)
    result = invoke("validate", write_config(tmp_path / "c.yaml", config(engine.url, "e", ["q0"], 3)), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["method"] == "microaggregation" and out["rows"] == 10 and out["standardize"] == "z_score"


def test_config_parses_without_a_database() -> None:
    cfg = parse_config(config("duckdb:///:memory:", "e", ["q0"], 3))
    assert cfg.method == "microaggregation" and cfg.microaggregation.partition_size == 10_000
    assert cfg.microaggregation.part_size == 1_000 and cfg.microaggregation.global_rounds == 100
