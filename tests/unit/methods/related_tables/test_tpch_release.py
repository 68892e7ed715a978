"""The paper's TPC-H setup at scale factor 0.01 (``configs/tpch.yaml``, data from ``tpchgen-cli``): every release
passes the independent checker (``tests/oracle_related.py``) on the written node table; GreedyCutSearch's RPD is
at most OnlyCutSearch's; with n = 0 both find the same cut, a k^m release with no disassociation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

import sqlanon
from sqlanon.config import parse_config
from sqlanon.tpch import generate
from tests import oracle_related as oracle
from tests.helpers import REPO

CLASSES = ["nation", "orderdate", "totalprice", "quantity", "brand"]


@pytest.fixture(scope="module")
def tpch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tpch") / "tpch.duckdb"
    generate(path, 0.01)
    return path


def run(database: Path, output: str, **privacy_and_search: Any) -> Any:
    data = yaml.safe_load((REPO / "configs" / "tpch.yaml").read_text(encoding="utf-8"))
    data["source"] = {"url": f"duckdb:///{database}"}
    data["privacy"] = {"k": 20, "m": 3, "n": 2, **{k: v for k, v in privacy_and_search.items() if k in "kmn"}}
    data["search"] = {"strategy": privacy_and_search.get("strategy", "greedy_cut"), "beam": 2}
    data["output"] = {"table": output, "if_exists": "replace"}
    data["history"] = {"enabled": False}
    return sqlanon.anonymize(parse_config(data, base_dir=REPO / "configs"))


def written(database: Path, table: str) -> dict:
    con = duckdb.connect(str(database), read_only=True)
    try:
        rows = con.execute(f"SELECT record_id, node_id, parent_id, attribute, value FROM \"{table}\"").fetchall()
    finally:
        con.close()
    return oracle.trees_from_nodes(rows, CLASSES)


def test_greedy_and_only_cuts_releases_pass_the_checker(tpch: Path) -> None:
    greedy = run(tpch, "greedy")
    only = run(tpch, "only", strategy="only_cuts")
    for result, table in ((greedy, "greedy"), (only, "only")):
        assert result.verified
        trees = written(tpch, table)
        assert len(trees) == result.rows_considered == 1500
        assert oracle.largest_k(trees, 3, 2) >= 20
        assert oracle.largest_k(trees, 3, 2) == result.verification["largest_k"]
    assert only.disassociations == []
    assert greedy.metrics["rpd"] <= only.metrics["rpd"]


def test_n_0_is_a_k_m_release_without_disassociation(tpch: Path) -> None:
    greedy = run(tpch, "greedy0", n=0)
    only = run(tpch, "only0", n=0, strategy="only_cuts")
    assert greedy.expanded == only.expanded
    assert greedy.disassociations == only.disassociations == []
    assert greedy.metrics["rpd"] == only.metrics["rpd"]
    assert oracle.largest_k(written(tpch, "greedy0"), 3, 0) >= 20
