"""Privacy model config errors exit with code 2 and name what is wrong (the attribute, the model, the
parameter); numeric models refuse a text column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sqlanon.cli import main
from tests.helpers import write_config
from tests.strategies import fresh

pytestmark = pytest.mark.spark


def _error_configs(source: str, population: str, url: str) -> list[tuple[str, dict[str, Any], list[str]]]:
    """(label, config, substrings the error message must contain)."""
    qa = {"inline": {"a": ["*"], "b": ["*"]}}

    def config(diag: dict[str, Any], income: dict[str, Any] | None = None,
               privacy: dict[str, Any] | None = None, qb: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "source": {"url": url, "table": source},
            "output": {"table": f"{source}_out", "if_exists": "replace"},
            "attributes": {
                "qa": {"role": "quasi_identifier", "hierarchy": qa},
                "qb": qb or {"role": "insensitive"},
                "diag": diag,
                "income": income or {"role": "sensitive"},
            },
            "privacy": {"k": 2, "suppression_limit": 0.5, **(privacy or {})},
        }

    sens = {"role": "sensitive"}
    return [
        ("unknown model", config({**sens, "models": [{"l_closeness": {"l": 2}}]}),
         ["attributes.diag.models.0", "l_closeness"]),
        ("two keys", config({**sens, "models": [{"distinct_l_diversity": {"l": 2}, "p_sensitivity": {"p": 2}}]}),
         ["attributes.diag.models.0", "exactly one"]),
        ("l < 1", config({**sens, "models": [{"distinct_l_diversity": {"l": 0}}]}),
         ["attributes.diag.models.0.distinct_l_diversity.l"]),
        ("entropy l < 1", config({**sens, "models": [{"entropy_l_diversity": {"l": 0.5}}]}),
         ["attributes.diag.models.0.entropy_l_diversity.l"]),
        ("t > 1", config({**sens, "models": [{"t_closeness": {"t": 1.5}}]}),
         ["attributes.diag.models.0.t_closeness.t"]),
        ("hierarchical without hierarchy",
         config({**sens, "models": [{"t_closeness": {"t": 0.2, "distance": "hierarchical"}}]}),
         ["attributes.diag", "hierarchy"]),
        ("models on a quasi-identifier",
         config(sens, qb={"role": "quasi_identifier", "hierarchy": qa, "models": [{"p_sensitivity": {"p": 2}}]}),
         ["attributes.qb", "sensitive attributes only"]),
        ("models on an insensitive attribute",
         config(sens, qb={"role": "insensitive", "models": [{"p_sensitivity": {"p": 2}}]}),
         ["attributes.qb", "sensitive attributes only"]),
        ("k_e on a text column", config({**sens, "models": [{"k_e_anonymity": {"e": 5}}]}),
         ["attributes.diag", "numeric"]),
        ("ordered t on a text column", config({**sens, "models": [{"t_closeness": {"t": 0.5, "distance": "ordered"}}]}),
         ["attributes.diag", "numeric"]),
        ("delta_min > delta_max",
         config(sens, privacy={"delta_presence": {"population_table": population, "delta_min": 0.6,
                                                  "delta_max": 0.1}}),
         ["privacy.delta_presence", "delta_min", "delta_max"]),
        ("missing population table",
         config(sens, privacy={"delta_presence": {"population_table": "no_such_population", "delta_min": 0,
                                                  "delta_max": 0.5}}),
         ["population_table", "no_such_population"]),
    ]


def test_config_errors_exit_2_and_name_the_problem(engine, tmp_path: Path) -> None:
    source, population = fresh("src"), fresh("pop")
    rows = [("a", "x", "flu", 10), ("a", "y", "cold", 20), ("b", "x", "flu", 30), ("b", "y", None, None)]
    engine.create_table(source, {"qa": "VARCHAR", "qb": "VARCHAR", "diag": "VARCHAR", "income": "INTEGER"}, rows)
    engine.create_table(population, {"qa": "VARCHAR", "qb": "VARCHAR"}, [(r[0], r[1]) for r in rows] * 2)
    runner = CliRunner()
    for label, data, needles in _error_configs(source, population, engine.url):
        path = write_config(tmp_path / f"{label.replace(' ', '_')}.yaml", data)
        for command in (["validate", str(path)], ["anonymize", str(path), "--dry-run", "--quiet"]):
            result = runner.invoke(main, command)
            text = result.output  # stdout and stderr, as the user sees them
            assert result.exit_code == 2, f"{label} ({command[0]}): exit {result.exit_code}\n{text}"
            assert "error" in text, f"{label}: {text}"
            for needle in needles:
                assert needle in text, f"{label}: {needle!r} not in {text!r}"

    # The same configs are fine once the mistake is fixed: the numeric column takes (k,e) and ordered t.
    good = _error_configs(source, population, engine.url)[0][1]
    good["attributes"]["income"] = {"role": "sensitive", "models": [
        {"k_e_anonymity": {"e": 5}}, {"t_closeness": {"t": 1, "distance": "ordered"}}]}
    good["attributes"]["diag"] = {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 1}}]}
    good["privacy"]["delta_presence"] = {"population_table": population, "delta_min": 0, "delta_max": 1}
    path = write_config(tmp_path / "good.yaml", good)
    result = runner.invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("model", [{"k_e_anonymity": {"e": 5}}, {"t_closeness": {"t": 0.1, "distance": "ordered"}}])
def test_numeric_models_refuse_a_text_column_of_digits(engine, tmp_path: Path, model: dict[str, Any]) -> None:
    """A VARCHAR column is a text column even when every value happens to look like a number: the models
    "for a numeric sensitive attribute" must not depend on whether today's values cast (text order would
    rank '10' < '100' < '9' for the ordered distance)."""
    source = fresh("src")
    rows = [("a", "9"), ("a", "10"), ("b", "100"), ("b", "9"), ("a", "100"), ("b", "10")]
    engine.create_table(source, {"qa": "VARCHAR", "amount": "VARCHAR"}, rows)
    data = {
        "source": {"url": engine.url, "table": source},
        "output": {"table": f"{source}_out", "if_exists": "replace"},
        "attributes": {
            "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {"a": ["*"], "b": ["*"]}}},
            "amount": {"role": "sensitive", "models": [model]},
        },
        "privacy": {"k": 1},
    }
    path = write_config(tmp_path / "digits.yaml", data)
    result = CliRunner().invoke(main, ["anonymize", str(path), "--dry-run", "--quiet"])
    assert result.exit_code == 2, result.output
    assert "attributes.amount" in result.output and "numeric" in result.output, result.output
