"""The source grouped once (``Preparation._grouping``, ``group_source_rows.sql.j2``): where the engine groups
before joining lookups (PostgreSQL), the records are counted from the grouped rows, and the frequency set and the
release's kinds read them, instead of the source. The grouping is forced on for DuckDB here too, and each run is
compared with the same run without it (``output.seed`` fixed): the same table, row for row in the same order,
and the same counts and report figures. The source has a column named like the grouped table's count column,
NULLs, duplicate rows, a sensitive attribute with a model and an insensitive column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import sqlanon
from sqlanon.engines.base import EngineAdapter
from tests.helpers import Engine, write_config

ROWS = [
    # id, age, sex, sqlanon_rows (an insensitive column named like the count column), diagnosis
    (i, None if i % 9 == 0 else 20 + i % 5, None if i % 11 == 0 else ("M" if i % 2 else "F"), i % 2,
     ["flu", "cold", "asthma"][i % 4 % 3])
    for i in range(80)
]


def make_source(engine: Engine) -> None:
    engine.create_table("patients", {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR",
                                     "sqlanon_rows": "INTEGER", "diagnosis": "VARCHAR"}, ROWS)


def config(engine: Engine, output: str, mode: str, null_handling: str) -> dict[str, Any]:
    return {
        "source": {"url": engine.url, "table": "patients"},
        "output": {"table": output, "suppressed_rows": mode, "seed": 0.5},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10, 20]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "sqlanon_rows": {"role": "insensitive"},
            "diagnosis": {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 2}}]},
        },
        "privacy": {"k": 4, "suppression_limit": 0.1, "null_handling": null_handling},
    }


def recording(run: Any, reads: list[tuple[str, Any]]) -> Any:
    """``EngineAdapter.run`` that notes each template and the source it reads."""

    def wrapped(self: EngineAdapter, template: str, **context: Any) -> list[tuple[Any, ...]]:
        reads.append((template, context.get("source")))
        return run(self, template, **context)

    return wrapped


# Spark joins before grouping and is not asked to group here (no Spark instance: README, "On a cluster").
@pytest.mark.parametrize("engine", ["duckdb", "postgres"], indirect=True)
@pytest.mark.parametrize(("mode", "null_handling"), [("remove", "extended"), ("mask", "basic")])
def test_grouped_rows_release_the_same_table(engine: Engine, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                             mode: str, null_handling: str) -> None:
    make_source(engine)
    results, tables = {}, {}
    for grouped in (False, True):
        reads: list[tuple[str, Any]] = []
        with monkeypatch.context() as patch:
            patch.setattr(EngineAdapter, "run", recording(EngineAdapter.run, reads))
            patch.setattr(EngineAdapter, "GROUPS_BEFORE_LOOKUPS", grouped)
            for subclass in EngineAdapter.__subclasses__():  # PostgreSQL's sets it on its class
                if "GROUPS_BEFORE_LOOKUPS" in vars(subclass):
                    patch.setattr(subclass, "GROUPS_BEFORE_LOOKUPS", grouped)
            output = f"out_{int(grouped)}"
            path = write_config(tmp_path / f"{output}.yaml", config(engine, output, mode, null_handling))
            results[grouped] = sqlanon.anonymize(path)
        groupings = [source for template, source in reads if template == "group_source_rows.sql.j2"]
        readers = {template: source for template, source in reads
                   if template in ("build_frequency_set.sql.j2", "release_kinds.sql.j2", "count_rows.sql.j2")}
        assert set(readers) == {"build_frequency_set.sql.j2", "release_kinds.sql.j2", "count_rows.sql.j2"}
        if grouped:  # the records are counted from the grouped rows too: the source is read once
            assert [source[-1] for source in groupings] == ["patients"], groupings
            assert all(source[-1].endswith("_gr") for source in readers.values()), readers
        else:
            assert groupings == []
            assert all(source[-1] == "patients" for source in readers.values()), readers
        tables[grouped] = engine.execute(f'SELECT * FROM "{output}"')
    plain, once = results[False], results[True]
    assert once.verified is plain.verified is True
    assert once.transformation == plain.transformation
    assert once.suppressed_rows == plain.suppressed_rows
    expected_removed = sum(1 for r in ROWS if r[1] is None or r[2] is None) if null_handling == "basic" else 0
    for result in (plain, once):
        assert (result.rows, result.removed_for_null, result.rows_considered) == (
            len(ROWS), expected_removed, len(ROWS) - expected_removed)
    assert tables[True] == tables[False]
    assert [c for c, _ in engine.columns("out_1")] == ["age", "sex", "sqlanon_rows", "diagnosis"]
