"""The documentation is executable: README commands, CI script, example configs, packaging, CLI help."""

from __future__ import annotations

import importlib.resources
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import sqlanon
from sqlanon.cli import main as cli
from sqlanon.templates import sql_root, template_names
from tests.helpers import REPO

README = REPO / "README.md"
CI_RUN = REPO / ".ci" / "run"
CONFIGS = sorted((REPO / "configs").glob("*.yaml"))

INSTALL_AND_DEMO = "pip install . && sqlanon demo"
TEST_COMMAND = "pip install '.[test,oracle,spark]' && python -m pytest"


def fenced_blocks(text: str) -> list[list[str]]:
    """The README's fenced code blocks, in order, as lists of non-empty lines."""
    blocks, current = [], None
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append([x for x in current if x.strip()])
                current = None
        elif current is not None:
            current.append(line)
    assert current is None, "unterminated fenced block in README.md"
    return blocks


# -- (a) README commands and CI --------------------------------------------------------------------
def test_readme_first_two_commands() -> None:
    blocks = fenced_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    assert blocks[0] == [INSTALL_AND_DEMO]
    assert blocks[1] == [TEST_COMMAND]


def test_ci_runs_the_readme_test_command() -> None:
    script = CI_RUN.read_text(encoding="utf-8")
    match = re.search(r"^TEST_COMMAND=\$\((.*)\)$", script, flags=re.MULTILINE)
    assert match, ".ci/run no longer extracts TEST_COMMAND from the README"
    # Run the script's own extraction (sed over README.md) exactly as CI does.
    out = subprocess.run(
        ["bash", "-c", match.group(1)], cwd=REPO, capture_output=True, text=True, check=True, timeout=30
    )
    assert out.stdout.strip() == TEST_COMMAND
    assert re.search(r'^eval "\$TEST_COMMAND"$', script, flags=re.MULTILINE), ".ci/run must run the command"
    # The first README command (install + demo) is exercised by CI too.
    assert re.search(r"pip install .*&& sqlanon demo", script)


def test_readme_shell_commands_name_real_cli_commands() -> None:
    commands = set(cli.commands)
    for block in fenced_blocks(README.read_text(encoding="utf-8")):
        for line in block:
            for match in re.finditer(r"(?:^|&& )sqlanon (\w+)", line):
                assert match.group(1) in commands, line


# -- (b) example configs ---------------------------------------------------------------------------
def _needs_environment(path: Path) -> bool:
    return "${" in path.read_text(encoding="utf-8")


def _copy_configs(tmp_path: Path) -> Path:
    """The configs beside their data, in a folder of the test's: a config of TPC-H data gets it generated at
    scale factor 0.01 (its comment says to generate it first)."""
    from sqlanon.tpch import generate

    copy = tmp_path / "configs"
    shutil.copytree(REPO / "configs", copy)
    generate(copy / "tpch.duckdb", 0.01)
    return copy


def _plain_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "configs"
    shutil.copytree(REPO / "configs", copy)
    return copy


def test_there_are_example_configs() -> None:
    assert CONFIGS
    assert any(not _needs_environment(p) for p in CONFIGS)
    assert any(_needs_environment(p) for p in CONFIGS)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_config_loads(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = "postgresql+psycopg://etl:s3cret@db.internal:5432/warehouse"
    monkeypatch.setenv("WAREHOUSE_URL", url)
    cfg = sqlanon.load_config(path)
    assert cfg.quasi_identifiers
    if _needs_environment(path):
        assert cfg.source.url == url


@pytest.mark.parametrize("path", [p for p in CONFIGS if _needs_environment(p)], ids=lambda p: p.name)
def test_config_without_environment_names_the_variable(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WAREHOUSE_URL", raising=False)
    with pytest.raises(sqlanon.ConfigError, match="WAREHOUSE_URL"):
        sqlanon.load_config(path)


@pytest.mark.parametrize("path", [p for p in CONFIGS if not _needs_environment(p)], ids=lambda p: p.name)
def test_every_example_config_validates_as_text_and_json(path: Path, tmp_path: Path) -> None:
    """``validate`` prints every method's findings (a method without a lattice once crashed the text output)."""
    copy = _copy_configs(tmp_path) if path.name == "tpch.yaml" else _plain_copy(tmp_path)
    runner = CliRunner()
    text = runner.invoke(cli, ["validate", str(copy / path.name)])
    assert text.exit_code == 0, text.output
    assert f"{path.name}: valid. " in text.output
    as_json = runner.invoke(cli, ["validate", str(copy / path.name), "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.output)["status"] == "valid"


@pytest.mark.parametrize("path", [p for p in CONFIGS if not _needs_environment(p)], ids=lambda p: p.name)
def test_duckdb_config_runs_end_to_end(path: Path, tmp_path: Path) -> None:
    # The run writes databases and CSV files beside the config.
    copy = _copy_configs(tmp_path) if path.name == "tpch.yaml" else _plain_copy(tmp_path)
    config = copy / path.name
    cfg = sqlanon.load_config(config)
    result = sqlanon.anonymize(config)
    assert result.status == "ok"
    assert result.verified is True
    assert result.verification is not None and result.verification["verified"] is True
    assert result.suppressed_rows <= result.suppression_limit
    # Every quasi-identifier was transformed: generalization's levels, microaggregation's losses, local recoding's
    # records per level, cloaking's region per cloaked column.
    per_qi = {"generalization": "transformation", "microaggregation": "information_loss_by_attribute",
              "local_recoding": "records_by_level", "cloaking": "region", "related_tables": "cut"}[cfg.method]
    per_qi = getattr(result, per_qi)
    assert set(per_qi) == set(cfg.quasi_identifiers)
    url = cfg.source.url or "duckdb:///:memory:"
    if url != "duckdb:///:memory:":  # a relative database file: the copy beside the config received the table
        import duckdb

        database = cfg.resolve(Path(url.removeprefix("duckdb:///")))
        assert database.is_relative_to(tmp_path)
        con = duckdb.connect(str(database), read_only=True)
        try:
            written = con.execute(f'SELECT count(*) FROM "{cfg.output.table}"').fetchone()[0]
        finally:
            con.close()
        assert written == result.output_rows
    if cfg.output.csv is not None:
        written = cfg.resolve(cfg.output.csv)
        assert written.is_file() and written.is_relative_to(tmp_path)
        header = written.read_text(encoding="utf-8").splitlines()[0]
        assert header.split(";")[0] in cfg.attributes
    if cfg.method == "related_tables":  # the written trees pass the independent checker of tests/
        from tests.oracle_related import largest_k, trees_from_nodes

        con = duckdb.connect(str(database), read_only=True)
        try:
            rows = con.execute(f'SELECT record_id, node_id, parent_id, attribute, value FROM "{cfg.output.table}"')
            trees = trees_from_nodes(rows.fetchall(), cfg.quasi_identifiers)
        finally:
            con.close()
        assert largest_k(trees, cfg.privacy.m, cfg.privacy.n) >= cfg.privacy.k


# -- (c) templates as package resources, wheel contents -------------------------------------------
def test_templates_found_as_resources() -> None:
    packaged = importlib.resources.files("sqlanon").joinpath("sql")
    if packaged.is_dir():  # installed from a wheel: the templates ship inside the package
        assert packaged.joinpath("common", "evaluate_node.sql.j2").is_file()
        assert Path(str(packaged)) == sql_root()
    else:  # source checkout (editable install): the repository's sql/ folder
        assert sql_root() == REPO / "sql"
    root = sql_root()
    assert (root / "common" / "evaluate_node.sql.j2").is_file()
    assert "common/evaluate_node.sql.j2" in template_names()
    assert all((root / name).is_file() for name in template_names())


def test_wheel_ships_templates_and_migrations(tmp_path: Path) -> None:
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("hatchling is not importable, so a --no-build-isolation wheel build is impossible here")
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(REPO)],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    wheels = list(tmp_path.glob("sqlanon-*.whl"))
    assert len(wheels) == 1, wheels
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = wheel.namelist()
    assert "sqlanon/sql/common/evaluate_node.sql.j2" in names
    assert any(n.startswith("sqlanon/migrations/") for n in names)
    assert "sqlanon/sql/postgres/macros/match.sql.j2" in names
    assert not any(n.startswith("sqlanon/sql/") and "__pycache__" in n for n in names)


# -- (d) CLI help ----------------------------------------------------------------------------------
def test_cli_has_the_documented_commands() -> None:
    assert {"anonymize", "check", "demo", "explain", "validate"} <= set(cli.commands)


@pytest.mark.parametrize("command", sorted(cli.commands))
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_cli_help_has_examples(command: str, flag: str) -> None:
    result = CliRunner().invoke(cli, [command, flag])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output, result.output


# -- (e) docs/etl.md: the orchestrator example runs as written ----------------------------------------
def test_etl_example_runs(tmp_path: Path) -> None:
    from sqlanon.demo import run_demo

    text = (REPO / "docs" / "etl.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert code, "docs/etl.md has no python example"
    namespace: dict = {}
    exec(compile(code.group(1), "docs/etl.md", "exec"), namespace)  # noqa: S102 - our own documentation
    database = tmp_path / "etl.duckdb"
    _, config, _ = run_demo(database, rows=2000, k=5)
    run_id = namespace["review_run"](str(config), str(tmp_path))
    assert (tmp_path / "review.html").is_file()
    out = namespace["publish_batch"](run_id, f"duckdb:///{database}", "patients", "patients_published", str(tmp_path))
    assert out["rows"] > 0 and out["run_id"] != run_id
    assert (tmp_path / "patients_published.html").is_file() and (tmp_path / "patients_published.json").is_file()
    # Idempotent publish: the same call again replaces the table with the same contents.
    import duckdb

    def contents() -> list[tuple]:
        con = duckdb.connect(str(database), read_only=True)
        try:
            return sorted(con.execute('SELECT * FROM "patients_published"').fetchall(), key=repr)
        finally:
            con.close()

    first = contents()
    namespace["publish_batch"](run_id, f"duckdb:///{database}", "patients", "patients_published", str(tmp_path))
    assert contents() == first


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_cli_help_examples_keep_their_line_breaks(command: str) -> None:
    """A lone backslash at a docstring line end joins lines (Python line continuation); examples need '\\\\'."""
    result = CliRunner().invoke(cli, [command, "--help"])
    for line in result.output.splitlines():
        assert not re.search(r"\S {5,}--", line), f"joined example line in `sqlanon {command} --help`: {line}"
