"""CLI polish: a closed stdout ends a command quietly, the summary's `runs show` command works as printed, and
`explain` prints SQL that runs as printed (bind parameters written in as literals)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sqlanon
from sqlanon.config import parse_config
from sqlanon.console import EXIT_BROKEN_PIPE
from sqlanon.criteria import criteria_from_config
from sqlanon.engines import adapter_for_url
from sqlanon.engines.base import EngineAdapter
from sqlanon.evaluation import NodeEvaluator
from sqlanon.metrics import metric_by_name
from sqlanon.session import Session
from tests.helpers import Engine, SparkConnection, invoke, make_people, people_config, prepare, write_config

pytestmark = pytest.mark.spark

SQLANON = Path(sys.executable).with_name("sqlanon")


# -- a reader that goes away (`sqlanon demo | head -1`) ---------------------------------------------------------


@pytest.mark.parametrize("args", [["demo", "--rows", "200"], ["demo", "--rows", "200", "--json"]])
def test_closed_stdout_ends_quietly(args: list[str], tmp_path: Path) -> None:
    """The reader closes the pipe before sqlanon writes anything: every write fails with EPIPE, deterministically.
    No "unexpected error", no traceback; the exit status is the one a shell reports for SIGPIPE (141)."""
    process = subprocess.Popen([str(SQLANON), *args, "--path", str(tmp_path / "d.duckdb")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # like `head -1` after its line, but before the first one
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == EXIT_BROKEN_PIPE, stderr
    assert stderr == ""


def test_pipe_into_head_prints_one_line(tmp_path: Path) -> None:
    out = subprocess.run(
        ["bash", "-c", f"{shlex.quote(str(SQLANON))} demo --rows 200 --path d.duckdb | head -1; "
                       "echo \"status ${PIPESTATUS[0]}\" >&2"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True,
    )
    assert out.stdout.startswith("created table patients") and out.stdout.count("\n") == 1
    assert "error" not in out.stderr and "Traceback" not in out.stderr
    assert re.fullmatch(rf"status ({EXIT_BROKEN_PIPE}|0)\n", out.stderr), out.stderr  # 0: all fit in the pipe


# -- the summary's `runs show` command -------------------------------------------------------------------------


def _runs_show_line(stdout: str) -> list[str]:
    match = re.search(r"run id: [0-9a-f]+ \((sqlanon runs show .*)\)$", stdout, flags=re.MULTILINE)
    assert match, stdout
    assert "--db ..." not in match.group(1)
    return shlex.split(match.group(1))[1:]  # without the program name


def test_runs_show_command_works_from_here(duckdb_engine: Engine, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative DuckDB path in a config is relative to the config's folder: the printed URL is relative to here."""
    folder = tmp_path / "configs"
    folder.mkdir()
    make_people(duckdb_engine)
    database = Path(duckdb_engine.extra["path"])
    assert database.parent == tmp_path
    data = people_config(f"duckdb:///../{database.name}")  # relative to the config's folder
    data["history"] = {"schema": "audit trail"}
    data["output"]["if_exists"] = "replace"
    config = write_config(folder / "people.yaml", data)
    monkeypatch.chdir(tmp_path)
    result = invoke("anonymize", config)
    assert result.exit_code == 0, result.output
    command = _runs_show_line(result.stdout)
    assert command[command.index("--db") + 1] == f"duckdb:///{database.name}"
    assert command[command.index("--schema") + 1] == "audit trail"
    shown = invoke(*command)
    assert shown.exit_code == 0, shown.output
    assert "succeeded" in shown.stdout

    # From another folder the same run's command names the database absolutely (or relative to there).
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    again = invoke("anonymize", config, "--quiet")
    command = _runs_show_line(again.stdout)
    assert command[command.index("--db") + 1] == f"duckdb:///{database}"
    assert invoke(*command).exit_code == 0


def test_runs_show_command_with_db_and_on_postgres(engine: Engine, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    make_people(engine)
    config = write_config(tmp_path / "c.yaml", people_config(None))
    monkeypatch.chdir(tmp_path)
    result = invoke("anonymize", config, "--db", engine.url)
    assert result.exit_code == 0, result.output
    command = _runs_show_line(result.stdout)
    assert "--schema" not in command  # the default schema
    assert invoke(*command).exit_code == 0
    if engine.name == "postgres":
        from sqlanon.engines.registry import mask_url

        assert command[command.index("--db") + 1] == mask_url(engine.url)


def test_demo_prints_commands_that_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("demo", "--rows", "300", "--path", "out/demo.duckdb")
    assert result.exit_code == 0, result.output
    assert invoke(*_runs_show_line(result.stdout)).exit_code == 0
    check = re.search(r"^check it: sqlanon (check .*)$", result.stdout, flags=re.MULTILINE)
    assert check and "duckdb:///out/demo.duckdb" in check.group(1)
    assert invoke(*shlex.split(check.group(1))).exit_code == 0


# -- explain: runnable as printed --------------------------------------------------------------------------------


def _people(engine: Engine, **attributes: Any) -> dict[str, Any]:
    make_people(engine)
    data = people_config(None)
    data["attributes"].update(attributes)
    data["history"] = {"enabled": False}
    return data


@pytest.mark.parametrize("models", [False, True], ids=["k only", "with a model"])
def test_explain_sql_runs_as_printed(engine: Engine, models: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """explain on the caller's connection, with sqlanon's temporary tables kept: the printed text (both
    statements) runs there unchanged and the node query gives the row the run's evaluator computes."""
    import psycopg

    extra = {"name": {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 2}}]}} if models else {}
    cfg = parse_config(_people(engine, **extra), source="<test>")
    levels = {"age": 1, "zip": 2}
    with Session(cfg, engine.url) as session:
        data = prepare(session)
        evaluator = NodeEvaluator(session.adapter, data.fset, cfg.privacy.k,
                                  metric_by_name(cfg.search.metric).needs_loss_weights, criteria_from_config(cfg))
        node = tuple(levels.get(q, 0) for q in cfg.quasi_identifiers)
        expected = evaluator.evaluate(node)

    if engine.name == "duckdb":
        import duckdb

        con: Any = duckdb.connect(engine.extra["path"])
    elif engine.name == "spark":
        con = SparkConnection(engine.con)
    else:
        con = psycopg.connect(engine.url.replace("+psycopg", ""), autocommit=True)
    # Spark's scratch tables are temporary views the printed script makes with CACHE TABLE.
    made, dropped = {"spark": (r"CACHE TABLE `([^`]+)`", "DROP VIEW `{}`")}.get(
        engine.name, (r'CREATE TEMPORARY TABLE "([^"]+)"', 'DROP TABLE "{}"'))
    try:
        keep = type(adapter_for_url(engine.url))  # Spark's adapter has a drop_tables of its own
        monkeypatch.setattr(keep if "drop_tables" in vars(keep) else EngineAdapter, "drop_tables",
                            lambda self, tables: None)  # keep them to run the SQL
        text = sqlanon.explain(cfg, node=levels, db=getattr(con, "session", con))
        monkeypatch.undo()
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
        assert "?" not in code and "%s" not in code
        assert code.count(";") == 2
        fs_table = re.search(made, code).group(1)
        assert re.search(rf"^--   {fs_table} +the frequency set", text, flags=re.MULTILINE), text  # named
        con.execute(dropped.format(fs_table))  # explain built it already: the printed script builds it again
        cut = text.index("\n-- node ")
        build, query = text[:cut], text[cut:]
        con.execute(build)
        row = con.execute(query).fetchall()
    finally:
        con.close()
    assert len(row) == 1
    assert int(row[0][0] or 0) == expected.suppressed_records


def test_explain_header_and_literals(duckdb_engine: Engine, tmp_path: Path) -> None:
    make_people(duckdb_engine)
    config = write_config(tmp_path / "people.yaml", people_config(duckdb_engine.url))
    result = invoke("explain", config, "--node", "age=1")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith(f"-- sqlanon explain {config}: node age=1, sex=0, zip=0\n-- engine: duckdb\n")
    assert "TEMPORARY tables" in text and "dropped them" in text
    assert "FILTER (WHERE s < 3)" in text  # k written in as a literal
    assert "bind parameters:" not in text


def test_sql_literals_round_trip(engine: Engine) -> None:
    """Every kind of bind parameter, written as a literal, is read back by the database as the same value."""
    import datetime
    from decimal import Decimal

    from sqlanon.engines import adapter_for_url

    values = [None, True, 7, -2**40, 0.1, 1e-300, float("inf"), "it's", "back\\slash %s ?", "é",
              Decimal("12.50"), datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 13, 5, 7)]
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        select = "SELECT " + ", ".join([adapter.PLACEHOLDER] * len(values))
        shown = adapter.display_sql(select, values)
        assert shown.count(adapter.PLACEHOLDER) == 1  # the one inside the string literal
        row = adapter.execute(shown)[0]
    finally:
        adapter.close()
    assert list(row) == values
