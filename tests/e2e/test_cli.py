"""CLI tests: every command, its help, JSON output, --dry-run, --db and the exit codes of normal runs.

Fast tests use click's CliRunner on ``sqlanon.cli.main`` in-process; a few run the real console script.
Bad inputs are beside what they check (``tests/bad_input.py`` says where), hostile identifiers in
``test_hostile_identifiers.py``, interrupts in ``test_interrupt.py``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Engine, invoke, make_people, one_json_object, people_config, write_config

pytestmark = pytest.mark.spark

SQLANON = Path(sys.executable).with_name("sqlanon")
JSON_KEYS = {
    "status", "transformation", "rows", "suppressed_rows", "metrics", "nodes_evaluated", "lattice_size",
    "seconds", "output_table", "verified",
}
#: Closed port on loopback: connecting fails at once with "connection refused".
UNREACHABLE = "postgresql+psycopg://u:SECRETPW@127.0.0.1:1/db"






@pytest.fixture
def people(duckdb_engine: Engine, tmp_path: Path) -> tuple[Engine, Path]:
    """The people table in a DuckDB file and a config for it (k=3, 10% suppression)."""
    make_people(duckdb_engine)
    return duckdb_engine, write_config(tmp_path / "people.yaml", people_config(duckdb_engine.url))


def table_rows(engine: Engine, name: str) -> list[tuple]:
    q = '"' + name.replace('"', '""') + '"'
    return sorted(engine.execute(f"SELECT * FROM {q}"), key=repr)


# -- help ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["anonymize", "check", "validate", "explain", "demo"])
def test_help_of_each_command_has_an_example(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert f"sqlanon {command} " in result.stdout  # an example invocation, not just the usage line
    assert f"Usage: main {command}" in result.stdout or f"Usage: sqlanon {command}" in result.stdout


def test_top_level_help_lists_every_command_and_starts_with_demo() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("anonymize", "check", "validate", "explain", "demo"):
        assert command in result.stdout
    assert "sqlanon demo" in result.stdout
    assert invoke("-h").stdout == result.stdout


def test_version() -> None:
    import sqlanon

    result = invoke("--version")
    assert result.exit_code == 0
    assert sqlanon.__version__ in result.stdout


# -- anonymize -------------------------------------------------------------------------------------


def test_anonymize_json_prints_exactly_one_object_with_the_report(people: tuple[Engine, Path]) -> None:
    engine, config = people
    result = invoke("anonymize", config, "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    assert JSON_KEYS <= report.keys()
    assert report["status"] == "ok"
    assert report["verified"] is True
    assert report["rows"] == 60
    assert report["output_table"] == "people_out"
    assert set(report["transformation"]) == {"age", "sex", "zip"}
    assert all(isinstance(v, int) and v >= 0 for v in report["transformation"].values())
    assert report["transformation"]["zip"] <= 3  # max_level
    assert {"loss", "dm_star"} <= report["metrics"].keys()
    assert all(isinstance(v, int | float) for v in report["metrics"].values())
    assert 0 <= report["metrics"]["loss"] <= 1
    assert 1 <= report["nodes_evaluated"] <= report["lattice_size"]
    assert report["lattice_size"] == 4 * 2 * 4  # age 0..3, sex 0..1, zip 0..3
    assert 0 <= report["suppressed_rows"] <= 6
    assert isinstance(report["seconds"], int | float) and report["seconds"] >= 0
    # The table is there, without identifier/ignore columns, and passes an independent check.
    out = engine.execute('SELECT * FROM "people_out"')
    assert len(out) == 60 - report["suppressed_rows"]
    columns = [r[0] for r in engine.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'people_out' ORDER BY ordinal_position"
    )]
    assert columns == ["age", "sex", "zip"]
    check = invoke("check", "--db", engine.url, "--table", "people_out", "--qi", "age,sex,zip", "--k", "3", "--json")
    assert check.exit_code == 0, check.output
    assert one_json_object(check.stdout)["smallest_class"] >= 3


def test_anonymize_readable_summary(people: tuple[Engine, Path]) -> None:
    engine, config = people
    result = invoke("anonymize", config)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert not out.lstrip().startswith("{")
    assert "anonymized people (60 rows)" in out
    assert "transformation: age=" in out
    assert "k=3" in out
    assert "verified" in out and "VERIFICATION FAILED" not in out
    assert "people_out" in out
    assert "people_out" in engine.tables()


def test_anonymize_dry_run_writes_nothing(people: tuple[Engine, Path]) -> None:
    engine, config = people
    before = engine.tables()
    source = table_rows(engine, "people")
    result = invoke("anonymize", config, "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    assert JSON_KEYS <= report.keys()
    assert report["status"] == "dry_run"
    assert report["output_table"] is None and report["verified"] is None
    assert report["transformation"] and "loss" in report["metrics"]
    assert engine.tables() == before == {"people"}
    assert table_rows(engine, "people") == source
    # Readable dry run too.
    text = invoke("anonymize", config, "--dry-run")
    assert text.exit_code == 0, text.output
    assert text.stdout.startswith("dry run people")
    assert engine.tables() == {"people"}


def test_dry_run_then_real_run_agree(people: tuple[Engine, Path]) -> None:
    _, config = people
    dry = one_json_object(invoke("anonymize", config, "--dry-run", "--json").stdout)
    real = one_json_object(invoke("anonymize", config, "--json").stdout)
    assert dry["transformation"] == real["transformation"]
    assert dry["metrics"] == real["metrics"]
    assert dry["suppressed_rows"] == real["suppressed_rows"]


def test_db_overrides_source_url(duckdb_engine: Engine, tmp_path: Path) -> None:
    make_people(duckdb_engine)
    # source.url is unreachable; only the --db URL can make this run succeed.
    config = write_config(tmp_path / "c.yaml", people_config(UNREACHABLE))
    result = invoke("anonymize", config, "--db", duckdb_engine.url, "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    assert report["status"] == "ok"
    assert "people_out" in duckdb_engine.tables()
    # The same for validate and explain.
    assert invoke("validate", config, "--db", duckdb_engine.url).exit_code == 0
    assert invoke("explain", config, "--db", duckdb_engine.url).exit_code == 0
    # Without --db the configured (unreachable) URL is used.
    assert invoke("anonymize", config).exit_code == 1


def test_relative_paths_config_relative_to_config_file_db_relative_to_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    confdir = tmp_path / "conf"
    confdir.mkdir()
    inside = Engine.duckdb(confdir / "data.duckdb")
    make_people(inside)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    config = write_config(confdir / "c.yaml", people_config("duckdb:///data.duckdb"))
    assert invoke("anonymize", config, "--json").exit_code == 0
    assert "people_out" in inside.tables()
    # --db is a command-line value: relative to the working directory.
    here = Engine.duckdb(elsewhere / "cwd.duckdb")
    make_people(here)
    assert invoke("anonymize", config, "--db", "duckdb:///cwd.duckdb", "--json").exit_code == 0
    assert "people_out" in here.tables()
    inside.assert_sources_unchanged()
    here.assert_sources_unchanged()


def test_anonymize_json_on_both_engines(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    config = write_config(tmp_path / "c.yaml", people_config(engine.url))
    result = invoke("anonymize", config, "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    assert report["status"] == "ok" and report["verified"] is True
    assert engine.execute('SELECT count(*) FROM "people_out"')[0][0] == 60 - report["suppressed_rows"]
    assert not any(t.startswith("sqlanon_") for t in engine.tables())


def test_if_exists_replace_overwrites(people: tuple[Engine, Path], tmp_path: Path) -> None:
    engine, _ = people
    engine.execute('CREATE TABLE "people_out" (x INTEGER)')
    data = people_config(engine.url)
    data["output"]["if_exists"] = "replace"
    config = write_config(tmp_path / "replace.yaml", data)
    result = invoke("anonymize", config, "--json")
    assert result.exit_code == 0, result.output
    assert len(engine.execute('SELECT age, sex, zip FROM "people_out"')) == 60 - one_json_object(
        result.stdout)["suppressed_rows"]


def test_exit_code_3_when_no_node_is_feasible(people: tuple[Engine, Path], tmp_path: Path) -> None:
    engine, _ = people
    data = people_config(engine.url, k=10, suppression_limit=0)
    for attr in ("age", "sex", "zip"):
        data["attributes"][attr]["max_level"] = 0
    config = write_config(tmp_path / "nosol.yaml", data)
    result = invoke("anonymize", config)
    assert result.exit_code == 3, result.output
    assert "no transformation" in result.stderr and "k=10" in result.stderr
    assert result.stdout == ""
    as_json = invoke("anonymize", config, "--json")
    assert as_json.exit_code == 3
    err = one_json_object(as_json.stdout)
    assert err["status"] == "no_solution" and err["exit_code"] == 3 and "k=10" in err["error"]
    assert engine.tables() == {"people"}


def test_exit_code_1_for_an_unreachable_database(people: tuple[Engine, Path]) -> None:
    _, config = people
    result = invoke("anonymize", config, "--db", UNREACHABLE)
    assert result.exit_code == 1
    assert "cannot connect" in result.stderr and "127.0.0.1:1" in result.stderr
    as_json = invoke("anonymize", config, "--db", UNREACHABLE, "--json")
    assert as_json.exit_code == 1
    assert one_json_object(as_json.stdout)["status"] == "error"


# -- check -----------------------------------------------------------------------------------------


def test_check_k_anonymous_table_exits_0(people: tuple[Engine, Path]) -> None:
    engine, _ = people
    result = invoke("check", "--db", engine.url, "--table", "people", "--qi", "age,sex", "--k", "2")
    assert result.exit_code == 0, result.output
    assert "60 rows, 28 equivalence classes over age, sex" in result.stdout
    assert "smallest class 2, largest 6" in result.stdout
    assert "rows with a NULL quasi-identifier 6" in result.stdout
    assert "-> k-anonymous" in result.stdout


def test_check_not_k_anonymous_exits_3(people: tuple[Engine, Path]) -> None:
    engine, _ = people
    result = invoke("check", "--db", engine.url, "--table", "people", "--qi", "age, sex", "--k", "3")
    assert result.exit_code == 3, result.output
    assert "27 classes / 54 records below k" in result.stdout
    assert "NOT k-anonymous" in result.stdout
    as_json = invoke("check", "--db", engine.url, "--table", "people", "--qi", "age,sex", "--k", "3", "--json")
    assert as_json.exit_code == 3
    report = one_json_object(as_json.stdout)
    assert report == {
        "table": "test.main.people", "quasi_identifiers": ["age", "sex"], "k": 3, "rows": 60, "classes": 28,
        "smallest_class": 2, "largest_class": 6, "classes_below_k": 27, "records_below_k": 54,
        "rows_with_null": 6, "k_anonymous": False,
    }


def test_check_without_k_only_measures(people: tuple[Engine, Path]) -> None:
    engine, _ = people
    result = invoke("check", "--db", engine.url, "--table", "people", "--qi", "sex", "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    assert report["classes"] == 2 and report["smallest_class"] == 30 and report["k_anonymous"] is None


def test_check_on_both_engines_null_is_a_value(engine: Engine) -> None:
    make_people(engine)
    result = invoke("check", "--db", engine.url, "--table", "people", "--qi", "age,sex", "--k", "2", "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    assert (report["classes"], report["smallest_class"], report["largest_class"], report["rows_with_null"]) == (
        28, 2, 6, 6)


def test_check_bad_inputs(people: tuple[Engine, Path]) -> None:
    engine, _ = people
    missing = invoke("check", "--db", engine.url, "--table", "nope", "--qi", "age")
    assert missing.exit_code == 2 and "nope" in missing.stderr and "not found" in missing.stderr
    column = invoke("check", "--db", engine.url, "--table", "people", "--qi", "age,colour")
    assert column.exit_code == 2 and "--qi" in column.stderr and "'colour'" in column.stderr
    k0 = invoke("check", "--db", engine.url, "--table", "people", "--qi", "age", "--k", "0")
    assert k0.exit_code == 2 and "--k" in k0.stderr and "0" in k0.stderr
    empty = invoke("check", "--db", engine.url, "--table", "people", "--qi", " , ")
    assert empty.exit_code == 2 and "--qi" in empty.stderr
    usage = invoke("check", "--db", engine.url, "--table", "people")  # --qi is required
    assert usage.exit_code == 2 and "--qi" in usage.stderr


# -- validate ----------------------------------------------------------------------------------------


def test_validate_reports_without_searching(people: tuple[Engine, Path]) -> None:
    engine, config = people
    result = invoke("validate", config)
    assert result.exit_code == 0, result.output
    assert "valid" in result.stdout
    assert "60 rows in people" in result.stdout
    assert "lattice of 32 nodes" in result.stdout
    as_json = invoke("validate", config, "--json")
    assert as_json.exit_code == 0
    info = one_json_object(as_json.stdout)
    assert info["status"] == "valid" and info["rows"] == 60 and info["lattice_size"] == 32
    assert info["hierarchy_heights"] == {"age": 4, "sex": 2, "zip": 6}
    assert info["suppression_limit"] == 6
    assert engine.tables() == {"people"}


# -- explain -----------------------------------------------------------------------------------------


def test_explain_prints_the_sql_of_one_node(people: tuple[Engine, Path]) -> None:
    engine, config = people
    bottom = invoke("explain", config)
    assert bottom.exit_code == 0, bottom.output
    assert "-- engine: duckdb" in bottom.stdout
    assert "-- node age=0, sex=0, zip=0" in bottom.stdout
    assert "SELECT" in bottom.stdout and '"people"' in bottom.stdout
    node = invoke("explain", config, "--node", "age=2,zip=1")
    assert node.exit_code == 0, node.output
    assert "-- node age=2, sex=0, zip=1" in node.stdout
    assert node.stdout != bottom.stdout
    assert engine.tables() == {"people"}


def test_explain_on_postgres_uses_the_postgres_dialect(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    config = write_config(tmp_path / "c.yaml", people_config(engine.url))
    result = invoke("explain", config, "--node", "sex=1")
    assert result.exit_code == 0, result.output
    assert f"-- engine: {engine.name}" in result.stdout
    assert "-- node age=0, sex=1, zip=0" in result.stdout


@pytest.mark.parametrize(
    ("node", "fragments"),
    [
        ("age=x", ["--node", "'age=x'"]),
        ("age", ["--node", "'age'"]),
        ("colour=1", ["--node", "colour", "not a quasi-identifier"]),
        ("age=9", ["--node", "outside the lattice", "age<=3"]),
        ("zip=4", ["--node", "outside the lattice", "zip<=3"]),  # beyond max_level
    ],
)
def test_explain_bad_node(people: tuple[Engine, Path], node: str, fragments: list[str]) -> None:
    _, config = people
    result = invoke("explain", config, "--node", node)
    assert result.exit_code == 2, result.output
    for fragment in fragments:
        assert fragment in result.stderr


# -- demo --------------------------------------------------------------------------------------------


def test_demo_builds_anonymizes_and_can_be_rerun(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "demo.duckdb"
    result = invoke("demo", "--path", path, "--rows", 400, "--k", 3)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "created table patients (400 rows with NULLs)" in out
    assert "anonymized patients (400 rows)" in out and "verified" in out
    assert "first rows of patients_k3" in out
    assert "sqlanon anonymize" in out and "sqlanon check" in out
    config = path.with_suffix(".yaml")
    assert config.is_file()
    engine = Engine.duckdb(path)
    assert {"patients", "patients_k3"} <= engine.tables()
    assert engine.execute("SELECT count(*) FROM patients WHERE age IS NULL OR zip IS NULL")[0][0] > 0
    # The written config re-runs (if_exists: replace) and the check it suggests passes.
    again = invoke("anonymize", config, "--json")
    assert again.exit_code == 0, again.output
    assert one_json_object(again.stdout)["verified"] is True
    check = invoke("check", "--db", f"duckdb:///{path}", "--table", "patients_k3", "--qi", "age,zip,sex,admitted",
                   "--k", 3)
    assert check.exit_code == 0, check.output


def test_demo_json(tmp_path: Path) -> None:
    result = invoke("demo", "--path", tmp_path / "d.duckdb", "--rows", 200, "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    assert JSON_KEYS <= report.keys()
    assert report["status"] == "ok" and report["verified"] is True and report["rows"] == 200
    assert report["output_table"] == "patients_k5"
    assert Path(report["config"]).is_file()


def test_demo_rejects_bad_options(tmp_path: Path) -> None:
    result = invoke("demo", "--path", tmp_path / "d.duckdb", "--rows", 3)
    assert result.exit_code == 2 and "--rows" in result.stderr
    assert not (tmp_path / "d.duckdb").exists()


# -- the real console script ---------------------------------------------------------------------------


def run_script(*args: Any, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SQLANON), *(str(a) for a in args)], capture_output=True, text=True, cwd=cwd, timeout=timeout
    )


def test_console_script_anonymize_json(people: tuple[Engine, Path]) -> None:
    engine, config = people
    proc = run_script("anonymize", config, "--json")
    assert proc.returncode == 0, proc.stderr
    report = one_json_object(proc.stdout)
    assert JSON_KEYS <= report.keys() and report["verified"] is True
    assert proc.stderr == ""  # no progress display when stderr is not a terminal
    assert "people_out" in engine.tables()
    check = run_script("check", "--db", engine.url, "--table", "people_out", "--qi", "age,sex,zip", "--k", "3")
    assert check.returncode == 0, check.stdout + check.stderr


def test_console_script_expected_errors_have_no_traceback(tmp_path: Path) -> None:
    proc = run_script("anonymize", tmp_path / "missing.yaml")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("sqlanon: error: ") and "missing.yaml" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = run_script("anonymize", tmp_path / "missing.yaml", "--json")
    assert proc.returncode == 2
    assert one_json_object(proc.stdout)["status"] == "invalid_input"


def test_console_script_demo(tmp_path: Path) -> None:
    proc = run_script("demo", "--rows", 300, "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert one_json_object(proc.stdout)["verified"] is True
    assert (tmp_path / "sqlanon-demo.duckdb").is_file()  # default path, relative to the working directory
    assert (tmp_path / "sqlanon-demo.yaml").is_file()
