"""Bad hierarchies: values missing from level 0, labels with two parents, several top labels, CSV files
that are malformed or missing, and max_level above the top.

Exit codes: 2 invalid config or input, 3 no feasible node, 1 unexpected error (an unreachable database). Each
test changes one thing of the working config and table of ``tests/bad_input.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bad_input import base_config, config_file, expect_error
from tests.helpers import Engine

pytestmark = pytest.mark.spark


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


@pytest.mark.parametrize("content", ["F;*\n", "F;X;*\nM;X;*\nF;Y;*\n", "F;X;P;*\nM;X;Q;*\n"],
                         ids=["missing_value", "value_mapped_twice", "inconsistent"])
def test_csv_hierarchy_errors_name_the_hierarchy_file(db: Engine, tmp_path: Path, content: str) -> None:
    """A problem in a hierarchy CSV file names that file (as the row-height error already does)."""
    (tmp_path / "sex-hierarchy.csv").write_text(content, encoding="utf-8")
    data = base_config(db.url)
    data["attributes"]["sex"]["hierarchy"] = {"csv": "sex-hierarchy.csv"}
    expect_error(["validate", config_file(tmp_path, data)], 2, "attributes.sex.hierarchy", "sex-hierarchy.csv")
