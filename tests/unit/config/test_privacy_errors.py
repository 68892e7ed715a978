"""Bad ``privacy`` and ``search`` settings: k, the suppression limit, NULL handling, the strategy, and a
config no node satisfies.

Exit codes: 2 invalid config or input, 3 no feasible node, 1 unexpected error (an unreachable database). Each
test changes one thing of the working config and table of ``tests/bad_input.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bad_input import COLUMNS, base_config, config_file, expect_error
from tests.helpers import Engine, invoke

pytestmark = pytest.mark.spark


@pytest.mark.parametrize("k", [0, -3])
def test_k_below_1(db: Engine, tmp_path: Path, k: int) -> None:
    path = config_file(tmp_path, base_config(db.url, k=k))
    expect_error(["anonymize", path], 2, str(path), "privacy.k", f"(value: {k})")


def test_k_not_an_integer(db: Engine, tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(db.url, k="five"))
    expect_error(["anonymize", path], 2, "privacy.k", "'five'")


def test_k_larger_than_the_table(both: Engine, tmp_path: Path) -> None:
    expect_error(["anonymize", config_file(tmp_path, base_config(both.url, k=21))], 2, "privacy.k", "k=21", "(20)")
    assert "t_out" not in both.tables()


def test_k_equal_to_the_table_is_fine(db: Engine, tmp_path: Path) -> None:
    result = invoke("anonymize", config_file(tmp_path, base_config(db.url, k=20)), "--json")
    assert result.exit_code == 0, result.output


def test_empty_table(both: Engine, tmp_path: Path) -> None:
    both.create_table("empty", COLUMNS, [])
    data = base_config(both.url)
    data["source"]["table"] = "empty"
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "empty", "no rows")
    expect_error(["validate", config_file(tmp_path, data)], 2, "empty", "no rows")


@pytest.mark.parametrize("limit", [1.5, -0.1, 1.0000001])
def test_suppression_limit_fraction_outside_0_1(db: Engine, tmp_path: Path, limit: float) -> None:
    path = config_file(tmp_path, base_config(db.url, suppression_limit=limit))
    expect_error(["anonymize", path], 2, str(path), "privacy.suppression_limit", str(limit), "[0, 1]")


def test_suppression_limit_negative_count(db: Engine, tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(db.url, suppression_limit=-2))
    expect_error(["anonymize", path], 2, "privacy.suppression_limit", "-2")


def test_suppression_limit_boolean_is_rejected(db: Engine, tmp_path: Path) -> None:
    """YAML reads true/yes/on as a boolean; it must not pass as the fraction 1.0 (suppress everything)."""
    for text in ("true", "yes", "on"):
        path = config_file(tmp_path, base_config(db.url), f"bool-{text}.yaml")
        path.write_text(path.read_text().replace("suppression_limit: 0", f"suppression_limit: {text}"))
        assert f"suppression_limit: {text}" in path.read_text()
        expect_error(["validate", path], 2, str(path), "privacy.suppression_limit")


@pytest.mark.parametrize("limit", [0, 0.0, 1, 1.0, 5])
def test_suppression_limit_edges_are_accepted(db: Engine, tmp_path: Path, limit: float) -> None:
    result = invoke("validate", config_file(tmp_path, base_config(db.url, suppression_limit=limit)), "--json")
    assert result.exit_code == 0, result.output
    expected = {0: 0, 1: 1, 5: 5}[limit] if isinstance(limit, int) else int(limit * 20)
    assert json.loads(result.stdout)["suppression_limit"] == expected


def test_bad_null_handling_and_strategy(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url, null_handling="sometimes")
    data["search"] = {"strategy": "greedy"}
    err = expect_error(["validate", config_file(tmp_path, data)], 2, "privacy.null_handling", "'sometimes'",
                       "search.strategy", "'greedy'")
    assert err.count("sqlanon: error:") == 1


def test_no_feasible_node_exits_3(both: Engine, tmp_path: Path) -> None:
    data = base_config(both.url, k=5, suppression_limit=0)
    for attr in ("age", "sex", "code"):
        data["attributes"][attr]["max_level"] = 0
    expect_error(["anonymize", config_file(tmp_path, data)], 3, "no transformation", "k=5")
    assert "t_out" not in both.tables()
    assert not any(t.startswith("sqlanon_") for t in both.tables())
