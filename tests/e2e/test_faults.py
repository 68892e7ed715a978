"""Faults during ``sqlanon anonymize`` on both engines, checked on the data *and* in the run history.

The console script runs as a real process (as in test_interrupt.py) with the fault-injection hooks
SQLANON_FAULT_PAUSE_IN_SEARCH (a pause right after the first lattice node was evaluated: the temporary tables
holding raw quasi-identifiers exist) and SQLANON_FAULT_PAUSE_IN_WRITE (a pause inside the write transaction).
While it sits in a pause the test kills it, presses Ctrl-C, drops its database connection, or starts a second
run next to it. Afterwards: the source is unchanged, no output and no ``sqlanon_*`` relation is left (unless a
run legitimately finished), ``sqlanon.runs`` says what happened (``running`` for a killed process, shown as
gone by ``runs list``; ``interrupted``; ``failed`` with the error), and a new run succeeds.

The last two tests are about what a run leaves in the history and in reports: never a password, and hostile
identifiers shown faithfully but escaped in HTML.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import sqlanon
from sqlanon.errors import SqlanonError
from tests.e2e.test_hostile_identifiers import (
    APOS_COL,
    KEYWORD_COL,
    OUTPUT,
    PCT_COL,
    QUOTE_COL,
    SEMI_COL,
    SOURCE,
    UNICODE_COL,
    create,
    raw,
)
from tests.e2e.test_interrupt import (
    SQLANON,
    config_data,
    leftovers,
    make_source,
    postgres_in_write,
    sleeping,
    snapshot,
    wait_for_server_cleanup,
)
from tests.helpers import Engine, invoke, quote, sigint_as_usual, write_config

SEARCH_PAUSE = "SQLANON_FAULT_PAUSE_IN_SEARCH"
WRITE_PAUSE = "SQLANON_FAULT_PAUSE_IN_WRITE"
LONG_PAUSE = 60  # the test ends the process (signal) long before this pause would end
DROP_PAUSE = 4  # the connection is dropped within the pause, then the run resumes and finds it gone
HOLD_PAUSE = 10  # a run holds a DuckDB file this long while a second process tries to open it
WAIT_LIMIT = 60  # seconds for a process to reach a pause (start, imports, preparation) on a loaded machine
GONE = "running (process gone: killed?)"
PASSWORD = "s3cr3t-PW-xyz"
WRONG_PASSWORD = "n0t-th3-PW-abc"


# --- running the console script -------------------------------------------------------------------------------


def _env(pauses: dict[str, float] | None = None, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQLANON_FAULT_")}
    env.update({k: str(v) for k, v in (pauses or {}).items()})
    env.update(extra or {})
    return env


def start(*args: Any, pauses: dict[str, float] | None = None,
          extra_env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([str(SQLANON), *map(str, args)], env=_env(pauses, extra_env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=sigint_as_usual)


def run_cli(*args: Any, extra_env: dict[str, str] | None = None,
            timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SQLANON), *map(str, args)], env=_env(None, extra_env), capture_output=True,
                          text=True, timeout=timeout)




def wait_for(proc: subprocess.Popen[str], ready: Callable[[], bool], what: str, limit: float = WAIT_LIMIT) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"sqlanon ended (exit {proc.returncode}) before {what}:\n{out}\n{err}")
        if ready():
            return
        time.sleep(0.1)
    proc.kill()
    proc.communicate()
    pytest.fail(f"sqlanon did not reach {what} within {limit}s")


def postgres_temp_tables(engine: Engine) -> list[str]:
    """sqlanon_* temporary tables of other sessions (pg_class shows every session's temporary relations)."""
    rows = engine.con.execute(
        "SELECT relname FROM pg_class WHERE relpersistence = 't' AND relkind = 'r' AND left(relname, 8) = 'sqlanon_'"
    ).fetchall()
    return [r[0] for r in rows]


def in_search(proc: subprocess.Popen[str], engine: Engine) -> Callable[[], bool]:
    """The process sleeps in the search pause; on PostgreSQL its temporary raw-data tables exist meanwhile."""
    def ready() -> bool:
        return sleeping(proc.pid) and (engine.name != "postgres" or bool(postgres_temp_tables(engine)))
    return ready


def in_write(proc: subprocess.Popen[str], engine: Engine) -> Callable[[], bool]:
    def ready() -> bool:
        return sleeping(proc.pid) and (engine.name != "postgres" or postgres_in_write(engine))
    return ready


# --- the database and its history -----------------------------------------------------------------------------


def make_config(engine: Engine, tmp_path: Path, name: str = "faults.yaml", output: str = "src_k4",
                url: str | None = None) -> Path:
    return write_config(tmp_path / name, config_data(url or engine.url, output))


def user_tables(engine: Engine) -> set[str]:
    """Tables outside the history schema and the catalogs (temporary tables of other sessions excluded)."""
    if engine.name == "duckdb":
        rows = engine.execute("SELECT table_name FROM information_schema.tables WHERE table_schema <> 'sqlanon'")
    else:
        rows = engine.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema NOT IN "
            "('pg_catalog', 'information_schema', 'sqlanon') AND left(table_schema, 7) <> 'pg_temp'")
    return {r[0] for r in rows}


RUN_COLUMNS = ("run_id", "command", "status", "error", "started_at", "finished_at", "host", "pid", "source_table",
               "output_table", "output_rows", "verified")


def history(engine: Engine) -> list[dict[str, Any]]:
    """The rows of sqlanon.runs, oldest first."""
    rows = engine.execute(f"SELECT {', '.join(RUN_COLUMNS)} FROM sqlanon.runs ORDER BY started_at, run_id")
    return [dict(zip(RUN_COLUMNS, r, strict=True)) for r in rows]


def listed_runs(engine: Engine) -> dict[str, dict[str, Any]]:
    result = invoke("runs", "list", "--db", engine.url, "--json")
    assert result.exit_code == 0, result.output
    return {r["run_id"]: r for r in json.loads(result.stdout)["runs"]}


def listed_text(engine: Engine) -> str:
    result = invoke("runs", "list", "--db", engine.url)
    assert result.exit_code == 0, result.output
    return result.stdout


def line_of(text: str, run_id: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.startswith(run_id[:12])]
    assert len(lines) == 1, f"run {run_id} not listed once:\n{text}"
    return lines[0]


def assert_nothing_written(engine: Engine, before: list[tuple]) -> None:
    assert snapshot(engine) == before, "the source changed"
    assert user_tables(engine) == {"src"}, "an output (or half of one) was written"
    assert leftovers(engine) == set(), "sqlanon_* relations were left behind"


def rerun(engine: Engine, config_path: Path) -> dict[str, Any]:
    """Nothing (lock, half-written table, stale temporary, stale history row) stands in the way of a new run."""
    result = invoke("anonymize", str(config_path), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["verified"] is True
    assert leftovers(engine) == set()
    return report


def output_rows(engine: Engine, table: str) -> list[tuple]:
    return sorted(engine.execute(f"SELECT * FROM {quote(table)}"), key=repr)


def check_k(engine: Engine, table: str, k: int = 4) -> None:
    result = invoke("check", "--db", engine.url, "--table", table, "--qi", "age,sex,zip", "--k", k, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["k_anonymous"] is True


# --- 1, 2: SIGKILL in the search and in the write ---------------------------------------------------------------


@pytest.mark.parametrize("phase", ["search", "write"])
def test_sigkill_leaves_nothing_and_history_shows_the_run_gone(engine: Engine, tmp_path: Path, phase: str) -> None:
    make_source(engine)
    before = snapshot(engine)
    path = make_config(engine, tmp_path)
    proc = start("anonymize", path, "--json", pauses={SEARCH_PAUSE if phase == "search" else WRITE_PAUSE: LONG_PAUSE})
    if phase == "search":
        wait_for(proc, in_search(proc, engine), "the search pause")
    else:
        wait_for(proc, in_write(proc, engine), "the write pause")
    if engine.name == "postgres":
        assert "src_k4" not in engine.tables()
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, out, err)
    assert out == ""  # the run never finished, so it reported nothing
    wait_for_server_cleanup(engine)
    assert_nothing_written(engine, before)

    # The history: the row inserted before any work is still `running`, naming the dead process.
    (run,) = history(engine)
    assert run["status"] == "running" and run["finished_at"] is None and run["error"] is None, run
    assert run["pid"] == proc.pid and run["command"] == "anonymize" and run["output_table"] == "src_k4"
    listed = listed_runs(engine)[run["run_id"]]
    assert listed["status"] == "running" and listed["status_shown"] == GONE
    assert f"  {GONE}  " in line_of(listed_text(engine), run["run_id"])
    shown = invoke("runs", "show", run["run_id"][:8], "--db", engine.url)
    assert shown.exit_code == 0 and GONE in shown.stdout.splitlines()[0], shown.output

    # A new run succeeds and is recorded next to the dead one, which stays marked as gone.
    report = rerun(engine, path)
    assert user_tables(engine) == {"src", "src_k4"}
    check_k(engine, "src_k4")
    runs = {r["run_id"]: r for r in history(engine)}
    assert set(runs) == {run["run_id"], report["run_id"]}
    assert runs[report["run_id"]]["status"] == "succeeded" and runs[run["run_id"]]["status"] == "running"
    assert listed_runs(engine)[run["run_id"]]["status_shown"] == GONE


# --- 3: Ctrl-C in the search --------------------------------------------------------------------------------


def test_ctrl_c_during_search_exits_130_and_records_interrupted(engine: Engine, tmp_path: Path) -> None:
    make_source(engine)
    before = snapshot(engine)
    path = make_config(engine, tmp_path)
    proc = start("anonymize", path, pauses={SEARCH_PAUSE: LONG_PAUSE})
    wait_for(proc, in_search(proc, engine), "the search pause")
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - started < LONG_PAUSE / 2, "Ctrl-C did not interrupt the search promptly"
    assert proc.returncode == 130, (out, err)
    assert "sqlanon: interrupted; nothing was written" in err and "Traceback" not in out + err
    assert out == ""
    wait_for_server_cleanup(engine)
    assert_nothing_written(engine, before)

    (run,) = history(engine)
    assert run["status"] == "interrupted" and run["error"] == "interrupted; nothing was written", run
    assert run["finished_at"] is not None and run["pid"] == proc.pid
    assert listed_runs(engine)[run["run_id"]]["status_shown"] == "interrupted"
    assert "  interrupted  " in line_of(listed_text(engine), run["run_id"])
    rerun(engine, path)


# --- 4: concurrent runs ---------------------------------------------------------------------------------------


def _concurrently(engine: Engine, configs: list[Path], monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict, str]]:
    """Run anonymize on each config at the same time; (exit code, JSON result or {}, error message) each.

    PostgreSQL: separate processes, each with pauses in the search and in the write so that the runs overlap
    even if one process starts seconds after the other. DuckDB: a database file can be opened by one process
    only (test_second_process_on_a_held_duckdb_file_gets_a_clear_error), but within a process the DuckDB
    client shares one database instance among connections, so concurrent runs on one file are threads calling
    the Python API.
    """
    if engine.name == "postgres":
        procs = [start("anonymize", c, "--json", pauses={SEARCH_PAUSE: 3, WRITE_PAUSE: 3}) for c in configs]
        out = []
        for proc in procs:
            stdout, stderr = proc.communicate(timeout=180)
            assert "Traceback" not in stdout + stderr, stderr
            doc = json.loads(stdout)
            out.append((proc.returncode, doc if proc.returncode == 0 else {}, doc.get("error", "")))
        return out

    def one(path: Path) -> tuple[int, dict, str]:
        try:
            return 0, sqlanon.anonymize(path).to_dict(), ""
        except SqlanonError as exc:
            return exc.exit_code, {}, str(exc)

    with monkeypatch.context() as patched, ThreadPoolExecutor(len(configs)) as pool:
        patched.setenv(SEARCH_PAUSE, "1.5")
        patched.setenv(WRITE_PAUSE, "1.5")
        return list(pool.map(one, configs))


def create_history(engine: Engine) -> None:
    result = invoke("db", "upgrade", "--db", engine.url)
    assert result.exit_code == 0, result.output


def test_two_runs_at_once_do_not_collide(engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same source, different outputs, started together: both succeed, are recorded apart and write the same
    (correct) table a run on its own writes."""
    make_source(engine)
    before = snapshot(engine)
    create_history(engine)  # creating it at the same moment is the next test
    configs = [make_config(engine, tmp_path, f"{name}.yaml", output=name) for name in ("out_a", "out_b")]
    results = _concurrently(engine, configs, monkeypatch)
    assert [r[0] for r in results] == [0, 0], results
    docs = [r[1] for r in results]
    assert all(d["verified"] for d in docs)
    assert docs[0]["run_id"] != docs[1]["run_id"]
    assert docs[0]["transformation"] == docs[1]["transformation"]

    wait_for_server_cleanup(engine)
    assert snapshot(engine) == before
    assert user_tables(engine) == {"src", "out_a", "out_b"}
    assert leftovers(engine) == set()
    runs = history(engine)
    assert {r["run_id"] for r in runs} == {d["run_id"] for d in docs}
    assert [r["status"] for r in runs] == ["succeeded", "succeeded"]
    assert {r["output_table"] for r in runs} == {"out_a", "out_b"}
    # They really ran at the same time: each started before the other finished.
    assert max(r["started_at"] for r in runs) < min(r["finished_at"] for r in runs), runs

    # Both outputs are complete and correct: k-anonymous, and the same rows as a run on its own.
    reference = rerun(engine, make_config(engine, tmp_path, "ref.yaml", output="out_ref"))
    assert reference["transformation"] == docs[0]["transformation"]
    for table, doc in zip(("out_a", "out_b"), docs, strict=True):
        check_k(engine, table)
        assert len(output_rows(engine, table)) == doc["output_rows"] == reference["output_rows"]
        assert output_rows(engine, table) == output_rows(engine, "out_ref")


def test_first_two_runs_create_the_history_schema_at_once(engine: Engine, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runs on a database without the history schema, started together: both create it (the first use
    needs no `sqlanon db upgrade`); both must succeed and each migration must be applied once."""
    make_source(engine)
    configs = [make_config(engine, tmp_path, f"{name}.yaml", output=name) for name in ("out_a", "out_b")]
    results = _concurrently(engine, configs, monkeypatch)
    assert [r[0] for r in results] == [0, 0], [r[2] or "ok" for r in results]
    assert sorted(r["status"] for r in history(engine)) == ["succeeded", "succeeded"]
    versions = [r[0] for r in engine.execute("SELECT version FROM sqlanon.run_history_version ORDER BY version")]
    assert versions == list(range(1, len(versions) + 1)) and len(versions) >= 2, versions
    assert user_tables(engine) == {"src", "out_a", "out_b"}


def test_two_runs_racing_for_one_output_table_one_wins(engine: Engine, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Same output table, if_exists fail, both past the existence check before either renames: one run writes
    the table, the other fails with a message naming it and leaves nothing (its half-built table rolls back)."""
    make_source(engine)
    before = snapshot(engine)
    create_history(engine)  # this test is about the output table, not the history schema
    configs = [make_config(engine, tmp_path, f"{name}.yaml") for name in ("first", "second")]
    results = _concurrently(engine, configs, monkeypatch)
    codes = sorted(r[0] for r in results)
    assert codes[0] == 0 and codes[1] in (1, 2), results
    (winner,) = [r[1] for r in results if r[0] == 0]
    (message,) = [r[2] for r in results if r[0] != 0]

    wait_for_server_cleanup(engine)
    assert snapshot(engine) == before
    assert user_tables(engine) == {"src", "src_k4"}
    assert leftovers(engine) == set()
    check_k(engine, "src_k4")
    assert len(output_rows(engine, "src_k4")) == winner["output_rows"]
    runs = {r["run_id"]: r for r in history(engine)}
    assert len(runs) == 2 and runs[winner["run_id"]]["status"] == "succeeded"
    (loser,) = [r for r in runs.values() if r["run_id"] != winner["run_id"]]
    assert loser["status"] == "failed" and loser["error"] == message, loser
    # The table is the winner's and complete: the same rows as a run on its own produces.
    reference = rerun(engine, make_config(engine, tmp_path, "ref.yaml", output="out_ref"))
    assert output_rows(engine, "src_k4") == output_rows(engine, "out_ref")
    assert reference["output_rows"] == winner["output_rows"]
    # Last, the loser's message: it must say what happened (the table exists now), and name the table.
    # DuckDB may detect the conflict before the winner commits; the table is then not visible yet.
    assert "src_k4" in message and "was created by another run at the same time" in message, message


def test_output_table_created_by_an_uncommitted_transaction_is_a_race(duckdb_engine: Engine,
                                                                       tmp_path: Path) -> None:
    """DuckDB only: another transaction has created the output table but not committed. The run cannot see it
    at its existence check; its rename then meets DuckDB's write-write conflict, which must read as the race
    (exit 2, nothing written), not as a raw engine error. (PostgreSQL waits for the other transaction instead;
    the race test above covers it.)"""
    import duckdb

    engine = duckdb_engine
    make_source(engine)
    before = snapshot(engine)
    config = make_config(engine, tmp_path)
    other = duckdb.connect(engine.extra["path"])  # same process: the same database instance as the run's
    try:
        other.execute("BEGIN")
        other.execute('CREATE TABLE "src_k4" AS SELECT 1 AS x')
        with pytest.raises(SqlanonError) as caught:
            sqlanon.anonymize(config)
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert caught.value.exit_code == 2
    assert "src_k4" in str(caught.value) and "was created by another run at the same time" in str(caught.value)
    assert "already exists now" not in str(caught.value)  # it was not visible to this run
    assert snapshot(engine) == before
    assert user_tables(engine) == {"src"}
    assert leftovers(engine) == set()


def test_second_process_on_a_held_duckdb_file_gets_a_clear_error(duckdb_engine: Engine, tmp_path: Path) -> None:
    """DuckDB only: a file is opened by one process at a time (PostgreSQL: see the two tests above). A second
    `anonymize` and a `runs list` while a run holds the file fail at once with exit 1 and a message naming the
    database; the holding run is undisturbed and completes."""
    engine = duckdb_engine
    make_source(engine)
    before = snapshot(engine)
    path = make_config(engine, tmp_path)
    holder = start("anonymize", path, "--json", pauses={SEARCH_PAUSE: HOLD_PAUSE})
    wait_for(holder, lambda: sleeping(holder.pid), "the search pause")
    second = start("anonymize", path, "--json")
    lister = start("runs", "list", "--db", engine.url)
    results = []
    for other in (second, lister):
        out, err = other.communicate(timeout=60)
        results.append((other.returncode, out, err))
    assert holder.poll() is None and sleeping(holder.pid), (
        f"the machine is too slow: the holding run left its {HOLD_PAUSE}s pause before the others ended")
    for code, out, err in results:
        assert code == 1, (code, out, err)
        assert f"sqlanon: error: cannot open DuckDB database {engine.url}" in err, err
        assert "lock" in err.lower() and "Traceback" not in out + err
    assert json.loads(results[0][1]) == {"status": "error", "error": err_text(results[0][2]), "exit_code": 1}

    out, err = holder.communicate(timeout=120)
    assert holder.returncode == 0, (out, err)
    assert json.loads(out)["verified"] is True
    assert snapshot(engine) == before
    assert user_tables(engine) == {"src", "src_k4"}
    check_k(engine, "src_k4")
    (run,) = history(engine)  # the refused process never opened the file, so it recorded nothing
    assert run["status"] == "succeeded" and run["pid"] == holder.pid


def err_text(stderr: str) -> str:
    (line,) = [ln for ln in stderr.splitlines() if ln.startswith("sqlanon: error: ")]
    return line[len("sqlanon: error: "):]


# --- 5: the database connection dropped mid-run -----------------------------------------------------------------


@pytest.mark.parametrize("phase", ["search", "write"])
def test_connection_dropped_mid_run_fails_cleanly(engine: Engine, tmp_path: Path, phase: str) -> None:
    # DuckDB runs inside the sqlanon process: there is no connection that could be dropped.
    if engine.name == "duckdb":
        pytest.skip("DuckDB is in-process: there is no database connection to drop")
    make_source(engine)
    before = snapshot(engine)
    path = make_config(engine, tmp_path)
    proc = start("anonymize", path, "--json", pauses={SEARCH_PAUSE if phase == "search" else WRITE_PAUSE: DROP_PAUSE})
    wait_for(proc, (in_search if phase == "search" else in_write)(proc, engine), f"the {phase} pause")
    backends = engine.con.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND backend_type = 'client backend'").fetchall()
    assert len(backends) == 1, f"expected one backend per run, found {backends}"
    (terminated,) = engine.con.execute("SELECT pg_terminate_backend(%s)", [backends[0][0]]).fetchone()
    assert terminated is True
    assert proc.poll() is None and sleeping(proc.pid), "the connection was not dropped during the pause"

    out, err = proc.communicate(timeout=DROP_PAUSE + 60)
    assert proc.returncode == 1, (out, err)
    assert "Traceback" not in out + err
    assert err.startswith("sqlanon: error: lost the connection to postgresql+psycopg://"), err
    assert "nothing was written" in err
    document = json.loads(out)
    assert document["exit_code"] == 1 and document["status"] == "error"
    message = document["error"]
    assert message.startswith("lost the connection to ") and message == err_text(err)

    wait_for_server_cleanup(engine)
    assert_nothing_written(engine, before)
    # Recorded through a fresh connection, since the run's own was gone.
    (run,) = history(engine)
    assert run["status"] == "failed" and run["error"] == message and run["finished_at"] is not None, run
    assert listed_runs(engine)[run["run_id"]]["status_shown"] == "failed"
    shown = invoke("runs", "show", run["run_id"], "--db", engine.url)
    assert shown.exit_code == 0 and f"error: {message}" in shown.stdout
    rerun(engine, path)
    # The rerun closed its connection; the server ends that backend a moment later (CI on 584f408 saw it still
    # listed once, under load), so its absence is awaited, bounded, as after the dropped one.
    wait_for_server_cleanup(engine)


# --- 6: passwords never leak ---------------------------------------------------------------------------------


def _require_password(engine: Engine, role: str) -> Callable[[], None] | None:
    """Make the server ask `role` for its password (pg_hba.conf, reloaded), when the file is ours to edit.

    Returns the undo, or None when the server's authentication cannot be changed from here (then the server
    may simply ignore the password, which does not matter for what this test checks)."""
    import psycopg

    host = engine.con.info.host
    if not (host.startswith("/") or host in ("localhost", "127.0.0.1", "::1")):
        return None  # a remote server: its pg_hba.conf is not ours
    try:
        hba = Path(engine.con.execute("SHOW hba_file").fetchone()[0])
    except psycopg.Error:  # not a superuser
        return None
    if not (hba.is_file() and os.access(hba, os.W_OK)):
        return None
    original = hba.read_text()
    rules = (f"local all {role} scram-sha-256\nhost all {role} 127.0.0.1/32 scram-sha-256\n"
             f"host all {role} ::1/128 scram-sha-256\n")
    hba.write_text(rules + original)
    engine.con.execute("SELECT pg_reload_conf()")

    def undo() -> None:
        hba.write_text(original)
        engine.con.execute("SELECT pg_reload_conf()")
    return undo


def _url(engine: Engine, **parts: Any) -> str:
    from sqlalchemy.engine import make_url

    return make_url(engine.url).set(**parts).render_as_string(hide_password=False)


def _rejected(url: str) -> bool:
    import psycopg

    try:
        psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://", 1), connect_timeout=5).close()
    except psycopg.OperationalError as exc:
        return "password authentication failed" in str(exc)
    return False


def test_passwords_never_leak(engine: Engine, tmp_path: Path) -> None:
    if engine.name == "duckdb":
        pytest.skip("DuckDB has no passwords")
    role = f"anon_pw_{secrets.token_hex(4)}"
    dbname = engine.con.info.dbname
    engine.con.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{PASSWORD}'")
    undo = None
    try:
        engine.con.execute(f'GRANT CONNECT, CREATE, TEMPORARY ON DATABASE "{dbname}" TO {role}')
        engine.con.execute(f"GRANT USAGE, CREATE ON SCHEMA public TO {role}")
        make_source(engine)
        engine.con.execute(f"GRANT SELECT ON src TO {role}")
        undo = _require_password(engine, role)
        url = _url(engine, username=role, password=PASSWORD)
        assert PASSWORD in url
        enforced = False
        if undo is not None:  # prove that the server now checks the password (the reload is asynchronous)
            deadline = time.monotonic() + 15
            while not (enforced := _rejected(_url(engine, username=role, password=WRONG_PASSWORD))):
                assert time.monotonic() < deadline, "the server did not start asking for the password"
                time.sleep(0.2)
            assert not _rejected(url)
        _passwords_never_leak(engine, tmp_path, role, enforced)
    finally:
        if undo is not None:
            undo()
        engine.con.execute(f"DROP OWNED BY {role}")
        engine.con.execute(f"DROP ROLE {role}")


def _passwords_never_leak(engine: Engine, tmp_path: Path, role: str, enforced: bool) -> None:
    url = _url(engine, username=role, password=PASSWORD)
    env = {"SQLANON_TEST_SECRET_URL": url}
    texts: dict[str, str] = {}
    pending: list[tuple[str, int, subprocess.Popen[str]]] = []

    def launch(label: str, *args: Any, code: int = 0) -> None:
        pending.append((label, code, start(*args, extra_env=env)))

    def finish() -> dict[str, tuple[str, str]]:
        """Wait for every launched process (they run in parallel); stdout and stderr per label."""
        done = {}
        for label, code, proc in pending:
            out, err = proc.communicate(timeout=180)
            texts[f"{label}: stdout"], texts[f"{label}: stderr"] = out, err
            assert proc.returncode == code, (label, proc.returncode, out, err)
            assert "Traceback" not in out + err, (label, err)
            done[label] = (out, err)
        pending.clear()
        return done

    # The password in source.url, with --report (HTML, JSON), --json and --save-transformation.
    in_config = make_config(engine, tmp_path, "in_config.yaml", output="out_a", url=url)
    launch("anonymize, url in config", "anonymize", in_config, "--json", "--report", tmp_path / "r.html",
           "--report", tmp_path / "r.json", "--save-transformation", tmp_path / "t.json")
    first = json.loads(finish()["anonymize, url in config"][0])
    run_id = first["run_id"]
    assert ":***@" in first["database"]

    # Then everything else at once: the password in --db and through ${ENV} in the config; reading the history
    # and writing a report again; applying the recorded run; failures (missing table: recorded as failed;
    # unreachable server; wrong password when the server checks passwords).
    on_cli = make_config(engine, tmp_path, "on_cli.yaml", output="out_b", url="duckdb:///:memory:")
    launch("anonymize --db", "anonymize", on_cli, "--db", url, "--report", tmp_path / "r2.html")
    from_env = make_config(engine, tmp_path, "from_env.yaml", output="out_c", url="${SQLANON_TEST_SECRET_URL}")
    launch("anonymize, url from env", "anonymize", from_env, "--json", "--report", tmp_path / "r3.json")
    launch("runs list --json", "runs", "list", "--db", url, "--json")
    launch("runs list", "runs", "list", "--db", url)
    launch("runs show --json", "runs", "show", run_id, "--db", url, "--json")
    launch("runs show --report", "runs", "show", run_id, "--db", url, "--report", tmp_path / "shown.html")
    launch("apply --run", "apply", "--run", run_id, "--db", url, "--source", "src", "--output", "out_apply",
           "--json", "--report", tmp_path / "apply.json")
    launch("apply --transformation, no --db", "apply", "--transformation", tmp_path / "t.json", "--source", "src",
           "--output", "out_t", code=2)
    missing = make_config(engine, tmp_path, "missing.yaml", output="out_x", url=url)
    missing.write_text(missing.read_text().replace("table: src", "table: no_such_table"))
    launch("missing table", "anonymize", missing, "--json", code=2)
    wrong_port = _url(engine, username="u", password=PASSWORD, host="127.0.0.1", port=1, query={})
    launch("wrong port", "anonymize", on_cli, "--db", wrong_port, "--json", code=1)
    launch("runs list, wrong port", "runs", "list", "--db", wrong_port, code=1)
    if enforced:
        launch("wrong password", "anonymize", on_cli, "--db", _url(engine, username=role, password=WRONG_PASSWORD),
               code=1)
    done = finish()
    assert "password removed; give --db URL" in done["apply --transformation, no --db"][1]
    assert "no_such_table" in done["missing table"][1] and ":***@" in done["missing table"][1]
    assert "cannot connect to postgresql+psycopg://u:***@127.0.0.1:1/" in done["wrong port"][1]
    if enforced:
        assert "password authentication failed" in done["wrong password"][1]
    shown = json.loads(done["runs show --json"][0])["run"]
    assert shown["run_id"] == run_id and ":***@" in shown["config"]["source"]["url"]

    for name in ("r.html", "r.json", "t.json", "r2.html", "r3.json", "shown.html", "apply.json"):
        texts[name] = (tmp_path / name).read_text(encoding="utf-8")
    # Every column of every history row, as text (config, report, error, ...).
    texts["sqlanon.runs"] = "\n".join(r[0] for r in engine.con.execute("SELECT r::text FROM sqlanon.runs r"))
    texts["sqlanon.run_nodes"] = "\n".join(r[0] for r in engine.con.execute("SELECT n::text FROM sqlanon.run_nodes n"))
    statuses = sorted(r[0] for r in engine.con.execute("SELECT status FROM sqlanon.runs"))
    assert statuses == ["failed"] + ["succeeded"] * 4, statuses
    assert "***" in texts["sqlanon.runs"] and "no_such_table" in texts["sqlanon.runs"]

    leaks = [where for where, text in texts.items() if PASSWORD in text or WRONG_PASSWORD in text]
    assert leaks == [], f"the password appears in: {leaks}"


# --- 7: hostile identifiers in the history and in reports --------------------------------------------------------

SCRIPT_COL = "<script>x</script>"
SCRIPT_VALUE = "<img src=x onerror=alert(1)>"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_hostile_identifiers_in_history_and_reports(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("x", {"keep": "INTEGER"}, [(1,)])
    columns = {QUOTE_COL: "VARCHAR", KEYWORD_COL: "INTEGER", SCRIPT_COL: "VARCHAR", PCT_COL: "VARCHAR",
               SEMI_COL: "VARCHAR", APOS_COL: "VARCHAR", UNICODE_COL: "VARCHAR"}
    values = ["'; DROP TABLE x; --", "%s", SCRIPT_VALUE, 'ünï "q"']
    rows = [(values[i % 4], 20 + (i * 7) % 40, "FM"[i % 2], f"s {i} %s ?", f"v{i}; DROP TABLE x", f"id{i}", f"ß{i}")
            for i in range(120)]
    create(engine, quote(SOURCE), columns, rows)
    config = write_config(tmp_path / "hostile.yaml", {
        "source": {"url": engine.url, "table": quote(SOURCE)},
        "output": {"table": quote(OUTPUT)},
        "attributes": {
            QUOTE_COL: {"role": "quasi_identifier", "hierarchy": {"inline": {v: ["*"] for v in values}}},
            KEYWORD_COL: {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [10, 20]}}},
            SCRIPT_COL: {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            PCT_COL: {"role": "sensitive"},
            SEMI_COL: {"role": "insensitive"},
            APOS_COL: {"role": "identifier"},
            UNICODE_COL: {"role": "ignore"},
        },
        "privacy": {"k": 3, "suppression_limit": 0.1},
    })
    qis = [QUOTE_COL, KEYWORD_COL, SCRIPT_COL]
    proc = run_cli("anonymize", config, "--json", "--report", tmp_path / "x.html", "--report", tmp_path / "x.json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["verified"] is True and list(result["transformation"]) == qis
    assert result["source_table"] == quote(SOURCE) and result["output_table"] == quote(OUTPUT)
    assert raw(engine, "SELECT keep FROM x") == [(1,)]
    assert {SOURCE, OUTPUT} <= engine.tables() and leftovers(engine) == set()

    # The history names the tables as the result did, and the columns in the transformation.
    run_id = result["run_id"]
    (listed,) = listed_runs(engine).values()
    assert listed["run_id"] == run_id and listed["status"] == "succeeded"
    assert listed["source_table"] == quote(SOURCE) and listed["output_table"] == quote(OUTPUT)
    assert list(listed["transformation"]) == qis
    line = line_of(listed_text(engine), run_id)
    assert f"{quote(SOURCE)} -> {quote(OUTPUT)}" in line
    shown = invoke("runs", "show", run_id[:6], "--db", engine.url, "--json")
    assert shown.exit_code == 0, shown.output
    run = json.loads(shown.stdout)["run"]
    assert run["transformation"] == result["transformation"] and run["config"]["attributes"].keys() >= set(qis)
    text = invoke("runs", "show", run_id, "--db", engine.url, "--report", tmp_path / "again.html")
    assert text.exit_code == 0, text.output
    assert f"source {quote(SOURCE)} -> output {quote(OUTPUT)}" in text.stdout
    assert "transformation: " + ", ".join(f"{q}={result['transformation'][q]}" for q in qis) in text.stdout

    # The JSON report keeps the names verbatim; the HTML reports escape them (the report has no scripts at all).
    report = json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))
    assert list(report["transformation"]) == qis and report["source_table"] == quote(SOURCE)
    for name in ("x.html", "again.html"):
        page = (tmp_path / name).read_text(encoding="utf-8")
        assert "<script" not in page.lower() and "<img" not in page.lower(), name
        assert "&lt;script&gt;x&lt;/script&gt;" in page, name
        parser = _Tags()
        parser.feed(page)
        assert not {"script", "img", "iframe", "object", "embed"} & parser.tags, (name, parser.tags)
        shown_text = "".join(parser.text)
        for expected in (SCRIPT_COL, QUOTE_COL, KEYWORD_COL, SOURCE):
            assert expected in shown_text, (name, expected)
