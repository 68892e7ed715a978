"""Run history: the versioned migrations of the history schema, recording of ``anonymize`` runs, and the
``sqlanon db`` / ``sqlanon runs`` commands, on both engines.

* migrations: from empty and from every earlier version the database's columns equal
  ``sqlanon.history.schema.COLUMNS`` exactly; old rows survive an upgrade; upgrading again is a no-op;
  ``db status`` / ``db upgrade`` exit codes; hostile schema names; concurrent upgrades (PostgreSQL).
* recording: succeeded, dry_run, no_solution and failed runs; ``history.store_nodes``; ``history.enabled``.
* refusals: an older, newer or (with ``history.create: false``) missing schema stops ``anonymize`` before
  anything is written.
* ``runs list`` / ``runs show``: JSON and readable output, id prefixes, error messages.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import secrets
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import sqlanon
from sqlanon.engines import adapter_for_url
from sqlanon.history.schema import COLUMNS, head, migrations, upgrade
from tests.helpers import Engine, invoke, one_json_object, quote, write_config
from tests.helpers import people_config as cli_people_config

#: Runs on Spark too (the engine fixture's Spark instances), where a run's end is a second row.
pytestmark = pytest.mark.spark

SQLANON = Path(sys.executable).with_name("sqlanon")
DEFAULT = "sqlanon"
#: Quotes, a semicolon, spaces, a percent sign and unicode (no '?': the test helpers rewrite it for psycopg).
HOSTILE = "h\"is'; DROP TABLE x;-- 50% ü 𝔘"
PASSWORD = "S3cretPW"
#: Columns of ``runs`` that have no default (NOT NULL in 0001).
REQUIRED = ("run_id", "command", "status", "started_at", "sqlanon_version", "config_json", "config_hash")


# -- helpers -------------------------------------------------------------------------------------------------






def sql(engine: Engine, query: str, params: Sequence[Any] = ()) -> list[tuple]:
    """Run SQL with ``?`` placeholders; unlike Engine.execute, a '%' in a quoted identifier stays intact."""
    if engine.name == "spark":
        return engine.execute(query, params)
    if engine.name == "duckdb":
        import duckdb

        con = duckdb.connect(engine.extra["path"])
        try:
            cur = con.execute(query, list(params))
            return cur.fetchall() if cur.description else []
        finally:
            con.close()
    if params:
        query = query.replace("%", "%%").replace("?", "%s")
        cur = engine.con.execute(query, list(params))
    else:
        cur = engine.con.execute(query)
    return cur.fetchall() if cur.description else []


def qn(schema: str, table: str) -> str:
    return f"{quote(schema)}.{quote(table)}"


def db_columns(engine: Engine, schema: str) -> dict[str, tuple[str, ...]]:
    """The history schema's tables and their columns, in column order, as the database reports them."""
    if engine.name == "spark":
        catalog = engine.con.catalog
        return {t.name: tuple(c.name for c in catalog.listColumns(t.name, schema))
                for t in catalog.listTables(schema) if not t.isTemporary} if catalog.databaseExists(schema) else {}
    rows = sql(engine, "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = ? "
                       "ORDER BY table_name, ordinal_position", [schema])
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(table, []).append(column)
    return {t: tuple(c) for t, c in out.items()}


def column_types(engine: Engine, schema: str, table: str) -> dict[str, str]:
    """Column name -> declared type (information_schema's data_type; Spark's catalog's dataType)."""
    if engine.name == "spark":
        return {c.name: c.dataType for c in engine.con.catalog.listColumns(table, schema)}
    return dict(sql(engine, "SELECT column_name, data_type FROM information_schema.columns "
                            "WHERE table_schema = ? AND table_name = ?", [schema, table]))


def schemas(engine: Engine) -> set[str]:
    if engine.name == "spark":
        return {d.name for d in engine.con.catalog.listDatabases()}
    return {r[0] for r in sql(engine, "SELECT schema_name FROM information_schema.schemata")}


def table_exists(engine: Engine, name: str) -> bool:
    if engine.name == "spark":
        return any(engine.con.catalog.tableExists(name, d.name) for d in engine.con.catalog.listDatabases())
    return bool(sql(engine, "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name])[0][0])


def insert_run(engine: Engine, schema: str, run_id: str, status: str = "succeeded", **extra: Any) -> None:
    values = {"run_id": run_id, "command": "anonymize", "status": status, "started_at": datetime(2026, 1, 2, 3, 4),
              "sqlanon_version": "0.0.1", "config_json": "{}", "config_hash": "0" * 64, **extra}
    columns = ", ".join(quote(c) for c in values)
    sql(engine, f"INSERT INTO {qn(schema, 'runs')} ({columns}) VALUES ({', '.join('?' * len(values))})",
        list(values.values()))


def sample_value(data_type: str, text: str) -> Any:
    """A value of the column's declared type (as information_schema names it on either engine)."""
    kind = data_type.upper()
    if "TIMESTAMP" in kind:
        return datetime(2025, 5, 6, 7, 8, 9)
    if "INT" in kind:
        return 7
    if "BOOL" in kind:
        return True
    if "DOUBLE" in kind or "FLOAT" in kind or "REAL" in kind or "NUMERIC" in kind:
        return 0.5
    return text


def people_rows() -> list[tuple]:
    """60 rows; 27 (age, sex) classes of exactly 2, plus one class (NULL, 'M') of 6."""
    return [
        (i, None if i % 10 == 0 else 20 + i % 30, "M" if i % 2 == 0 else "F", f"{10000 + (i % 30) * 7:05d}",
         f"person {i}")
        for i in range(60)
    ]


def make_people(engine: Engine) -> None:
    engine.create_table(
        "people", {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "zip": "VARCHAR", "name": "VARCHAR"},
        people_rows(),
    )


def people_config(url: str, *, history: dict[str, Any] | None = None, **privacy: Any) -> dict[str, Any]:
    """test_cli's people config, replacing its output, plus an optional history section."""
    data = cli_people_config(url, **privacy)
    data["output"]["if_exists"] = "replace"
    if history is not None:
        data["history"] = history
    return data


def write(tmp_path: Path, name: str, data: dict[str, Any]) -> Path:
    return write_config(tmp_path / name, data)


def run_ok(*args: Any) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return one_json_object(result.stdout)


def show(engine: Engine, run_id: str, *extra: Any, schema: str = DEFAULT) -> dict[str, Any]:
    return run_ok("runs", "show", run_id, "--db", engine.url, "--schema", schema, *extra)["run"]


def list_runs(engine: Engine, schema: str = DEFAULT) -> list[dict[str, Any]]:
    return run_ok("runs", "list", "--db", engine.url, "--schema", schema)["runs"]


def migration_names(start: int = 0) -> list[str]:
    return [f"{m.version:04d}_{m.name}" for m in migrations()[start:]]


# -- migrations ----------------------------------------------------------------------------------------------


def test_upgrade_from_empty_creates_exactly_the_columns_of_the_code(engine: Engine) -> None:
    assert head() == len(migrations()) >= 2
    assert [m.version for m in migrations()] == list(range(1, head() + 1))
    first = run_ok("db", "upgrade", "--db", engine.url)
    assert first["from_version"] == 0 and first["to_version"] == head()
    assert first["applied"] == migration_names()
    assert first["schema"] == DEFAULT
    # The database has exactly the tables and columns the code declares, in that column order.
    assert db_columns(engine, DEFAULT) == COLUMNS
    versions = sql(engine, f"SELECT version, name, sqlanon_version FROM {qn(DEFAULT, 'run_history_version')} "
                           "ORDER BY version")
    assert versions == [(m.version, m.name, sqlanon.__version__) for m in migrations()]
    # Again: nothing to do, nothing changes.
    again = run_ok("db", "upgrade", "--db", engine.url)
    assert (again["from_version"], again["to_version"], again["applied"]) == (head(), head(), [])
    text = invoke("db", "upgrade", "--db", engine.url)
    assert text.exit_code == 0, text.output
    assert f"already at version {head()}" in text.stdout
    assert db_columns(engine, DEFAULT) == COLUMNS
    assert sql(engine, f"SELECT count(*) FROM {qn(DEFAULT, 'run_history_version')}") == [(head(),)]
    status = run_ok("db", "status", "--db", engine.url)
    assert status == {"status": "current", "schema": DEFAULT, "database": status["database"], "version": head(),
                      "latest": head()}


def test_upgrade_step_by_step_from_every_earlier_version_keeps_old_rows(engine: Engine) -> None:
    for start in range(0, head()):
        schema = f"hist_from_{start}"
        readable = invoke("db", "upgrade", "--db", engine.url, "--schema", schema, "--to", start)
        assert readable.exit_code == 0, readable.output
        columns_then = db_columns(engine, schema).get("runs", ())
        if start >= 1:
            assert set(REQUIRED) <= set(columns_then)
            # A row as that version wrote it: every column of that version filled in.
            types = column_types(engine, schema, "runs")
            values = {c: sample_value(types[c], json.dumps({c: start}) if c.endswith("_json") else f"v{start}-{c}")
                      for c in columns_then}
            values["run_id"] = f"old{start}run"
            insert_run(engine, schema, **values)
        status = invoke("db", "status", "--db", engine.url, "--schema", schema, "--json")
        assert status.exit_code == 3, status.output
        assert one_json_object(status.stdout)["status"] == ("missing" if start == 0 else "outdated")
        up = run_ok("db", "upgrade", "--db", engine.url, "--schema", schema)
        assert (up["from_version"], up["to_version"]) == (start, head())
        assert up["applied"] == migration_names(start), f"from version {start}"
        assert db_columns(engine, schema) == COLUMNS, f"from version {start}"
        if start >= 1:
            new = [c for c in COLUMNS["runs"] if c not in columns_then]
            assert new, f"no column added after version {start}?"
            (row,) = sql(engine, f"SELECT {', '.join(quote(c) for c in COLUMNS['runs'])} FROM {qn(schema, 'runs')}")
            by_name = dict(zip(COLUMNS["runs"], row, strict=True))
            assert by_name["run_id"] == f"old{start}run" and by_name["command"] == f"v{start}-command"
            assert by_name["config_json"] == json.dumps({"config_json": start})
            assert by_name["rows_total"] == 7 and by_name["verified"] is True
            assert all(by_name[c] is None for c in new), {c: by_name[c] for c in new}
            # The old row is readable through the current code.
            listed = list_runs(engine, schema)
            assert [r["run_id"] for r in listed] == [f"old{start}run"]
            assert listed[0]["status"] == f"v{start}-status"
            assert listed[0]["transformation"] == {"transformation_json": start}


def test_db_status_exit_codes_and_json(engine: Engine) -> None:
    make_people(engine)  # the database exists (a DuckDB file too), without history
    missing = invoke("db", "status", "--db", engine.url, "--json")
    assert missing.exit_code == 3
    assert one_json_object(missing.stdout) | {"database": None} == {
        "status": "missing", "schema": DEFAULT, "database": None, "version": 0, "latest": head()}
    text = invoke("db", "status", "--db", engine.url)
    assert text.exit_code == 3
    assert f"version 0 of {head()} (missing)" in text.stdout and "'sqlanon'" in text.stdout
    assert DEFAULT not in schemas(engine)  # status only looks

    assert invoke("db", "upgrade", "--db", engine.url, "--to", 1).exit_code == 0
    outdated = invoke("db", "status", "--db", engine.url, "--json")
    assert outdated.exit_code == 3
    assert one_json_object(outdated.stdout)["status"] == "outdated"
    assert one_json_object(outdated.stdout)["version"] == 1
    assert f"version 1 of {head()} (outdated)" in invoke("db", "status", "--db", engine.url).stdout

    assert invoke("db", "upgrade", "--db", engine.url).exit_code == 0
    current = invoke("db", "status", "--db", engine.url)
    assert current.exit_code == 0, current.output
    assert f"version {head()} of {head()} (current)" in current.stdout

    sql(engine, f"INSERT INTO {qn(DEFAULT, 'run_history_version')} VALUES (99, 'future', ?, '99.0')",
        [datetime(2030, 1, 1)])
    newer = invoke("db", "status", "--db", engine.url, "--json")
    assert newer.exit_code == 3
    assert one_json_object(newer.stdout)["status"] == "newer than this sqlanon"
    assert one_json_object(newer.stdout)["version"] == 99
    # db upgrade refuses to touch a newer schema.
    up = invoke("db", "upgrade", "--db", engine.url)
    assert up.exit_code == 2
    assert "version 99" in up.stderr and "newer" in up.stderr


def test_upgrade_to_a_version_that_does_not_exist(engine: Engine) -> None:
    result = invoke("db", "upgrade", "--db", engine.url, "--to", 99)
    assert result.exit_code == 2, result.output
    assert "--to" in result.stderr and "99" in result.stderr and "does not exist" in result.stderr
    assert f"0..{head()}" in result.stderr
    as_json = invoke("db", "upgrade", "--db", engine.url, "--to", 99, "--json")
    assert as_json.exit_code == 2
    assert one_json_object(as_json.stdout)["status"] == "invalid_input"
    negative = invoke("db", "upgrade", "--db", engine.url, "--to", -1)
    assert negative.exit_code == 2 and "--to" in negative.stderr
    assert DEFAULT not in schemas(engine)
    assert invoke("db", "status", "--db", engine.url).exit_code == 3


def test_hostile_schema_name_via_option_and_config(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("x", {"decoy": "INTEGER"}, [(1,)])
    if engine.name == "spark":
        # Spark's session catalog takes letters, digits and _ only in schema names: refused, nothing made.
        refused = invoke("db", "upgrade", "--db", engine.url, "--schema", quote(HOSTILE))
        assert refused.exit_code == 2 and "not a valid name" in refused.stderr, refused.output
        assert HOSTILE not in schemas(engine) and engine.execute('SELECT * FROM "x"') == [(1,)]
        return
    # Double-quoted, the name is exact on both engines (unquoted, PostgreSQL would fold its capitals).
    up = run_ok("db", "upgrade", "--db", engine.url, "--schema", quote(HOSTILE))
    assert up["schema"] == HOSTILE and up["applied"] == migration_names()
    assert HOSTILE in schemas(engine)
    assert db_columns(engine, HOSTILE) == COLUMNS
    assert run_ok("db", "status", "--db", engine.url, "--schema", quote(HOSTILE))["status"] == "current"
    assert run_ok("db", "upgrade", "--db", engine.url, "--schema", quote(HOSTILE))["applied"] == []
    # A run recorded through the config key into the hostile schema; the default schema stays absent.
    make_people(engine)
    result = run_ok("anonymize",
                    write(tmp_path, "c.yaml", people_config(engine.url, history={"schema": quote(HOSTILE)})))
    assert result["run_id"]
    assert DEFAULT not in schemas(engine)
    (listed,) = list_runs(engine, quote(HOSTILE))
    assert listed["run_id"] == result["run_id"] and listed["status"] == "succeeded"
    assert show(engine, result["run_id"][:6], schema=quote(HOSTILE))["transformation"] == result["transformation"]
    # A second, brand-new hostile schema created on first use by anonymize itself.
    other = HOSTILE + " 2"
    second = run_ok("anonymize",
                    write(tmp_path, "c2.yaml", people_config(engine.url, history={"schema": quote(other)})))
    assert [r["run_id"] for r in list_runs(engine, quote(other))] == [second["run_id"]]
    assert db_columns(engine, other) == COLUMNS
    # Nothing was injected: the decoy table named in the schema name's "DROP TABLE x" still exists.
    assert {"x", "people", "people_out"} <= engine.tables()
    assert engine.execute('SELECT * FROM "x"') == [(1,)]


# -- recording -------------------------------------------------------------------------------------------------


def url_with_password(engine: Engine) -> tuple[str, str | None]:
    """PostgreSQL: the test URL with a password (the test server trusts local connections and ignores it)."""
    if engine.name != "postgres":
        return engine.url, None
    from sqlalchemy.engine import make_url

    url = make_url(engine.url)
    secret = url.password or PASSWORD
    return url.set(password=secret).render_as_string(hide_password=False), secret


def test_anonymize_records_a_successful_run(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    url, secret = url_with_password(engine)
    data = people_config(url)
    first_path = write(tmp_path, "a.yaml", data)
    first = run_ok("anonymize", first_path)
    assert first["status"] == "ok" and len(first["run_id"]) == 16
    (listed,) = list_runs(engine)
    assert listed["run_id"] == first["run_id"]
    assert listed["command"] == "anonymize" and listed["status"] == "succeeded" == listed["status_shown"]
    assert listed["transformation"] == first["transformation"]
    assert (listed["source_table"], listed["output_table"]) == ("people", "people_out")
    assert listed["verified"] is True and listed["error"] is None
    assert listed["started_at"].endswith("Z") and listed["finished_at"] >= listed["started_at"]

    run = show(engine, first["run_id"][:8])
    assert run["run_id"] == first["run_id"]
    assert run["config_file"] == str(first_path.resolve())
    assert run["config"]["source"]["table"] == "people"
    assert run["config"]["privacy"]["k"] == 3
    assert run["config"]["attributes"]["zip"]["max_level"] == 3
    if secret is not None:
        assert run["config"]["source"]["url"] == url.replace(f":{secret}@", ":***@")
    else:
        assert run["config"]["source"]["url"] == url
    assert len(run["config_hash"]) == 64 and set(run["config_hash"]) <= set("0123456789abcdef")
    canonical = json.dumps(run["config"], sort_keys=True, separators=(",", ":")).encode()
    assert run["config_hash"] == hashlib.sha256(canonical).hexdigest()
    assert run["metrics"] == first["metrics"] and run["metric"] == "loss"
    assert run["nodes_evaluated"] == first["nodes_evaluated"] and run["lattice_size"] == first["lattice_size"] == 32
    assert run["verified"] is True and run["verification"]["verified"] is True
    assert (run["rows_total"], run["suppressed_rows"]) == (60, first["suppressed_rows"])
    assert run["output_rows"] == 60 - first["suppressed_rows"]
    assert run["sqlanon_version"] == sqlanon.__version__
    assert run["host"] == socket.gethostname() and run["pid"] == os.getpid()  # in-process CliRunner
    assert run["nodes"] == []  # history.store_nodes is off
    assert run["status_shown"] == "succeeded"

    # The identical config (another file, same content) hashes the same; a changed one does not.
    readable = invoke("anonymize", write(tmp_path, "b.yaml", data))
    assert readable.exit_code == 0, readable.output
    second = list_runs(engine)[0]
    assert second["run_id"] != first["run_id"]
    assert f"run id: {second['run_id']} (sqlanon runs show {second['run_id'][:8]}" in readable.stdout
    changed = run_ok("anonymize", write(tmp_path, "k4.yaml", people_config(url, k=4)), "--dry-run")
    assert changed["status"] == "dry_run"
    assert show(engine, second["run_id"])["config_hash"] == run["config_hash"]
    dry = show(engine, changed["run_id"])
    assert dry["config_hash"] != run["config_hash"]
    assert dry["status"] == "dry_run" and dry["output_table"] is None and dry["verified"] is None
    assert dry["transformation"] == changed["transformation"]
    assert [r["run_id"] for r in list_runs(engine)] == [changed["run_id"], second["run_id"], first["run_id"]]
    assert [r["run_id"] for r in run_ok("runs", "list", "--db", engine.url, "--limit", 2)["runs"]] == [
        changed["run_id"], second["run_id"]]

    # Readable forms.
    text = invoke("runs", "list", "--db", engine.url)
    assert text.exit_code == 0, text.output
    assert first["run_id"][:12] in text.stdout and "succeeded" in text.stdout and "dry_run" in text.stdout
    assert "people -> people_out" in text.stdout
    described = invoke("runs", "show", first["run_id"], "--db", engine.url)
    assert described.exit_code == 0, described.output
    assert f"run {first['run_id']}  anonymize  succeeded" in described.stdout
    assert "transformation: " + ", ".join(f"{a}={v}" for a, v in first["transformation"].items()) in described.stdout
    assert "verified: yes" in described.stdout and "source people -> output people_out" in described.stdout

    # The password is nowhere in the history tables.
    if secret is not None:
        for row in sql(engine, f"SELECT * FROM {qn(DEFAULT, 'runs')}"):
            assert not any(secret in str(v) for v in row), row


def test_recorded_config_uses_the_keys_the_user_wrote(engine: Engine, tmp_path: Path) -> None:
    """runs show's config is "the config as the user wrote it": history.schema, not the model's field name."""
    make_people(engine)
    history = {"enabled": True, "schema": "my_history", "create": True, "store_nodes": False}
    result = run_ok("anonymize", write(tmp_path, "c.yaml", people_config(engine.url, history=history)))
    run = show(engine, result["run_id"], schema="my_history")
    assert run["config"]["history"] == history


def test_store_nodes_records_every_lattice_node_and_show_writes_reports(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    config = write(tmp_path, "c.yaml", people_config(engine.url, history={"store_nodes": True}))
    result = run_ok("anonymize", config)
    rows = sql(engine, f"SELECT levels, state, metric FROM {qn(DEFAULT, 'run_nodes')} WHERE run_id = ?",
               [result["run_id"]])
    assert len(rows) == result["lattice_size"] == 32
    lattice = {",".join(map(str, n)) for n in itertools.product(range(4), range(2), range(4))}
    assert {r[0] for r in rows} == lattice
    optimum = [r for r in rows if r[1] == "optimum"]
    assert [r[0] for r in optimum] == [",".join(str(v) for v in result["transformation"].values())]
    assert optimum[0][2] == pytest.approx(result["metrics"]["loss"])
    assert {r[1] for r in rows} <= {"optimum", "feasible", "infeasible", "inferred_feasible", "inferred_infeasible",
                                    "pruned"}
    evaluated = sum(1 for r in rows if r[1] in ("optimum", "feasible", "infeasible"))
    assert evaluated == result["nodes_evaluated"]

    html, report = tmp_path / "run.html", tmp_path / "run.json"
    run = show(engine, result["run_id"][:5], "--report", html, "--report", report)
    assert len(run["nodes"]) == 32
    assert {tuple(n["levels"]) for n in run["nodes"]} == set(itertools.product(range(4), range(2), range(4)))
    assert html.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    assert result["run_id"] in html.read_text(encoding="utf-8")
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["run_id"] == result["run_id"] and written["transformation"] == result["transformation"]
    assert len(written["search"]["nodes"]) == 32
    # Readable runs show with --report works too; a bad report suffix is an input error.
    again = invoke("runs", "show", result["run_id"], "--db", engine.url, "--report", tmp_path / "again.html")
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again.html").is_file()
    bad = invoke("runs", "show", result["run_id"], "--db", engine.url, "--report", tmp_path / "x.pdf")
    assert bad.exit_code == 2, bad.output


def test_no_solution_is_recorded_with_its_error(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    data = people_config(engine.url, k=10, suppression_limit=0)
    for attr in ("age", "sex", "zip"):
        data["attributes"][attr]["max_level"] = 0
    result = invoke("anonymize", write(tmp_path, "nosol.yaml", data))
    assert result.exit_code == 3, result.output
    assert "no transformation" in result.stderr and "k=10" in result.stderr
    assert not table_exists(engine, "people_out")
    (run,) = list_runs(engine)
    assert run["status"] == "no_solution" and run["command"] == "anonymize"
    assert "k=10" in run["error"] and "no transformation" in run["error"]
    assert run["transformation"] is None and run["finished_at"] is not None and run["verified"] is None
    described = invoke("runs", "show", run["run_id"], "--db", engine.url)
    assert described.exit_code == 0
    assert "no_solution" in described.stdout and "error: no transformation" in described.stdout
    # There is no report to write for it.
    no_report = invoke("runs", "show", run["run_id"], "--db", engine.url, "--report", tmp_path / "unused.html")
    assert no_report.exit_code == 2
    assert "no recorded report" in no_report.stderr and "no_solution" in no_report.stderr
    assert not (tmp_path / "unused.html").exists()


def test_config_error_after_connecting_is_recorded_as_failed(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    data = people_config(engine.url)
    data["attributes"]["sex"]["hierarchy"] = {"inline": {"F": ["*"]}}  # 'M' is missing
    result = invoke("anonymize", write(tmp_path, "bad.yaml", data))
    assert result.exit_code == 2, result.output
    assert "missing from level 0" in result.stderr and "'M'" in result.stderr
    assert not table_exists(engine, "people_out")
    (run,) = list_runs(engine)
    assert run["status"] == "failed" and run["finished_at"] is not None
    assert "missing from level 0" in run["error"] and "'M'" in run["error"]
    assert run["transformation"] is None and run["verified"] is None


def test_history_disabled_creates_no_schema(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    result = run_ok("anonymize", write(tmp_path, "c.yaml", people_config(engine.url, history={"enabled": False})))
    assert result["status"] == "ok" and result["run_id"] is None
    assert DEFAULT not in schemas(engine)
    assert not table_exists(engine, "run_history_version") and not table_exists(engine, "runs")
    listed = invoke("runs", "list", "--db", engine.url)
    assert listed.exit_code == 2
    assert "no run history" in listed.stderr


# -- refusals --------------------------------------------------------------------------------------------------


def test_outdated_schema_refuses_to_run(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    assert invoke("db", "upgrade", "--db", engine.url, "--to", 1).exit_code == 0
    config = write(tmp_path, "c.yaml", people_config(engine.url))
    result = invoke("anonymize", config)
    assert result.exit_code == 2, result.output
    assert "at version 1" in result.stderr and f"needs version {head()}" in result.stderr
    assert "sqlanon db upgrade" in result.stderr and "'sqlanon'" in result.stderr
    assert result.stdout == ""
    as_json = invoke("anonymize", config, "--json")
    assert as_json.exit_code == 2
    assert "sqlanon db upgrade" in one_json_object(as_json.stdout)["error"]
    # Nothing written: no output table, no run row, the schema was not upgraded behind the user's back.
    assert not table_exists(engine, "people_out")
    assert sql(engine, f"SELECT count(*) FROM {qn(DEFAULT, 'runs')}") == [(0,)]
    assert run_ok("db", "upgrade", "--db", engine.url)["from_version"] == 1
    assert run_ok("anonymize", config)["status"] == "ok"
    # runs list on an outdated schema says so too.
    assert invoke("db", "upgrade", "--db", engine.url, "--schema", "old", "--to", 1).exit_code == 0
    old = invoke("runs", "list", "--db", engine.url, "--schema", "old")
    assert old.exit_code == 2 and "version 1" in old.stderr and "sqlanon db upgrade" in old.stderr


def test_newer_schema_refuses_to_run(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    assert invoke("db", "upgrade", "--db", engine.url).exit_code == 0
    sql(engine, f"INSERT INTO {qn(DEFAULT, 'run_history_version')} VALUES (99, 'future', ?, '99.0')",
        [datetime(2030, 1, 1)])
    result = invoke("anonymize", write(tmp_path, "c.yaml", people_config(engine.url)))
    assert result.exit_code == 2, result.output
    assert "newer" in result.stderr and "version 99" in result.stderr
    assert not table_exists(engine, "people_out")
    assert sql(engine, f"SELECT count(*) FROM {qn(DEFAULT, 'runs')}") == [(0,)]
    listed = invoke("runs", "list", "--db", engine.url)
    assert listed.exit_code == 2 and "newer" in listed.stderr


def test_history_create_false_needs_an_existing_schema(engine: Engine, tmp_path: Path) -> None:
    make_people(engine)
    config = write(tmp_path, "c.yaml", people_config(engine.url, history={"create": False, "schema": "audit"}))
    result = invoke("anonymize", config)
    assert result.exit_code == 2, result.output
    assert "'audit' does not exist" in result.stderr
    assert "sqlanon db upgrade" in result.stderr and "--schema audit" in result.stderr
    assert "history.enabled: false" in result.stderr
    assert "audit" not in schemas(engine)
    assert not table_exists(engine, "people_out")
    assert invoke("db", "upgrade", "--db", engine.url, "--schema", "audit").exit_code == 0
    assert run_ok("anonymize", config)["status"] == "ok"
    assert len(list_runs(engine, "audit")) == 1


# -- concurrency (PostgreSQL) ----------------------------------------------------------------------------------


@pytest.fixture
def pg_engine(postgres_server_url: str) -> Iterator[Engine]:
    eng = Engine.postgres_database(postgres_server_url, f"t_{secrets.token_hex(6)}")
    try:
        yield eng
        eng.assert_sources_unchanged()
    finally:
        eng.close()
        eng.drop_database()


def test_concurrent_upgrades_apply_each_migration_once(pg_engine: Engine) -> None:
    # Threads, started together at a barrier, each with its own connection.
    workers = 6
    barrier = threading.Barrier(workers)
    applied: list[list[int]] = []
    errors: list[BaseException] = []

    def work() -> None:
        adapter = adapter_for_url(pg_engine.url)
        adapter.connect()
        try:
            barrier.wait(timeout=30)
            applied.append([m.version for m in upgrade(adapter, HOSTILE)])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            adapter.close()

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert sorted(v for versions in applied for v in versions) == list(range(1, head() + 1))
    assert sql(pg_engine, f"SELECT version FROM {qn(HOSTILE, 'run_history_version')} ORDER BY version") == [
        (v,) for v in range(1, head() + 1)]
    assert db_columns(pg_engine, HOSTILE) == COLUMNS

    # Real processes of the console script.
    procs = [subprocess.Popen([str(SQLANON), "db", "upgrade", "--db", pg_engine.url, "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    reports = [one_json_object(out) for out, _ in outputs]
    assert sorted(name for r in reports for name in r["applied"]) == migration_names()
    assert all(r["to_version"] == head() for r in reports)
    assert sql(pg_engine, f"SELECT count(*) FROM {qn(DEFAULT, 'run_history_version')}") == [(head(),)]


# -- runs list / show errors -----------------------------------------------------------------------------------


def test_runs_show_errors(engine: Engine) -> None:
    assert invoke("db", "upgrade", "--db", engine.url).exit_code == 0
    insert_run(engine, DEFAULT, "abcd1111aaaa0000")
    insert_run(engine, DEFAULT, "abcd2222bbbb0000", status="failed", error="boom")

    unknown = invoke("runs", "show", "ffff0000", "--db", engine.url)
    assert unknown.exit_code == 2
    assert "no run with id 'ffff0000'" in unknown.stderr and "sqlanon runs list" in unknown.stderr
    short = invoke("runs", "show", "abc", "--db", engine.url)
    assert short.exit_code == 2 and "'abc'" in short.stderr and "at least 4 characters" in short.stderr
    ambiguous = invoke("runs", "show", "abcd", "--db", engine.url)
    assert ambiguous.exit_code == 2 and "'abcd' is ambiguous" in ambiguous.stderr
    as_json = invoke("runs", "show", "abcd", "--db", engine.url, "--json")
    assert as_json.exit_code == 2
    assert one_json_object(as_json.stdout) == {"status": "invalid_input", "exit_code": 2,
                                               "error": one_json_object(as_json.stdout)["error"]}
    assert "ambiguous" in one_json_object(as_json.stdout)["error"]
    # LIKE wildcards in a prefix match nothing (the prefix is compared literally).
    assert invoke("runs", "show", "abcd%", "--db", engine.url).exit_code == 2
    assert invoke("runs", "show", "ab__", "--db", engine.url).exit_code == 2
    # A unique prefix and the full id both work.
    assert show(engine, "abcd1")["run_id"] == "abcd1111aaaa0000"
    failed = show(engine, "abcd2222bbbb0000")
    assert failed["status"] == "failed" and failed["error"] == "boom" and failed["config"] == {}


def test_runs_list_marks_a_run_whose_process_is_gone(engine: Engine) -> None:
    assert invoke("db", "upgrade", "--db", engine.url).exit_code == 0
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    insert_run(engine, DEFAULT, "dead0000dead0000", status="running", host=socket.gethostname(), pid=dead.pid)
    insert_run(engine, DEFAULT, "live0000live0000", status="running", host=socket.gethostname(), pid=os.getpid())
    shown = {r["run_id"]: r["status_shown"] for r in list_runs(engine)}
    assert shown == {"dead0000dead0000": "running (process gone: killed?)", "live0000live0000": "running"}
    text = invoke("runs", "list", "--db", engine.url)
    assert "running (process gone: killed?)" in text.stdout


def test_runs_commands_without_history(engine: Engine) -> None:
    if engine.name == "duckdb":
        gone = invoke("runs", "list", "--db", engine.url)  # the DuckDB file does not exist yet
        assert gone.exit_code == 2 and "not found" in gone.stderr
        assert not Path(engine.extra["path"]).exists()  # and reading did not create it
    make_people(engine)
    listed = invoke("runs", "list", "--db", engine.url)
    assert listed.exit_code == 2, listed.output
    assert "no run history" in listed.stderr and "'sqlanon'" in listed.stderr
    shown = invoke("runs", "show", "abcd1234", "--db", engine.url, "--json")
    assert shown.exit_code == 2
    assert "no run history" in one_json_object(shown.stdout)["error"]
    other = invoke("runs", "list", "--db", engine.url, "--schema", "elsewhere")
    assert other.exit_code == 2 and "'elsewhere'" in other.stderr
    assert DEFAULT not in schemas(engine)
