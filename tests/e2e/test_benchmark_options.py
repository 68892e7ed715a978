"""The benchmark scripts' option checks (they are run by hand; their errors should still be clear)."""

from __future__ import annotations

import sys

import pytest

from tests.helpers import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import arx_benchmark  # noqa: E402


def test_cold_runs_cannot_use_the_benchmark_process_in_memory_database(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        arx_benchmark.parse_args(["--cold", "--duckdb-source", "memory"])
    assert exc.value.code == 2
    assert "--cold with --duckdb-source memory: a fresh process cannot see this process's in-memory database" in (
        capsys.readouterr().err)


def test_the_in_memory_source_hands_sqlanon_its_open_connection() -> None:
    import duckdb

    holder = arx_benchmark.DuckDBMemory()
    try:
        assert isinstance(holder.sqlanon_url, duckdb.DuckDBPyConnection)
        holder.con.execute("SELECT 1")
    finally:
        holder.close()


def test_runs_record_no_history_unless_asked() -> None:
    """ARX records nothing and an in-memory DuckDB database never does: by default no engine records history."""
    ds = arx_benchmark.DATASETS["adult"]
    if not ds.csv_path.is_file():
        pytest.skip("benchmark datasets not beside the repository")
    assert arx_benchmark.build_config(ds, 5, 0.05, "loss", table="t")["history"] == {"enabled": False}
    assert arx_benchmark.build_config(ds, 5, 0.05, "loss", table="t", history=True)["history"] == {"enabled": True}
    assert arx_benchmark.parse_args([]).history is False
    assert arx_benchmark.parse_args(["--history"]).history is True


def test_warm_runs_follow_one_untimed_run_unless_told() -> None:
    """The first run of a configuration in a process loads templates and warms caches (ADULT k=5 0% on DuckDB:
    0.111-0.118 s, the next ones 0.098-0.107): warm figures follow one untimed run, as ARX's a warm JVM."""
    assert arx_benchmark.parse_args([]).warmup == 1
    assert arx_benchmark.parse_args(["--warmup", "0"]).warmup == 0


def test_a_postgresql_row_is_compared_with_the_duckdb_row_of_its_configuration() -> None:
    def row(engine: str, k: int, times: list[float]) -> arx_benchmark.Row:
        return arx_benchmark.Row("cup", engine, k, 0.05, "loss", times=times)

    rows = [row("duckdb", 5, [0.4, 0.5, 0.6]), row("duckdb", 10, [1.0]), row("postgres", 5, [1.5, 1.4, 1.6]),
            row("postgres", 2, [0.9])]
    assert arx_benchmark.duckdb_ratios(rows) == {2: pytest.approx(3.0)}  # k=2 has no DuckDB row
    assert arx_benchmark.cells(rows[2], 3.0)[-1] == "3.0x" and arx_benchmark.cells(rows[3])[-1] == "-"


def test_the_profile_charges_each_statement_to_the_template_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import profile_run

    from sqlanon.engines import adapter_for_url
    from sqlanon.engines.base import EngineAdapter

    for name in ("run", "_timed", "create_counted"):  # by_template patches the class; restored after the test
        monkeypatch.setattr(EngineAdapter, name, getattr(EngineAdapter, name))
    timers = profile_run.Timers()
    profile_run.by_template(timers)
    adapter = adapter_for_url("duckdb:///:memory:")
    adapter.connect()
    try:
        adapter.execute("CREATE TABLE t AS SELECT 1 AS a")
        assert adapter.run("count_table.sql.j2", table=("t",))[0][0] == 1
    finally:
        adapter.close()
    assert timers.statement_counts == {"(no template: CREATE)": 1, "count_table": 1}
    assert all(seconds > 0 for seconds in timers.statements.values())


def test_the_engines_runs_of_a_configuration_are_interleaved() -> None:
    """Engine A, engine B, A, B, ...: a slower minute of the machine slows both, so their ratio stays fair."""
    order: list[tuple[str, bool]] = []

    class Fake(arx_benchmark.WarmRuns):
        def __init__(self, engine: str) -> None:
            self.row = arx_benchmark.Row("cup", engine, 5, 0.05, "loss")
            self._result = None

        def once(self, timed: bool) -> None:
            order.append((self.row.engine, timed))
            if timed:
                self.row.times.append(1.0)

    rows = arx_benchmark.run_interleaved([Fake("duckdb"), Fake("postgres")], timed=2, warmup=1)
    assert order == [("duckdb", False), ("postgres", False), ("duckdb", True), ("postgres", True),
                     ("duckdb", True), ("postgres", True)]
    assert [(r.engine, r.times) for r in rows] == [("duckdb", [1.0, 1.0]), ("postgres", [1.0, 1.0])]


def test_a_failed_run_is_reported_and_not_repeated(capsys: pytest.CaptureFixture[str]) -> None:
    ds = arx_benchmark.DATASETS["adult"]
    runs = arx_benchmark.WarmRuns(ds, "duckdb", 5, 0.05, "loss", pg=None, dk=None)
    runs._cfg = None  # anonymize() fails on it
    rows = arx_benchmark.run_interleaved([runs], timed=3, warmup=0)
    assert rows[0].error is not None and rows[0].error.count("Error") >= 1 and rows[0].times == []
    assert capsys.readouterr().err.count("ERROR ADULT engine=duckdb") == 1
