"""The benchmark scripts' option checks (they are run by hand; their errors should still be clear)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

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
