"""Bad inputs: each gives the right exit code and a message naming what and where, never a traceback.

Exit codes: 2 invalid config or input, 3 no feasible node, 1 unexpected error (an unreachable database).
Credentials in database URLs never appear in any output.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import Engine, invoke, write_config

PASSWORD = "SECRETPW"
#: A closed port on loopback: the connection is refused at once.
UNREACHABLE = f"postgresql+psycopg://u:{PASSWORD}@127.0.0.1:1/db"




def expect_error(args: list[Any], code: int, *fragments: str) -> str:
    """Run the command as text and as --json; both fail with ``code`` and say every fragment."""
    result = invoke(*args)
    assert result.exit_code == code, f"exit {result.exit_code}, expected {code}:\n{result.output}"
    assert "Traceback" not in result.output
    assert result.stdout == "", f"an error must not print a report on stdout:\n{result.stdout}"
    assert result.stderr.startswith("sqlanon: error: "), result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in the message:\n{result.stderr}"
    if "--json" not in args and args[0] in ("anonymize", "validate", "check"):
        as_json = invoke(*args, "--json")
        assert as_json.exit_code == code
        assert "Traceback" not in as_json.output
        text = as_json.stdout.strip()
        assert "\n" not in text, f"not exactly one JSON object:\n{as_json.stdout}"
        report = json.loads(text)
        assert report["exit_code"] == code
        assert report["status"] == {2: "invalid_input", 3: "no_solution"}.get(code, "error")
        for fragment in fragments:
            assert fragment in report["error"]
    return result.stderr


def rows() -> list[tuple]:
    """20 rows: sex F/M, code in A/B/C, age 20..39."""
    return [(i, 20 + i, "F" if i % 2 else "M", "ABC"[i % 3], f"n{i}") for i in range(20)]


COLUMNS = {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "code": "VARCHAR", "name": "VARCHAR"}


def base_config(url: str, **privacy: Any) -> dict[str, Any]:
    return {
        "source": {"url": url, "table": "t"},
        "output": {"table": "t_out"},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "code": {"role": "quasi_identifier",
                     "hierarchy": {"inline": {"A": ["AB", "*"], "B": ["AB", "*"], "C": ["C", "*"]}}},
            "name": {"role": "ignore"},
        },
        "privacy": {"k": 2, "suppression_limit": 0, **privacy},
    }


@pytest.fixture
def db(duckdb_engine: Engine) -> Engine:
    duckdb_engine.create_table("t", COLUMNS, rows())
    return duckdb_engine


@pytest.fixture
def both(engine: Engine) -> Engine:
    engine.create_table("t", COLUMNS, rows())
    return engine


def config_file(tmp_path: Path, data: dict[str, Any], name: str = "c.yaml") -> Path:
    return write_config(tmp_path / name, data)


def test_the_base_config_is_valid(both: Engine, tmp_path: Path) -> None:
    """The bad inputs below are each one change away from this working config."""
    result = invoke("anonymize", config_file(tmp_path, base_config(both.url)))
    assert result.exit_code == 0, result.output


# -- columns and roles -----------------------------------------------------------------------------


def test_unknown_column_in_attributes(both: Engine, tmp_path: Path) -> None:
    data = base_config(both.url)
    data["attributes"]["colour"] = {"role": "insensitive"}
    err = expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.colour", "'colour'", "t")
    assert "id, age, sex, code, name" in err  # lists the columns there are
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "attributes.colour")
    assert "t_out" not in both.tables()


def test_column_without_a_role(both: Engine, tmp_path: Path) -> None:
    data = base_config(both.url)
    del data["attributes"]["name"]
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "attributes", "role", "'name'")
    assert "t_out" not in both.tables()


def test_source_table_not_found(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["source"]["table"] = "nope"
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "source.table", "nope", "not found")


def test_quasi_identifier_without_hierarchy(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    del data["attributes"]["age"]["hierarchy"]
    path = config_file(tmp_path, data)
    expect_error(["validate", path], 2, str(path), "attributes.age", "needs a hierarchy")


def test_no_quasi_identifier(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["attributes"] = {c: {"role": "insensitive"} for c in COLUMNS}
    expect_error(["validate", config_file(tmp_path, data)], 2, "quasi_identifier")


def test_unknown_role(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["attributes"]["name"] = {"role": "secret"}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.name.role", "'secret'")


# -- hierarchies -----------------------------------------------------------------------------------


def test_value_missing_from_hierarchy_lists_values_with_counts(both: Engine, tmp_path: Path) -> None:
    data = base_config(both.url)
    data["attributes"]["code"]["hierarchy"] = {"inline": {"A": ["*"]}}
    # B: rows 1,4,...,19 -> 7 rows; C: rows 2,5,...,17 -> 6 rows.
    err = expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "'code'",
                       "'B' (7 rows)", "'C' (6 rows)", "missing")
    assert err.index("'B' (7 rows)") < err.index("'C' (6 rows)")  # most frequent first
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "'B' (7 rows)")
    assert "t_out" not in both.tables()
    assert not any(t.startswith("sqlanon_") for t in both.tables())


def test_many_missing_values_list_the_first_20(duckdb_engine: Engine, tmp_path: Path) -> None:
    duckdb_engine.create_table("t", {"v": "VARCHAR"}, [(f"v{i:02d}",) for i in range(30) for _ in range(1 + i % 2)])
    data = {
        "source": {"url": duckdb_engine.url, "table": "t"},
        "output": {"table": "o"},
        "attributes": {"v": {"role": "quasi_identifier", "hierarchy": {"inline": {"v00": ["*"]}}}},
        "privacy": {"k": 2},
    }
    err = expect_error(["validate", config_file(tmp_path, data)], 2, "29 value(s)", "first 20 of 29")
    assert err.count(" rows)") == 20


def test_value_missing_from_csv_hierarchy(db: Engine, tmp_path: Path) -> None:
    (tmp_path / "h").mkdir()
    (tmp_path / "h" / "sex.csv").write_text("F;*\n", encoding="utf-8")
    data = base_config(db.url)
    data["attributes"]["sex"]["hierarchy"] = {"csv": "h/sex.csv"}  # relative to the config file
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.sex.hierarchy", "'M' (10 rows)")


def test_values_missing_from_a_malformed_hierarchy_are_listed_too(both: Engine, tmp_path: Path) -> None:
    """The hierarchy alone is checked before the data is scanned for missing values; when it is malformed,
    the message still lists every problem, the data's missing values included."""
    data = base_config(both.url)
    data["attributes"]["code"]["hierarchy"] = {"inline": {"A": ["X", "P"], "B": ["X", "Q"]}}
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "inconsistent",
                 "'X' (level 1 -> 2)", "'C' (6 rows)", "missing from level 0")
    assert not any(t.startswith("sqlanon_") for t in both.tables())


def test_data_is_scanned_for_missing_values_only_when_the_frequency_set_lost_records(
    both: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A value without a hierarchy row drops its records from the frequency set's joins, so a run whose
    frequency set kept every record has no such value and skips the scan of the data per quasi-identifier;
    otherwise the scan runs and names the values, as before."""
    import sqlanon
    from sqlanon.engines.base import EngineAdapter
    from sqlanon.errors import InputError

    scans: list[str] = []
    original = EngineAdapter.run

    def run(self, template, **context):
        if template == "validate_hierarchy.sql.j2" and context["source"]:
            scans.append(context["column"])
        return original(self, template, **context)

    monkeypatch.setattr(EngineAdapter, "run", run)
    sqlanon.anonymize(config_file(tmp_path, base_config(both.url)), dry_run=True)
    assert scans == []
    data = base_config(both.url)
    data["attributes"]["code"]["hierarchy"] = {"inline": {"A": ["*"], "B": ["*"]}}
    with pytest.raises(InputError, match=r"attributes\.code\.hierarchy: 1 value\(s\) of column 'code' missing "
                                         r"from level 0: 'C' \(6 rows\)"):
        sqlanon.anonymize(config_file(tmp_path, data, "bad.yaml"), dry_run=True)
    assert scans == ["age", "sex", "code"]


def test_inconsistent_hierarchy_label_with_two_parents(both: Engine, tmp_path: Path) -> None:
    # A and B share the level-1 label AB, which has two different parents at level 2.
    (tmp_path / "code.csv").write_text("A;AB;P;*\nB;AB;Q;*\nC;C;Q;*\n", encoding="utf-8")
    data = base_config(both.url)
    data["attributes"]["code"]["hierarchy"] = {"csv": "code.csv"}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "inconsistent",
                 "'AB' (level 1 -> 2)")
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "'AB'")
    assert "t_out" not in both.tables()


def test_inconsistent_inline_hierarchy(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["attributes"]["code"]["hierarchy"] = {"inline": {"A": ["X", "P"], "B": ["X", "Q"], "C": ["C", "Q"]}}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "inconsistent",
                 "'X'")


def test_two_top_labels_without_a_null_mapping(both: Engine, tmp_path: Path, monkeypatch) -> None:
    """Extended match generalizes NULL to the single top label; two are refused, counted (the database counts
    distinct top labels only once it has seen more than one: describe_lookup), whoever parses the file."""
    (tmp_path / "code.csv").write_text("A;AB;P\nB;AB;P\nC;C;Q\n", encoding="utf-8")
    data = base_config(both.url)
    data["attributes"]["code"]["hierarchy"] = {"csv": "code.csv"}
    for file_bytes in (256 * 1024, 0):  # coded in Python, then in the database
        monkeypatch.setattr("sqlanon.hierarchy.loading.PYTHON_FILE_BYTES", file_bytes)
        expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.code.hierarchy",
                     "the top level has 2 different values", "explicit NULL mapping")


def test_value_mapped_twice_in_a_csv_hierarchy(db: Engine, tmp_path: Path) -> None:
    (tmp_path / "code.csv").write_text("A;AB;*\nA;AC;*\nB;AB;*\nC;AC;*\n", encoding="utf-8")
    data = base_config(db.url)
    data["attributes"]["code"]["hierarchy"] = {"csv": "code.csv"}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "'A' (level 1)")


def test_csv_hierarchy_rows_of_different_heights(db: Engine, tmp_path: Path) -> None:
    (tmp_path / "code.csv").write_text("A;AB;*\nB;*\nC;C;*\n", encoding="utf-8")
    data = base_config(db.url)
    data["attributes"]["code"]["hierarchy"] = {"csv": "code.csv"}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "code.csv line 2",
                 "2 columns, expected 3")


def test_csv_hierarchy_file_not_found(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["attributes"]["code"]["hierarchy"] = {"csv": "nowhere/code.csv"}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.code.hierarchy.csv", "not found",
                 "code.csv")


def test_hierarchy_with_two_sources(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["attributes"]["code"]["hierarchy"] = {"mask": {"length": 1}, "inline": {"A": ["*"]}}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.code.hierarchy", "exactly one")


def test_max_level_above_the_hierarchy(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["attributes"]["sex"]["max_level"] = 5
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.sex.max_level", "5")


def _unknown_column(data: dict[str, Any]) -> None:
    data["attributes"]["colour"] = {"role": "insensitive"}


def _no_role(data: dict[str, Any]) -> None:
    del data["attributes"]["name"]


def _max_level(data: dict[str, Any]) -> None:
    data["attributes"]["sex"]["max_level"] = 5


def _k_too_large(data: dict[str, Any]) -> None:
    data["privacy"]["k"] = 21


@pytest.mark.parametrize("change", [_unknown_column, _no_role, _max_level, _k_too_large],
                         ids=["unknown_column", "column_without_role", "max_level", "k_larger_than_table"])
def test_config_errors_found_against_the_data_name_the_config_file(db: Engine, tmp_path: Path, change) -> None:
    """Errors about config content found only once the data is read still name the file (as the
    schema errors do), so that a user running many configs knows which one to fix."""
    data = base_config(db.url)
    change(data)
    path = config_file(tmp_path, data, "specific-name.yaml")
    expect_error(["validate", path], 2, "specific-name.yaml")


@pytest.mark.parametrize("content", ["F;*\n", "F;X;*\nM;X;*\nF;Y;*\n", "F;X;P;*\nM;X;Q;*\n"],
                         ids=["missing_value", "value_mapped_twice", "inconsistent"])
def test_csv_hierarchy_errors_name_the_hierarchy_file(db: Engine, tmp_path: Path, content: str) -> None:
    """A problem in a hierarchy CSV file names that file (as the row-height error already does)."""
    (tmp_path / "sex-hierarchy.csv").write_text(content, encoding="utf-8")
    data = base_config(db.url)
    data["attributes"]["sex"]["hierarchy"] = {"csv": "sex-hierarchy.csv"}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.sex.hierarchy", "sex-hierarchy.csv")


# -- privacy ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [0, -3])
def test_k_below_1(db: Engine, tmp_path: Path, k: int) -> None:
    path = config_file(tmp_path, base_config(db.url, k=k))
    expect_error(["anonymize", path], 2, str(path), "privacy.k", f"(value: {k})")


def test_k_not_an_integer(db: Engine, tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(db.url, k="five"))
    expect_error(["anonymize", path], 2, "privacy.k", "'five'")


def test_k_larger_than_the_table(both: Engine, tmp_path: Path) -> None:
    expect_error(["anonymize", config_file(tmp_path, base_config(both.url, k=21))], 2, "privacy.k", "k=21", "(20)")
    assert "t_out" not in both.tables()


def test_k_equal_to_the_table_is_fine(db: Engine, tmp_path: Path) -> None:
    result = invoke("anonymize", config_file(tmp_path, base_config(db.url, k=20)), "--json")
    assert result.exit_code == 0, result.output


def test_empty_table(both: Engine, tmp_path: Path) -> None:
    both.create_table("empty", COLUMNS, [])
    data = base_config(both.url)
    data["source"]["table"] = "empty"
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "empty", "no rows")
    expect_error(["validate", config_file(tmp_path, data)], 2, "empty", "no rows")


@pytest.mark.parametrize("limit", [1.5, -0.1, 1.0000001])
def test_suppression_limit_fraction_outside_0_1(db: Engine, tmp_path: Path, limit: float) -> None:
    path = config_file(tmp_path, base_config(db.url, suppression_limit=limit))
    expect_error(["anonymize", path], 2, str(path), "privacy.suppression_limit", str(limit), "[0, 1]")


def test_suppression_limit_negative_count(db: Engine, tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(db.url, suppression_limit=-2))
    expect_error(["anonymize", path], 2, "privacy.suppression_limit", "-2")


def test_suppression_limit_boolean_is_rejected(db: Engine, tmp_path: Path) -> None:
    """YAML reads true/yes/on as a boolean; it must not pass as the fraction 1.0 (suppress everything)."""
    for text in ("true", "yes", "on"):
        path = config_file(tmp_path, base_config(db.url), f"bool-{text}.yaml")
        path.write_text(path.read_text().replace("suppression_limit: 0", f"suppression_limit: {text}"))
        assert f"suppression_limit: {text}" in path.read_text()
        expect_error(["validate", path], 2, str(path), "privacy.suppression_limit")


@pytest.mark.parametrize("limit", [0, 0.0, 1, 1.0, 5])
def test_suppression_limit_edges_are_accepted(db: Engine, tmp_path: Path, limit: float) -> None:
    result = invoke("validate", config_file(tmp_path, base_config(db.url, suppression_limit=limit)), "--json")
    assert result.exit_code == 0, result.output
    expected = {0: 0, 1: 1, 5: 5}[limit] if isinstance(limit, int) else int(limit * 20)
    assert json.loads(result.stdout)["suppression_limit"] == expected


def test_bad_null_handling_and_strategy(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url, null_handling="sometimes")
    data["search"] = {"strategy": "greedy"}
    err = expect_error(["validate", config_file(tmp_path, data)], 2, "privacy.null_handling", "'sometimes'",
                       "search.strategy", "'greedy'")
    assert err.count("sqlanon: error:") == 1


def test_no_feasible_node_exits_3(both: Engine, tmp_path: Path) -> None:
    data = base_config(both.url, k=5, suppression_limit=0)
    for attr in ("age", "sex", "code"):
        data["attributes"][attr]["max_level"] = 0
    expect_error(["anonymize", config_file(tmp_path, data)], 3, "no transformation", "k=5")
    assert "t_out" not in both.tables()
    assert not any(t.startswith("sqlanon_") for t in both.tables())


# -- the config file itself ----------------------------------------------------------------------------


def test_unknown_config_key(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["privacy"]["kk"] = 3
    data["extra"] = True
    path = config_file(tmp_path, data)
    err = expect_error(["anonymize", path], 2, str(path), "privacy.kk: unknown key", "extra: unknown key")
    assert "(value: 3)" in err


def test_unknown_key_in_attribute(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["attributes"]["age"]["hierachy"] = data["attributes"]["age"].pop("hierarchy")  # typo
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.age.hierachy: unknown key")


def test_missing_config_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    expect_error(["anonymize", path], 2, str(path), "not found")
    expect_error(["validate", path], 2, str(path), "not found")
    expect_error(["explain", path], 2, str(path), "not found")


def test_bad_yaml(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("source:\n  table: [t\noutput: {table: o\n", encoding="utf-8")
    expect_error(["anonymize", path], 2, str(path), "not valid YAML", "line")


def test_yaml_that_is_not_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("- source\n- output\n", encoding="utf-8")
    expect_error(["anonymize", path], 2, str(path), "mapping")


def test_empty_config_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    expect_error(["anonymize", path], 2, str(path))


def test_missing_required_sections(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump({"source": {"table": "t"}}), encoding="utf-8")
    expect_error(["anonymize", path], 2, "output", "attributes", "privacy")


def test_env_var_unset(db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SQLANON_TEST_UNSET_URL", raising=False)
    path = config_file(tmp_path, base_config("${SQLANON_TEST_UNSET_URL}"))
    expect_error(["anonymize", path], 2, str(path), "source.url", "SQLANON_TEST_UNSET_URL", "not set")


def test_env_var_set_is_substituted(db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SQLANON_TEST_URL", db.url)
    path = config_file(tmp_path, base_config("${SQLANON_TEST_URL}"))
    result = invoke("anonymize", path, "--json")
    assert result.exit_code == 0, result.output
    assert "t_out" in db.tables()


def test_csv_source_file_not_found(tmp_path: Path) -> None:
    data = base_config("duckdb:///:memory:")
    data["source"] = {"csv": "data/missing.csv"}
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "source.csv", "missing.csv", "not found")


# -- databases ----------------------------------------------------------------------------------------


def test_output_table_exists(both: Engine, tmp_path: Path) -> None:
    both.create_table("t_out", {"keep": "INTEGER"}, [(42,)])
    expect_error(["anonymize", config_file(tmp_path, base_config(both.url))], 2, "output.table", "t_out",
                 "already exists", "if_exists")
    assert both.execute('SELECT * FROM "t_out"') == [(42,)]  # untouched


def test_output_equal_to_source_is_refused(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["output"] = {"table": "t", "if_exists": "replace"}
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "output.table", "source")
    assert len(db.execute('SELECT * FROM "t"')) == 20


def test_unreachable_database_exits_1(tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(UNREACHABLE))
    for command in ("anonymize", "validate"):
        err = expect_error([command, path], 1, "cannot connect", "127.0.0.1", "u:***@127.0.0.1:1/db")
        assert PASSWORD not in err
    err = expect_error(["explain", path], 1, "cannot connect")
    err = expect_error(["check", "--db", UNREACHABLE, "--table", "t", "--qi", "a"], 1, "cannot connect")


def test_missing_duckdb_parent_directory(tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(f"duckdb:///{tmp_path}/no/such/dir/x.duckdb"))
    expect_error(["anonymize", path], 2, "x.duckdb", "not found")


def test_missing_duckdb_file_is_reported_not_created(tmp_path: Path) -> None:
    """A mistyped DuckDB path is an input error; reading commands must not leave an empty database behind."""
    missing = tmp_path / "typo.duckdb"
    path = config_file(tmp_path, base_config(f"duckdb:///{missing}"))
    for args in (["validate", path], ["anonymize", path, "--dry-run"], ["explain", path],
                 ["check", "--db", f"duckdb:///{missing}", "--table", "t", "--qi", "age"]):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "typo.duckdb" in result.stderr
        assert not missing.exists(), f"{args[0]} created the DuckDB file {missing}"


def test_unsupported_url_scheme(tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(f"mysql://u:{PASSWORD}@127.0.0.1:1/db"))
    err = expect_error(["anonymize", path], 2, "unsupported engine", "'mysql'")
    assert PASSWORD not in err


DUCKDB_URLS = [
    "duckdb:///a.duckdb", "duckdb:////abs/x.duckdb", "duckdb:///:memory:", "duckdb://", "duckdb:///",
    "duckdb:///my%20file.duckdb", "duckdb:///dir/with%3Fq.duckdb", "duckdb:///a#b", "duckdb:///~/x.db",
    "duckdb:///f.duckdb?memory_limit=300MB&threads=2&threads=1", "duckdb:///f?preserve_insertion_order=false",
]


@pytest.mark.parametrize("url", DUCKDB_URLS)
def test_duckdb_urls_read_as_sqlalchemy_reads_them(url: str) -> None:
    """DuckDB URLs are parsed without importing SQLAlchemy (start-up time); they must mean the same."""
    from sqlalchemy.engine import make_url

    from sqlanon.engines.registry import parse_duckdb_url

    parsed = make_url(url)
    expected = {k: v if isinstance(v, str) else v[-1] for k, v in parsed.query.items()}
    assert parse_duckdb_url(url) == (parsed.database or ":memory:", expected)


def test_duckdb_url_errors(tmp_path: Path) -> None:
    # Two slashes make "file.duckdb" a host; SQLAlchemy would then open an empty in-memory database.
    path = config_file(tmp_path, base_config("duckdb://file.duckdb"))
    expect_error(["anonymize", path], 2, "'duckdb://file.duckdb'", "has no host", "duckdb:///file.duckdb")
    path = config_file(tmp_path, base_config("duckdb:///x.duckdb?memory_limt=1GB"))
    expect_error(["anonymize", path], 2, "unknown DuckDB setting 'memory_limt'", "memory_limit")
    path = config_file(tmp_path, base_config("duckdb:x.duckdb"))
    expect_error(["anonymize", path], 2, "'duckdb:x.duckdb' is not a valid URL", "duckdb:///path")


def test_duckdb_url_settings_are_applied(tmp_path: Path) -> None:
    from sqlanon.engines import adapter_for_url

    adapter = adapter_for_url(f"duckdb:///{tmp_path / 'db.duckdb'}?memory_limit=123MB&threads=1")
    adapter.connect()
    try:
        (threads,), = adapter.execute("SELECT current_setting('threads')")
        (limit,), = adapter.execute("SELECT current_setting('memory_limit')")
    finally:
        adapter.close()
    assert int(threads) == 1
    assert limit.replace(" ", "").startswith(("117.3MiB", "123.0MB", "123MB")), limit


def test_postgres_session_settings_unless_the_url_says(engine) -> None:
    """temp_buffers is raised for sqlanon's sessions (the frequency set is a temporary table scanned per
    node) and merge joins are disfavoured (joins with unanalyzed lookup tables); an explicit
    ``options=-c name=value`` in the URL is left alone, and its space survives the translation to libpq
    (SQLAlchemy's rendering turned it into a '+', an unknown setting)."""
    if engine.name != "postgres":
        pytest.skip("a PostgreSQL session setting")
    from urllib.parse import quote

    from sqlanon.engines import adapter_for_url

    sep = "&" if "?" in engine.url else "?"
    shown = {}
    options = quote("-c temp_buffers=16MB -c enable_mergejoin=on")
    for label, url in (("default", engine.url), ("url", engine.url + sep + "options=" + options)):
        adapter = adapter_for_url(url)
        adapter.connect()
        try:
            (shown[label],), = adapter.execute("SELECT current_setting('temp_buffers') || ' ' || "
                                               "current_setting('enable_mergejoin')")
        finally:
            adapter.close()
    assert shown == {"default": "256MB off", "url": "16MB on"}


def test_postgres_verification_aggregates_with_more_work_mem(
    both: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The written table's verification (one aggregate over all its rows) runs with work_mem 64 MB, so that
    PostgreSQL hashes its classes instead of sorting them on disk, and the session's value comes back after
    it; a work_mem in the URL is left alone."""
    if both.name != "postgres":
        pytest.skip("a PostgreSQL session setting")
    from urllib.parse import quote

    from sqlanon import run as api  # the run lifecycle calls the verifier
    from sqlanon.engines.postgres import AGGREGATE_WORK_MEM, PostgresAdapter

    seen: list[str] = []
    original_run, original_verify = PostgresAdapter.run, api.verify_output

    def run(self, template, **context):
        if template == "verify_output.sql.j2":
            seen.append(self.execute("SELECT current_setting('work_mem')")[0][0])
        return original_run(self, template, **context)

    def verify(adapter, **kwargs):
        seen.append(adapter.execute("SELECT current_setting('work_mem')")[0][0])
        try:
            return original_verify(adapter, **kwargs)
        finally:
            seen.append(adapter.execute("SELECT current_setting('work_mem')")[0][0])

    monkeypatch.setattr(PostgresAdapter, "run", run)
    monkeypatch.setattr(api, "verify_output", verify)
    result = invoke("anonymize", config_file(tmp_path, base_config(both.url)))
    assert result.exit_code == 0, result.output
    assert seen[1] == AGGREGATE_WORK_MEM and seen[0] == seen[2] != AGGREGATE_WORK_MEM, seen
    seen.clear()
    url = both.url + ("&" if "?" in both.url else "?") + "options=" + quote("-c work_mem=5MB")
    data = base_config(url)
    data["output"]["if_exists"] = "replace"
    result = invoke("anonymize", config_file(tmp_path, data, "url.yaml"))
    assert result.exit_code == 0, result.output
    assert seen == ["5MB", "5MB", "5MB"]


def test_duckdb_node_queries_run_without_compressed_materialization(
    db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search's node queries run with DuckDB's compressed materialization off (faster on small
    frequency sets), k-only ones without the optimizer passes they never use; the session's own setting is
    restored afterwards, after an error too, and a user's ``disabled_optimizers`` is kept."""
    import sqlanon
    from sqlanon.engines import adapter_for_url
    from sqlanon.evaluation import evaluator
    from sqlanon.evaluation.tuning import tuning_for

    def setting(adapter) -> str:
        return str(adapter.execute("SELECT current_setting('disabled_optimizers')")[0][0])

    adapter = adapter_for_url(f"duckdb:///{tmp_path / 'own.duckdb'}")
    tuning = tuning_for(adapter)
    adapter.connect()
    try:
        with tuning.node_query_settings(adapter, 1000, judged=True):
            inside = setting(adapter)
        with tuning.node_query_settings(adapter, 1000, judged=False):
            k_only = setting(adapter).split(",")
        after = setting(adapter)
        adapter.execute("SET disabled_optimizers = 'join_order'")
        with pytest.raises(RuntimeError), tuning.node_query_settings(adapter, 1000, judged=True):
            inside_user = setting(adapter)
            raise RuntimeError("the search failed")
        after_user = setting(adapter)
    finally:
        adapter.close()
    assert (inside, after) == ("compressed_materialization", "")
    # k-only queries also skip the passes they never use (the names this DuckDB knows), but not the pruning
    # of columns and the statistics for the perfect hash aggregate
    assert "compressed_materialization" in k_only and "join_order" in k_only and "filter_pushdown" in k_only
    assert not {"unused_columns", "column_lifetime", "statistics_propagation"} & set(k_only)
    assert (inside_user, after_user) == ("join_order,compressed_materialization", "join_order")

    seen = []
    original = evaluator.NodeEvaluator._run

    def run(self, node, weights):
        seen.append(setting(self.adapter))
        return original(self, node, weights)

    monkeypatch.setattr(evaluator.NodeEvaluator, "_run", run)
    sqlanon.anonymize(config_file(tmp_path, base_config(db.url)))  # k-only
    assert len(set(seen)) == 1 and seen[0] == ",".join(k_only)


def test_duckdb_builds_the_frequency_set_without_ordering_its_joins(
    db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frequency set's joins with the coded hierarchies are 1:1, so DuckDB builds it without ordering them
    and without join filters (LOOKUP_JOIN_IDLE_OPTIMIZERS); a user's own ``disabled_optimizers`` is kept
    inside and restored afterwards, after an error too."""
    import sqlanon
    from sqlanon.engines import adapter_for_url
    from sqlanon.engines.base import EngineAdapter

    def setting(adapter) -> str:
        return str(adapter.execute("SELECT current_setting('disabled_optimizers')")[0][0])

    adapter = adapter_for_url(f"duckdb:///{tmp_path / 'own.duckdb'}")
    adapter.connect()
    try:
        with adapter.aggregate_settings():
            inside = setting(adapter)
        after = setting(adapter)
        adapter.execute("SET disabled_optimizers = 'top_n'")
        with pytest.raises(RuntimeError), adapter.aggregate_settings():
            inside_user = setting(adapter)
            raise RuntimeError("the build failed")
        after_user = setting(adapter)
    finally:
        adapter.close()
    assert (set(inside.split(",")), after) == ({"join_order", "join_filter_pushdown"}, "")
    assert (set(inside_user.split(",")), after_user) == ({"top_n", "join_order", "join_filter_pushdown"}, "top_n")

    seen = {}
    original = EngineAdapter.run

    def run(self, template, **context):
        if template == "build_frequency_set.sql.j2":
            seen[template] = setting(self)
        return original(self, template, **context)

    monkeypatch.setattr(EngineAdapter, "run", run)
    sqlanon.anonymize(config_file(tmp_path, base_config(db.url)))
    assert set(seen["build_frequency_set.sql.j2"].split(",")) == {"join_order", "join_filter_pushdown"}


def test_duckdb_node_queries_over_one_row_group_run_on_one_thread(
    db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frequency set that fits in one row group is scanned by one thread anyway: the node queries run on
    one thread, and the session's thread count comes back afterwards, after an error too. A larger frequency
    set, or a ``threads`` setting in the URL, keeps the threads."""
    import sqlanon
    from sqlanon.engines import adapter_for_url
    from sqlanon.engines.duckdb import ROW_GROUP_ROWS
    from sqlanon.evaluation import evaluator
    from sqlanon.evaluation.tuning import tuning_for

    def threads(adapter) -> int:
        return int(adapter.execute("SELECT current_setting('threads')")[0][0])

    def inside(url: str, rows: int, fail: bool = False) -> tuple[int, int, int]:
        adapter = adapter_for_url(url)
        adapter.connect()
        try:
            before = threads(adapter)
            with pytest.raises(RuntimeError) if fail else contextlib.nullcontext():
                with tuning_for(adapter).node_query_settings(adapter, rows, judged=False):
                    during = threads(adapter)
                    if fail:
                        raise RuntimeError("the search failed")
            return before, during, threads(adapter)
        finally:
            adapter.close()

    url = f"duckdb:///{tmp_path / 'own.duckdb'}"
    machine = inside(url, ROW_GROUP_ROWS + 1)[0]
    if machine < 2:
        pytest.skip("DuckDB runs on one thread on this machine")
    assert inside(url, ROW_GROUP_ROWS) == (machine, 1, machine)
    assert inside(url, ROW_GROUP_ROWS, fail=True) == (machine, 1, machine)
    assert inside(url, ROW_GROUP_ROWS + 1) == (machine, machine, machine)
    assert inside(url + "?threads=2", 10) == (2, 2, 2)

    seen = []
    original = evaluator.NodeEvaluator._run

    def run(self, node, weights):
        seen.append(threads(self.adapter))
        return original(self, node, weights)

    monkeypatch.setattr(evaluator.NodeEvaluator, "_run", run)
    sqlanon.anonymize(config_file(tmp_path, base_config(db.url)))
    assert seen and set(seen) == {1}
    # a population's frequency set is joined by every query and not counted: the threads stay
    assert inside(url, None) == (machine, machine, machine)
    seen.clear()
    population = {"population_table": "t", "delta_min": 0, "delta_max": 1}
    sqlanon.anonymize(config_file(tmp_path, base_config(db.url, delta_presence=population), "dp.yaml"), dry_run=True)
    assert seen and set(seen) == {machine}


def test_duckdb_runs_over_one_row_group_of_source_on_one_thread(
    duckdb_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A source of at most one row group is counted, coded and searched on one thread, and the caller's
    connection gets its thread count back; a larger source gets the threads back once it is counted, and a
    ``threads`` setting in the URL is left alone."""
    import duckdb

    import sqlanon
    from sqlanon.config import parse_config
    from sqlanon.engines.duckdb import ROW_GROUP_ROWS, DuckDBAdapter

    path = duckdb_engine.extra["path"]
    with duckdb.connect(path) as con:
        for name, rows_ in (("small", ROW_GROUP_ROWS), ("large", ROW_GROUP_ROWS + 1)):
            con.execute(f"CREATE TABLE {name} AS SELECT range % 50 AS age FROM range({rows_})")
    seen: dict[str, int] = {}
    original = DuckDBAdapter.run

    def run(self, template, **context):
        if template in ("count_rows.sql.j2", "build_frequency_set.sql.j2"):
            seen[template.split(".")[0]] = int(self._con.execute("SELECT current_setting('threads')").fetchone()[0])
        return original(self, template, **context)

    monkeypatch.setattr(DuckDBAdapter, "run", run)

    def threads_seen(table: str, db: Any) -> dict[str, int]:
        seen.clear()
        cfg = parse_config({
            "source": {"table": table}, "output": {"table": f"{table}_out"},
            "attributes": {"age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [10]}}}},
            "privacy": {"k": 2, "suppression_limit": 0}, "history": {"enabled": False},
        }, source="<test>")
        sqlanon.anonymize(cfg, db=db, dry_run=True)
        return dict(seen)

    con = duckdb.connect(path)
    try:
        con.execute("SET threads = 2")
        assert threads_seen("small", con) == {"count_rows": 1, "build_frequency_set": 1}
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 2
        assert threads_seen("large", con) == {"count_rows": 1, "build_frequency_set": 2}
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 2
    finally:
        con.close()
    assert threads_seen("small", f"duckdb:///{path}?threads=2") == {"count_rows": 2, "build_frequency_set": 2}


PASSWORD_URLS = [
    UNREACHABLE,
    f"postgresql://u:{PASSWORD}@127.0.0.1:1/db?sslmode=bogus",
    f"postgresql+psycopg//u:{PASSWORD}@127.0.0.1:1/db",  # typo: unparseable
    f"postgresql+psycopg://u:{PASSWORD}@127.0.0.1:1x/db",  # bad port
    f"mysql://u:{PASSWORD}@127.0.0.1:1/db",
]


@pytest.mark.parametrize("url", PASSWORD_URLS)
def test_password_never_printed(db: Engine, tmp_path: Path, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong with a URL that holds a password, the password is not in any output."""
    in_config = config_file(tmp_path, base_config(url), "in_config.yaml")
    monkeypatch.setenv("SQLANON_TEST_SECRET_URL", url)
    from_env = config_file(tmp_path, base_config("${SQLANON_TEST_SECRET_URL}"), "from_env.yaml")
    good = config_file(tmp_path, base_config(db.url), "good.yaml")
    runs = [
        ["anonymize", in_config], ["anonymize", in_config, "--json"], ["anonymize", from_env, "--json"],
        ["anonymize", from_env, "--dry-run"], ["validate", in_config], ["validate", from_env, "--json"],
        ["explain", from_env], ["anonymize", good, "--db", url], ["anonymize", good, "--db", url, "--json"],
        ["validate", good, "--db", url], ["explain", good, "--db", url],
        ["check", "--db", url, "--table", "t", "--qi", "age"],
        ["check", "--db", url, "--table", "t", "--qi", "age", "--json"],
    ]
    for args in runs:
        result = invoke(*args)
        assert result.exit_code in (1, 2), (args, result.output)
        assert "Traceback" not in result.output
        assert result.stderr.startswith("sqlanon: error: ")
        assert PASSWORD not in result.output, f"password printed by {args}:\n{result.output}"


def test_password_not_printed_in_a_config_error(tmp_path: Path) -> None:
    """A validation error next to a URL with a password shows the URL masked, if at all."""
    data = base_config(UNREACHABLE)
    data["source"]["extra"] = 1
    data["source"]["url"] = {"nested": UNREACHABLE}  # wrong type: a mapping
    path = config_file(tmp_path, data)
    err = expect_error(["anonymize", path], 2, "source.url", "source.extra: unknown key")
    assert PASSWORD not in err
    data = base_config(UNREACHABLE)
    data["source"]["csv"] = "t.csv"  # a csv source needs a duckdb url; the url is in the message context
    err = expect_error(["anonymize", config_file(tmp_path, data)], 2, "source")
    assert PASSWORD not in err


def test_output_schema_does_not_exist(both: Engine, tmp_path: Path) -> None:
    data = base_config(both.url)
    data["output"]["table"] = "nosuch.t_out"
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "nosuch")
    assert both.tables() == {"t"}
    assert len(both.execute('SELECT * FROM "t"')) == 20


@pytest.fixture
def pg_with_password(postgres_server_url: str) -> Iterator[tuple[Engine, str]]:
    """A PostgreSQL test database and a URL for it that carries a password (the test server trusts local
    connections, so the password is sent along and ignored)."""
    from sqlalchemy.engine import make_url

    eng = Engine.postgres_database(postgres_server_url, f"t_{secrets.token_hex(6)}")
    try:
        url = make_url(eng.url).set(password=PASSWORD).render_as_string(hide_password=False)
        assert PASSWORD in url
        yield eng, url
    finally:
        eng.close()
        eng.drop_database()


def test_password_not_printed_by_successful_runs(pg_with_password: tuple[Engine, str], tmp_path: Path) -> None:
    eng, url = pg_with_password
    eng.create_table("t", COLUMNS, rows())
    path = config_file(tmp_path, base_config(url))
    runs = [
        ["validate", path], ["validate", path, "--json"], ["explain", path],
        ["anonymize", path, "--dry-run"], ["anonymize", path, "--dry-run", "--json"],
        ["anonymize", path, "--json"], ["anonymize", path],  # the second fails: the output exists
        ["check", "--db", url, "--table", "t_out", "--qi", "age,sex,code", "--k", "2", "--json"],
        ["check", "--db", url, "--table", "t_out", "--qi", "age,sex,code"],
    ]
    for args in runs:
        result = invoke(*args)
        assert result.exit_code in (0, 2), (args, result.output)
        assert PASSWORD not in result.output, f"password printed by {args}:\n{result.output}"
    assert ":***@" in json.loads(invoke("validate", path, "--json").stdout)["database"]  # masked, not dropped


def test_postgres_frequency_set_builds_with_more_work_mem(
    both: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frequency set and its copies (whole-table aggregates and a sort into parts) are built with work_mem
    64 MB, so that they do not spill to disk; the node queries of the search run with the session's value."""
    if both.name != "postgres":
        pytest.skip("a PostgreSQL session setting")
    from sqlanon.engines.postgres import AGGREGATE_WORK_MEM, PostgresAdapter
    from sqlanon.evaluation.evaluator import NodeEvaluator

    seen: dict[str, set[str]] = {}
    original_run, original_node = PostgresAdapter.run, NodeEvaluator._run

    def run(self, template, **context):
        if template in ("count_rows.sql.j2", "build_frequency_set.sql.j2", "summarize_frequency_set.sql.j2"):
            seen.setdefault(template, set()).add(self.execute("SELECT current_setting('work_mem')")[0][0])
        return original_run(self, template, **context)

    def node(self, node, weights):
        seen.setdefault("node", set()).add(self.adapter.execute("SELECT current_setting('work_mem')")[0][0])
        return original_node(self, node, weights)

    monkeypatch.setattr(PostgresAdapter, "run", run)
    monkeypatch.setattr(NodeEvaluator, "_run", node)
    result = invoke("anonymize", config_file(tmp_path, base_config(both.url)), "--dry-run")
    assert result.exit_code == 0, result.output
    default = seen["count_rows.sql.j2"]
    assert seen["build_frequency_set.sql.j2"] == seen["summarize_frequency_set.sql.j2"] == {AGGREGATE_WORK_MEM}
    assert seen["node"] == default != {AGGREGATE_WORK_MEM}, seen
