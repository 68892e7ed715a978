"""Publishing the output on engines without transactional DDL (``sqlanon/output/writer.py``): strategy 2, one
atomic CREATE OR REPLACE, and strategy 3, a staged swap. Both run for real on DuckDB through adapters with its
capability flags flipped, the staged swap also without temporary tables (as Spark SQL); each with an error,
Ctrl-C and a kill (SIGKILL, a real process, as in test_interrupt.py) at its most fragile point.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sqlanon
import sqlanon.session
from sqlanon.engines.duckdb import DuckDBAdapter
from sqlanon.errors import ConfigError, EngineError
from sqlanon.output import writer
from tests.e2e.test_faults import _env, wait_for
from tests.e2e.test_interrupt import config_data, leftovers, make_source, sleeping
from tests.helpers import REPO, Engine, write_config

#: What the output table holds before a run replaces it: one row no release has.
OLD = [("old",)]


class ReplacingDuckDB(DuckDBAdapter):
    """DuckDB as an engine without transactions or transactional DDL, but with an atomic CREATE OR REPLACE."""

    SUPPORTS_TRANSACTIONS = False
    SUPPORTS_TRANSACTIONAL_DDL = False
    SUPPORTS_REPLACE_TABLE = True
    #: Every statement the adapters of this class ran, in order.
    statements: list[str] = []

    def _execute(self, sql: str, params: Any) -> Any:
        type(self).statements.append(sql)
        return super()._execute(sql, params)


class SwappingDuckDB(ReplacingDuckDB):
    """... and without CREATE OR REPLACE or temporary tables either: the staged swap, plain scratch tables."""

    SUPPORTS_REPLACE_TABLE = False
    SUPPORTS_TEMPORARY_TABLES = False


def use(cls: type[DuckDBAdapter]) -> None:
    """Runs of this process build their adapter from ``cls`` (a test's monkeypatch, or a child process's)."""
    sqlanon.session.adapter_for = lambda db, base_dir=None, create=True: cls.from_url(db, db, base_dir, create)


@pytest.fixture
def adapters(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(sqlanon.session, "adapter_for", sqlanon.session.adapter_for)  # restored afterwards
    monkeypatch.setattr(ReplacingDuckDB, "statements", [])
    yield


def prepared(engine: Engine, tmp_path: Path) -> Path:
    """The source, an output table ``src_k4`` holding ``OLD``, and a config that replaces it."""
    make_source(engine)
    engine.execute("CREATE TABLE src_k4 AS SELECT 'old' AS marker")
    data = config_data(engine.url)
    data["output"]["if_exists"] = "replace"
    return write_config(tmp_path / "publish.yaml", data)


def output(engine: Engine) -> list[tuple]:
    return sorted(engine.execute("SELECT * FROM src_k4"), key=repr)


def reference(engine: Engine, tmp_path: Path) -> list[tuple]:
    """The rows a run with DuckDB's own adapter (strategy 1) writes."""
    data = config_data(engine.url, "ref")
    sqlanon.anonymize(write_config(tmp_path / "ref.yaml", data))
    rows = sorted(engine.execute("SELECT * FROM ref"), key=repr)
    engine.execute("DROP TABLE ref")
    return rows


def statements(kind: str) -> list[str]:
    """The statements run that start with ``kind``, without their templates' comment lines."""
    bare = ("\n".join(ln for ln in s.splitlines() if not ln.lstrip().startswith("--")).strip()
            for s in ReplacingDuckDB.statements)
    return [s for s in bare if s.upper().startswith(kind)]


def renames() -> list[str]:
    return [s for s in statements("ALTER TABLE") if " RENAME TO " in s]


def test_each_engine_publishes_by_the_strongest_strategy_its_flags_allow() -> None:
    from sqlanon.engines.postgres import PostgresAdapter

    class TransactionsWithoutThem(DuckDBAdapter):  # transactional DDL claimed without transactions
        SUPPORTS_TRANSACTIONS = False

    assert writer.publication_strategy(DuckDBAdapter(":memory:", "duckdb://")) == writer.RENAME_IN_TRANSACTION
    assert writer.publication_strategy(PostgresAdapter("x", "x")) == writer.RENAME_IN_TRANSACTION
    assert writer.publication_strategy(ReplacingDuckDB(":memory:", "duckdb://")) == writer.CREATE_OR_REPLACE
    assert writer.publication_strategy(TransactionsWithoutThem(":memory:", "duckdb://")) == writer.CREATE_OR_REPLACE
    assert writer.publication_strategy(SwappingDuckDB(":memory:", "duckdb://")) == writer.STAGED_SWAP


# -- strategy 2: create or replace --------------------------------------------------------------------------


def test_create_or_replace_publishes_in_one_statement(duckdb_engine: Engine, tmp_path: Path, adapters: None) -> None:
    path = prepared(duckdb_engine, tmp_path)
    expected = reference(duckdb_engine, tmp_path)
    use(ReplacingDuckDB)
    result = sqlanon.anonymize(path)
    assert result.verified and output(duckdb_engine) == expected
    creates = [s for s in ReplacingDuckDB.statements if "src_k4" in s and "CREATE" in s]
    assert len(creates) == 1 and 'CREATE OR REPLACE TABLE "' in creates[0]
    assert not statements("BEGIN") and not statements("COMMIT") and not renames()
    assert leftovers(duckdb_engine) == set()


@pytest.mark.parametrize("fault", ["error", "ctrl-c", "failing statement"])
def test_create_or_replace_keeps_the_old_table(duckdb_engine: Engine, tmp_path: Path, adapters: None,
                                               monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    """An error or Ctrl-C before the one statement, or the statement failing while it writes: the old table."""
    path = prepared(duckdb_engine, tmp_path)
    if fault == "failing statement":
        # The release's query fails on its rows, inside the CREATE OR REPLACE that is writing them.
        original = ReplacingDuckDB._execute

        def failing(self: DuckDBAdapter, sql: str, params: Any) -> Any:
            if "CREATE OR REPLACE" in sql:  # each repeated row fails (write_kinds.sql.j2)
                assert ") AS repeated" in sql
                failure = "WHERE error('disk full ' || CAST(repeat_index AS VARCHAR)) IS NULL"
                sql = sql.replace(") AS repeated", f") AS repeated {failure}")
            return original(self, sql, params)

        monkeypatch.setattr(ReplacingDuckDB, "_execute", failing)
    else:
        monkeypatch.setattr(writer, "fault_pause", raising(fault))
    use(ReplacingDuckDB)
    with pytest.raises((EngineError, KeyboardInterrupt)):
        sqlanon.anonymize(path)
    assert output(duckdb_engine) == OLD
    assert leftovers(duckdb_engine) == set()


def test_a_kill_before_create_or_replace_keeps_the_old_table(duckdb_engine: Engine, tmp_path: Path) -> None:
    path = prepared(duckdb_engine, tmp_path)
    kill_in_write(ReplacingDuckDB, path)
    assert output(duckdb_engine) == OLD
    assert leftovers(duckdb_engine) == set()


# -- strategy 3: staged swap --------------------------------------------------------------------------------


def test_staged_swap_renames_in_and_drops_the_old_table(duckdb_engine: Engine, tmp_path: Path,
                                                        adapters: None) -> None:
    """Build under the private name, rename the old table away and the new one in, drop the old one; the
    scratch tables are plain tables (no temporary ones), dropped at the session's end."""
    path = prepared(duckdb_engine, tmp_path)
    expected = reference(duckdb_engine, tmp_path)
    use(SwappingDuckDB)
    result = sqlanon.anonymize(path)
    assert result.verified and output(duckdb_engine) == expected
    staged, old = (name[-1] for name in writer.staged_names(("test", "main", "src_k4")))
    done = renames()
    assert len(done) == 2
    assert f'"src_k4" RENAME TO "{old}"' in done[0] and f'"{staged}" RENAME TO "src_k4"' in done[1]
    assert any(f'"{old}"' in s for s in statements("DROP TABLE"))
    assert not statements("BEGIN") and not any("TEMPORARY" in s for s in ReplacingDuckDB.statements)
    assert any('"sqlanon_' in s for s in statements("CREATE TABLE"))
    assert leftovers(duckdb_engine) == set()


@pytest.mark.parametrize("fault", ["error", "ctrl-c"])
def test_staged_swap_undoes_itself_between_the_renames(duckdb_engine: Engine, tmp_path: Path, adapters: None,
                                                       monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    """An error or Ctrl-C after the old table was renamed away: it is renamed back, the new one dropped."""
    path = prepared(duckdb_engine, tmp_path)
    monkeypatch.setattr(writer, "fault_pause", raising(fault))
    use(SwappingDuckDB)
    with pytest.raises((EngineError, KeyboardInterrupt)):
        sqlanon.anonymize(path)
    assert len(renames()) == 2  # away, and back
    assert output(duckdb_engine) == OLD
    assert leftovers(duckdb_engine) == set()


def test_a_kill_between_the_renames_is_reported_by_the_next_run(duckdb_engine: Engine, tmp_path: Path,
                                                                 adapters: None) -> None:
    """The staged swap's weaker guarantee: a kill between the renames leaves no target, the old table under its
    private name and the release under its own (and the killed run's plain scratch tables). The next run for
    that target refuses before any work, naming both; once the user renamed the old table back, a run
    replaces it and drops the release left behind."""
    path = prepared(duckdb_engine, tmp_path)
    kill_in_write(SwappingDuckDB, path)
    staged, old = (name[-1] for name in writer.staged_names(("test", "main", "src_k4")))
    assert "src_k4" not in duckdb_engine.tables()
    assert duckdb_engine.execute(f"SELECT * FROM {old}") == OLD
    scratch = leftovers(duckdb_engine) - {staged, old}
    assert scratch and all(name.startswith("sqlanon_") for name in scratch)

    use(SwappingDuckDB)
    with pytest.raises(ConfigError, match="is missing: a run replacing it was stopped between its renames") as info:
        sqlanon.anonymize(path)
    assert f"previous contents are in test.main.{old} and its release in test.main.{staged}" in str(info.value)
    assert info.value.exit_code == 2 and not renames()

    duckdb_engine.execute(f"ALTER TABLE {old} RENAME TO src_k4")
    assert sqlanon.anonymize(path).verified
    assert output(duckdb_engine) == reference(duckdb_engine, tmp_path)
    assert leftovers(duckdb_engine) == scratch  # nothing removes a killed run's plain scratch tables yet


def test_an_old_table_left_beside_the_published_one_is_dropped(duckdb_engine: Engine, tmp_path: Path,
                                                               adapters: None) -> None:
    """A kill after the second rename leaves the old table beside the new target; a release half-built before
    the first rename leaves the staged table: the next run for that target drops both."""
    path = prepared(duckdb_engine, tmp_path)
    staged, old = (name[-1] for name in writer.staged_names(("test", "main", "src_k4")))
    duckdb_engine.execute(f"CREATE TABLE {old} AS SELECT 'older' AS marker")
    duckdb_engine.execute(f"CREATE TABLE {staged} AS SELECT 'half' AS marker")
    use(SwappingDuckDB)
    assert sqlanon.anonymize(path).verified
    assert output(duckdb_engine) != OLD
    assert leftovers(duckdb_engine) == set()


# -- helpers ------------------------------------------------------------------------------------------------


def raising(fault: str) -> Any:
    def pause(variable: str) -> None:
        if fault == "ctrl-c":
            raise KeyboardInterrupt
        raise EngineError("the connection broke")

    return pause


#: A run in a child process on the adapter class named by argv[1], from the config argv[2].
CHILD = """
import sys

import sqlanon
from tests.e2e import test_publication

test_publication.use(getattr(test_publication, sys.argv[1]))
print(sqlanon.anonymize(sys.argv[2]).to_dict())
"""


def kill_in_write(cls: type[DuckDBAdapter], path: Path) -> None:
    """Run in a child process with the write pause, and SIGKILL it inside the pause."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, cls.__name__, str(path)], cwd=REPO,
                            env=_env({"SQLANON_FAULT_PAUSE_IN_WRITE": 60}),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(proc, lambda: sleeping(proc.pid), "the write pause")
    proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, (out, err)
    assert not out, json.dumps(out)
