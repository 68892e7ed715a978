"""Bad configs: columns and roles, and the config file itself (keys, YAML, environment variables).

Exit codes: 2 invalid config or input, 3 no feasible node, 1 unexpected error (an unreachable database). Each
test changes one thing of the working config and table of ``tests/bad_input.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.bad_input import COLUMNS, base_config, config_file, expect_error
from tests.helpers import Engine, invoke

pytestmark = pytest.mark.spark


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


@pytest.mark.parametrize(("budget", "key", "value"), [
    ({"nodes": 0}, "search.budget.nodes", "(value: 0)"),
    ({"seconds": -1}, "search.budget.seconds", "(value: -1)"),
    ({"seconds": "soon"}, "search.budget.seconds", "(value: 'soon')"),
    ({"checks": 5}, "search.budget.checks: unknown key", "(value: 5)"),
])
def test_a_bad_search_budget_names_the_file_key_and_value(db: Engine, tmp_path: Path, budget: dict, key: str,
                                                          value: str) -> None:
    data = base_config(db.url)
    data["search"] = {"budget": budget}
    path = config_file(tmp_path, data)
    expect_error(["anonymize", path], 2, str(path), key, value)


def test_an_unknown_strategy_lists_the_known_ones(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["search"] = {"strategy": "genetic"}
    expect_error(["validate", config_file(tmp_path, data)], 2, "search.strategy", "'auto'", "'top_down'",
                 "'lightning'", "(value: 'genetic')")
