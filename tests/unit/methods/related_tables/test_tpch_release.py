"""The paper's TPC-H setup at scale factor 0.01 (``configs/tpch.yaml``, data from ``tpchgen-cli``), on every engine:
every release passes the independent checker (``tests/oracle_related.py``) on the written node table;
GreedyCutSearch's RPD is at most OnlyCutSearch's; with n = 0 both find the same cut, a k^m release with no
disassociation; both engines find the same cuts."""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterator
from typing import Any

import duckdb
import pytest
import yaml

import sqlanon
from sqlanon.config import parse_config
from sqlanon.tpch import generate
from tests import oracle_related as oracle
from tests.helpers import REPO, Engine

CLASSES = ["nation", "orderdate", "totalprice", "quantity", "brand"]


#: The columns configs/tpch.yaml reads, per table (PostgreSQL gets only these).
COLUMNS = {"nation": ["n_nationkey", "n_name"], "customer": ["c_custkey", "c_nationkey"],
           "orders": ["o_orderkey", "o_custkey", "o_orderdate", "o_totalprice"],
           "lineitem": ["l_orderkey", "l_linenumber", "l_quantity", "l_partkey"], "part": ["p_partkey", "p_brand"]}


@pytest.fixture(scope="module", params=["duckdb", "postgres"])
def tpch(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """TPC-H at scale factor 0.01 on each engine: the generated DuckDB file, or its tables copied to a fresh
    PostgreSQL database."""
    path = tmp_path_factory.mktemp("tpch") / "tpch.duckdb"
    generate(path, 0.01)
    if request.param == "duckdb":
        yield Engine.duckdb(path)
        return
    engine = Engine.postgres_database(request.getfixturevalue("postgres_server_url"), f"t_{secrets.token_hex(6)}")
    con = duckdb.connect(str(path), read_only=True)
    try:
        for table, columns in COLUMNS.items():
            types = dict(con.execute(f"SELECT column_name, data_type FROM information_schema.columns "
                                     f"WHERE table_name = '{table}'").fetchall())
            rows = con.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            engine.create_table(table, {c: types[c] for c in columns}, rows)
    finally:
        con.close()
    try:
        yield engine
        engine.assert_sources_unchanged()
    finally:
        engine.close()


def run(engine: Engine, output: str, **privacy_and_search: Any) -> Any:
    data = yaml.safe_load((REPO / "configs" / "tpch.yaml").read_text(encoding="utf-8"))
    data["source"] = {"url": engine.url}
    data["privacy"] = {"k": 20, "m": 3, "n": 2, **{k: v for k, v in privacy_and_search.items() if k in "kmn"}}
    data["search"] = {"strategy": privacy_and_search.get("strategy", "greedy_cut"), "beam": 2,
                      "bound": privacy_and_search.get("bound", True)}
    data["output"] = {"table": output, "if_exists": "replace"}
    data["history"] = {"enabled": False}
    return sqlanon.anonymize(parse_config(data, base_dir=REPO / "configs"))


def written(engine: Engine, table: str) -> dict:
    rows = engine.execute(f"SELECT record_id, node_id, parent_id, attribute, value FROM \"{table}\"")
    return oracle.trees_from_nodes(rows, CLASSES)


#: The cuts found per (strategy, n), by the first engine to run: the second must find the same.
FOUND: dict[tuple[str, int], Any] = {}


def same_on_every_engine(result: Any, strategy: str, n: int) -> None:
    found = (result.expanded, result.disassociations, result.metrics["rpd"])
    assert FOUND.setdefault((strategy, n), found) == found


def test_greedy_and_only_cuts_releases_pass_the_checker(tpch: Engine) -> None:
    greedy = run(tpch, "greedy")
    only = run(tpch, "only", strategy="only_cuts")
    for result, table in ((greedy, "greedy"), (only, "only")):
        same_on_every_engine(result, table, 2)
        assert result.verified
        trees = written(tpch, table)
        assert len(trees) == result.rows_considered == 1500
        assert oracle.largest_k(trees, 3, 2) >= 20
        assert oracle.largest_k(trees, 3, 2) == result.verification["largest_k"]
    assert only.disassociations == []
    assert greedy.metrics["rpd"] <= only.metrics["rpd"]


def test_n_0_is_a_k_m_release_without_disassociation(tpch: Engine) -> None:
    greedy = run(tpch, "greedy0", n=0)
    only = run(tpch, "only0", n=0, strategy="only_cuts")
    assert greedy.expanded == only.expanded
    assert greedy.disassociations == only.disassociations == []
    assert greedy.metrics["rpd"] == only.metrics["rpd"]
    assert oracle.largest_k(written(tpch, "greedy0"), 3, 0) >= 20
    same_on_every_engine(greedy, "greedy", 0)


def test_the_rpd_bound_skips_subtrees_and_finds_the_same_cut(tpch: Engine) -> None:
    """On TPC-H the RPD bound skips subtrees (a customer without orders has one path, its nation): OnlyCutSearch
    finds the same cut with fewer cuts evaluated than with ``search.bound: false``."""
    bounded = run(tpch, "bounded", strategy="only_cuts")
    every = run(tpch, "every", strategy="only_cuts", bound=False)
    assert bounded.expanded == every.expanded
    assert math.isclose(bounded.metrics["rpd"], every.metrics["rpd"], rel_tol=1e-9)
    assert every.subtrees_bounded == 0 < bounded.subtrees_bounded
    assert bounded.cuts_evaluated < every.cuts_evaluated
    assert bounded.verified and every.verified
