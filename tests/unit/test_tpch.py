"""``sqlanon.tpch``: TPC-H data from tpchgen-cli (a test dependency) in a DuckDB file, and the hierarchies
``configs/tpch/*.csv`` checked against it. Scale factor 0.01, generated once for the module (about a second)."""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb
import pytest

from sqlanon import tpch
from sqlanon.hierarchy.sources import read_csv_hierarchy

HIERARCHIES = Path(__file__).resolve().parents[2] / "configs" / "tpch"


@pytest.fixture(scope="module")
def sf001(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    database = tmp_path_factory.mktemp("tpch") / "tpch.duckdb"
    return database, tpch.generate(database, 0.01)


def query(database: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(database), read_only=True) as con:
        return con.execute(sql).fetchall()


def parents(name: str) -> dict[str, list[str]]:
    """Leaf -> its generalizations up to ``*``, as sqlanon reads the file."""
    rows = read_csv_hierarchy(HIERARCHIES / name, ";", None, name)
    return {row[0]: row[2:] for row in rows}


def test_row_counts(sf001: tuple[Path, dict[str, int]]) -> None:
    database, counts = sf001
    expected = {"nation": 25, "region": 5, "part": 2_000, "customer": 1_500, "orders": 15_000, "lineitem": 60_175}
    assert counts == expected
    for table, count in expected.items():
        assert query(database, f"SELECT count(*) FROM {table}") == [(count,)]


def test_columns_keep_tpch_names_and_types(sf001: tuple[Path, dict[str, int]]) -> None:
    database, _ = sf001
    types = dict(query(database, "SELECT column_name, data_type FROM information_schema.columns"))
    keys = ["c_custkey", "c_nationkey", "o_orderkey", "o_custkey", "l_orderkey", "l_partkey", "p_partkey",
            "n_nationkey", "n_regionkey", "r_regionkey"]
    assert {name: types[name] for name in keys} == dict.fromkeys(keys, "BIGINT")
    assert types["o_orderdate"] == "DATE"
    assert types["o_totalprice"] == types["l_quantity"] == "DECIMAL(15,2)"
    assert types["p_mfgr"] == types["p_brand"] == types["n_name"] == types["r_name"] == "VARCHAR"


def test_the_tables_join(sf001: tuple[Path, dict[str, int]]) -> None:
    """customer -> orders -> lineitem, and the part and nation lookups: no dangling key."""
    database, _ = sf001
    assert query(database, """
        SELECT count(*) FILTER (WHERE c_custkey IS NULL), count(*) FILTER (WHERE p_partkey IS NULL),
               count(*) FILTER (WHERE n_nationkey IS NULL)
        FROM lineitem JOIN orders ON l_orderkey = o_orderkey
        LEFT JOIN customer ON o_custkey = c_custkey LEFT JOIN part ON l_partkey = p_partkey
        LEFT JOIN nation ON c_nationkey = n_nationkey
    """) == [(0, 0, 0)]


def test_nation_hierarchy_covers_the_data(sf001: tuple[Path, dict[str, int]]) -> None:
    database, _ = sf001
    data = query(database, "SELECT n_name, r_name FROM nation JOIN region ON n_regionkey = r_regionkey")
    assert parents("nation.csv") == {nation: [region, "*"] for nation, region in data}
    used = {name for (name,) in query(database, "SELECT DISTINCT n_name FROM customer JOIN nation "
                                                "ON c_nationkey = n_nationkey")}
    assert used <= parents("nation.csv").keys()


def test_brand_hierarchy_covers_the_data(sf001: tuple[Path, dict[str, int]]) -> None:
    database, _ = sf001
    data = query(database, "SELECT DISTINCT p_brand, p_mfgr FROM part")
    assert len(data) == 25
    assert parents("brand.csv") == {brand: [mfgr, "*"] for brand, mfgr in data}
    used = {brand for (brand,) in query(database, "SELECT DISTINCT p_brand FROM lineitem JOIN part "
                                                  "ON l_partkey = p_partkey")}
    assert used <= parents("brand.csv").keys()


def test_main_loads_chosen_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "sub" / "lookups.duckdb"
    assert tpch.main(["--database", str(database), "--tables", "nation,region"]) == 0
    assert "nation" in capsys.readouterr().out
    assert query(database, "SELECT table_name FROM information_schema.tables ORDER BY 1") == [
        ("nation",), ("region",)]


def test_missing_generator_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match="pip install tpchgen-cli"):
        tpch.generate(tmp_path / "t.duckdb", 0.01)
    assert not (tmp_path / "t.duckdb").exists()


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="positive"):
        tpch.generate(tmp_path / "t.duckdb", 0)
    with pytest.raises(ValueError, match="unknown TPC-H table 'customers'"):
        tpch.generate(tmp_path / "t.duckdb", 0.01, tables=["customers"])
