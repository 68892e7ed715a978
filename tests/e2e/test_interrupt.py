"""Interrupting ``sqlanon anonymize`` in the middle of the write-back, and a statement with Ctrl-C, on both engines.

The console script runs as a real process with the fault-injection hook SQLANON_FAULT_PAUSE_IN_WRITE, which
holds the write transaction open (after the output was built under a temporary name, before the rename).
The test waits until the process is inside that pause, then kills it (SIGKILL, SIGTERM) or presses Ctrl-C
(SIGINT). Afterwards: the source is unchanged, the output table does not exist, no ``sqlanon_`` table
(temporary raw-data copies, lookup tables, the half-written output) remains, and a new run succeeds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sqlanon.cli import main
from sqlanon.engines import adapter_for_url
from sqlanon.errors import EngineError
from tests.helpers import Engine, sigint_as_usual, write_config

SQLANON = Path(sys.executable).with_name("sqlanon")
PAUSE_SECONDS = 30
WAIT_LIMIT = 45  # seconds to reach the write (process start, imports, search) on a loaded machine


def make_source(engine: Engine) -> None:
    rows = [(i, None if i % 9 == 0 else 18 + (i * 7) % 60, "FM"[i % 2], f"{10000 + (i * 37) % 500:05d}", f"n{i}")
            for i in range(300)]
    engine.create_table("src", {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "zip": "VARCHAR",
                                "name": "VARCHAR"}, rows)


def config(engine: Engine, tmp_path: Path) -> Path:
    return write_config(tmp_path / "interrupt.yaml", config_data(engine.url))


def config_data(url: str, output: str = "src_k4") -> dict:
    return {
        "source": {"url": url, "table": "src"},
        "output": {"table": output},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10, 20]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "zip": {"role": "quasi_identifier", "hierarchy": {"mask": {"length": 5}}},
            "name": {"role": "insensitive"},
        },
        "privacy": {"k": 4, "suppression_limit": 0.05},
    }


def snapshot(engine: Engine) -> list[tuple]:
    return sorted(engine.execute('SELECT * FROM "src"'), key=repr)


def leftovers(engine: Engine) -> set[str]:
    """Every relation whose name starts with sqlanon_ (PostgreSQL: temporary schemas of all sessions too)."""
    if engine.name == "duckdb":
        rows = engine.execute("SELECT table_name FROM information_schema.tables")
    else:
        rows = engine.execute("SELECT relname FROM pg_class WHERE relkind IN ('r', 'p', 'v', 'm')")
    return {r[0] for r in rows if r[0].startswith("sqlanon_")}


def start(config_path: Path, *options: str) -> subprocess.Popen[str]:
    env = {**os.environ, "SQLANON_FAULT_PAUSE_IN_WRITE": str(PAUSE_SECONDS)}
    return subprocess.Popen([str(SQLANON), "anonymize", str(config_path), *options], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=sigint_as_usual)


def sleeping(pid: int) -> bool:
    """The main thread sits in time.sleep (the fault-injection pause): nanosleep in the kernel, on three reads
    50 ms apart. Once, on a loaded machine, a Ctrl-C sent after a single such read did not stop the run; a brief
    nanosleep outside the pause is the likely cause."""
    for attempt in range(3):
        if attempt:
            time.sleep(0.05)
        try:
            if "nanosleep" not in Path(f"/proc/{pid}/wchan").read_text():
                return False
        except OSError:
            return False
    return True


def postgres_in_write(engine: Engine) -> bool:
    """A session of this database holds the write transaction open after building the temporary table."""
    # engine.con directly: tests.helpers' execute() would rewrite the '%' of the LIKE pattern.
    row = engine.con.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND state = 'idle in transaction' AND position('CREATE TABLE' in query) > 0 "
        "AND position('sqlanon_tmp_' in query) > 0"
    ).fetchone()
    return row[0] > 0


def postgres_backends(engine: Engine) -> int:
    return engine.con.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    ).fetchone()[0]


def wait_until_in_write(proc: subprocess.Popen[str], engine: Engine) -> None:
    deadline = time.monotonic() + WAIT_LIMIT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"sqlanon ended (exit {proc.returncode}) before the write pause:\n{out}\n{err}")
        if sleeping(proc.pid) and (engine.name != "postgres" or postgres_in_write(engine)):
            # Inside the pause; on PostgreSQL the output is invisible to other sessions meanwhile.
            if engine.name == "postgres":
                assert "src_k4" not in engine.tables()
            return
        time.sleep(0.1)
    proc.kill()
    proc.communicate()
    pytest.fail(f"sqlanon did not reach the write pause within {WAIT_LIMIT}s")


def wait_for_server_cleanup(engine: Engine) -> None:
    """PostgreSQL ends the killed client's backend (rolling back) when it sees the closed socket."""
    if engine.name != "postgres":
        return
    deadline = time.monotonic() + 15
    while postgres_backends(engine) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert postgres_backends(engine) == 0, "the killed client's backend is still there"


def assert_clean(engine: Engine, before: list[tuple]) -> None:
    assert snapshot(engine) == before
    assert engine.tables() == {"src"}
    assert leftovers(engine) == set()


def assert_rerun_succeeds(engine: Engine, config_path: Path) -> None:
    """Nothing (lock, half-written table, stale temporary) stands in the way of the next run."""
    result = CliRunner().invoke(main, ["anonymize", str(config_path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["verified"] is True
    assert engine.tables() == {"src", "src_k4"}
    assert leftovers(engine) == set()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_kill_during_write_leaves_nothing(engine: Engine, tmp_path: Path, sig: signal.Signals) -> None:
    make_source(engine)
    before = snapshot(engine)
    path = config(engine, tmp_path)
    proc = start(path, "--json")
    wait_until_in_write(proc, engine)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -sig, (proc.returncode, out, err)
    assert out == ""  # nothing reported: the run never finished
    wait_for_server_cleanup(engine)
    assert_clean(engine, before)
    assert_rerun_succeeds(engine, path)


def test_ctrl_c_during_write_exits_130_and_writes_nothing(engine: Engine, tmp_path: Path) -> None:
    make_source(engine)
    before = snapshot(engine)
    path = config(engine, tmp_path)
    proc = start(path)
    wait_until_in_write(proc, engine)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - started < PAUSE_SECONDS / 2, "Ctrl-C did not interrupt the write promptly"
    assert proc.returncode == 130, (out, err)
    assert "interrupted" in err and "nothing was written" in err
    assert "Traceback" not in err + out
    assert "src_k4" not in out
    wait_for_server_cleanup(engine)
    assert_clean(engine, before)
    assert_rerun_succeeds(engine, path)


def test_ctrl_c_with_json_still_prints_one_json_object(duckdb_engine: Engine, tmp_path: Path) -> None:
    """--json promises exactly one JSON object on stdout; an interrupted run says so in JSON too
    (as every error does), so that a caller parsing stdout is not left with nothing."""
    make_source(duckdb_engine)
    proc = start(config(duckdb_engine, tmp_path), "--json")
    wait_until_in_write(proc, duckdb_engine)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    assert duckdb_engine.tables() == {"src"}
    text = out.strip()
    assert text.startswith("{") and "\n" not in text, f"stdout is not one JSON object: {out!r}"
    report = json.loads(text)
    assert report["exit_code"] == 130 and report["status"] != "ok"


def test_pause_hook_alone_changes_nothing(duckdb_engine: Engine, tmp_path: Path) -> None:
    """Control: with a short pause and no signal the same run completes and writes the table."""
    make_source(duckdb_engine)
    env: dict[str, Any] = {**os.environ, "SQLANON_FAULT_PAUSE_IN_WRITE": "0.2"}
    proc = subprocess.run([str(SQLANON), "anonymize", str(config(duckdb_engine, tmp_path)), "--json"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verified"] is True
    assert duckdb_engine.tables() == {"src", "src_k4"}


#: A statement that runs for seconds on either engine: a count over 10^9 or 10^10 generated rows, streamed.
LONG_STATEMENT = {
    "duckdb": "SELECT count(*) FROM range(1000000000) AS t(i) WHERE i % 7 = 3",
    "postgres": "SELECT count(*) FROM generate_series(1, 100000) AS a, generate_series(1, 100000) AS b "
                "WHERE (a + b) % 7 = 3",
}


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own SIGINT handler (KeyboardInterrupt) for a test that signals its own process, even when the
    suite was started in the background, whose jobs the shell makes ignore SIGINT."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_inside_a_statement_is_an_interrupt(engine: Engine, python_sigint: None) -> None:
    """Ctrl-C while the database runs a statement reaches the caller as KeyboardInterrupt, which the CLI turns into
    'interrupted; nothing was written' and exit 130. A run spends most of its search inside node queries; there
    DuckDB's client stops the statement and raises a plain RuntimeError, which the CLI reported as an unexpected
    error (exit 1). The client does not always stop the statement (here about one try in three ran to its end,
    and Python raised KeyboardInterrupt after it), so the test tries three times."""
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        for _ in range(3):
            ctrl_c = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
            started = time.monotonic()
            try:
                ctrl_c.start()
                with pytest.raises(KeyboardInterrupt):
                    adapter.execute(LONG_STATEMENT[engine.name])
            finally:
                ctrl_c.cancel()
            assert time.monotonic() - started >= 0.5, "the signal came before the statement"
    finally:
        adapter.close()


class _StoppedClient:
    """DuckDB's client after Ctrl-C stopped a statement: it raises this RuntimeError (DuckDB 2.0)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def execute(self, *args: Any) -> None:
        raise RuntimeError(self.message)


def test_duckdb_statements_stopped_by_ctrl_c_are_interrupts(tmp_path: Path) -> None:
    """The same mapping without timing: every way the DuckDB adapter runs SQL turns the client's 'Query
    interrupted' into KeyboardInterrupt, and leaves other RuntimeErrors alone."""
    adapter = adapter_for_url(f"duckdb:///{tmp_path / 'db.duckdb'}")
    adapter._con = _StoppedClient("Query interrupted")
    with pytest.raises(KeyboardInterrupt):
        adapter.execute("SELECT 1")
    with pytest.raises(KeyboardInterrupt):
        adapter.execute_prepared("SELECT ?", [1])
    with pytest.raises(KeyboardInterrupt):
        adapter.column_names(("t",))
    adapter._con = _StoppedClient("something else")
    with pytest.raises(RuntimeError, match="something else"):
        adapter.execute("SELECT 1")
    with pytest.raises(EngineError, match="something else"):
        adapter.column_names(("t",))
