"""Everything that can be checked before the search is checked before it, with exit 2 naming the key or
option: report paths, a saved transformation's path, a CSV export's path, the output's schema, permission and
dependants (the last three in tests/unit/output/test_output_identity.py). Nothing is written and no run is recorded as
succeeded when such a check fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Engine, invoke, write_config

pytestmark = pytest.mark.spark

ROWS = [(i, 20 + i % 20, "F" if i % 2 else "M") for i in range(40)]


def config(url: str, **output: object) -> dict:
    return {
        "source": {"url": url, "table": "src"},
        "output": {"table": "out", **output},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
        },
        "privacy": {"k": 2},
    }


def setup(engine: Engine) -> None:
    engine.create_table("src", {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR"}, ROWS)


def succeeded_runs(engine: Engine) -> int:
    runs = invoke("runs", "list", "--db", engine.url, "--json")
    return runs.stdout.count('"succeeded"') if runs.exit_code == 0 else 0


def test_a_report_in_a_missing_folder_fails_before_any_work(engine: Engine, tmp_path: Path) -> None:
    setup(engine)
    path = write_config(tmp_path / "c.yaml", config(engine.url))
    result = invoke("anonymize", path, "--report", tmp_path / "missing" / "run.html")
    assert result.exit_code == 2, result.output
    assert "--report" in result.stderr and "does not exist" in result.stderr
    assert "out" not in engine.tables()
    assert succeeded_runs(engine) == 0


def test_a_report_path_that_is_a_folder_is_refused(engine: Engine, tmp_path: Path) -> None:
    setup(engine)
    (tmp_path / "run.json").mkdir()
    result = invoke("anonymize", write_config(tmp_path / "c.yaml", config(engine.url)), "--report",
                    tmp_path / "run.json")
    assert result.exit_code == 2 and "is a folder" in result.stderr, result.output
    assert "out" not in engine.tables()


def test_a_saved_transformation_in_a_missing_folder_fails_before_any_work(engine: Engine, tmp_path: Path) -> None:
    setup(engine)
    result = invoke("anonymize", write_config(tmp_path / "c.yaml", config(engine.url)),
                    "--save-transformation", tmp_path / "nope" / "t.json")
    assert result.exit_code == 2 and "--save-transformation" in result.stderr, result.output
    assert "out" not in engine.tables()


def test_a_csv_export_that_cannot_be_written_fails_before_any_work(duckdb_engine: Engine, tmp_path: Path) -> None:
    setup(duckdb_engine)
    (tmp_path / "a_file").write_text("x")
    data = config(duckdb_engine.url, csv=str(tmp_path / "a_file" / "out.csv"))
    result = invoke("anonymize", write_config(tmp_path / "c.yaml", data))
    assert result.exit_code == 2 and "output.csv" in result.stderr, result.output
    assert "out" not in duckdb_engine.tables()
    # A missing folder is fine: the export creates it.
    data = config(duckdb_engine.url, csv=str(tmp_path / "new" / "folder" / "out.csv"))
    assert invoke("anonymize", write_config(tmp_path / "d.yaml", data)).exit_code == 0
    assert (tmp_path / "new" / "folder" / "out.csv").is_file()


def test_an_unreachable_l_says_so(engine: Engine, tmp_path: Path) -> None:
    """l above the number of distinct sensitive values: no generalization can help, and exit 3 says why."""
    engine.create_table("src", {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR"}, ROWS)
    data = config(engine.url)
    data["attributes"]["sex"] = {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 3}}]}
    result = invoke("anonymize", write_config(tmp_path / "c.yaml", data))
    assert result.exit_code == 3, result.output
    for fragment in ("attributes.sex", "l=3", "only 2 distinct values"):
        assert fragment in result.stderr, result.stderr
    data["attributes"]["sex"]["models"] = [{"distinct_l_diversity": {"l": 2}}, {"p_sensitivity": {"p": 5}}]
    result = invoke("anonymize", write_config(tmp_path / "d.yaml", data))
    assert result.exit_code == 3 and "p_sensitivity needs p=5" in result.stderr, result.output
