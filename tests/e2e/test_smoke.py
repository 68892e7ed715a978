"""End-to-end smoke test on both engines: a small table with NULLs, anonymized and verified."""

from __future__ import annotations

import pytest

import sqlanon
from sqlanon.config import parse_config


@pytest.mark.spark
def test_small_table_with_nulls(engine, tmp_path):
    rows = [(i, 20 + i % 7 if i % 5 else None, "F" if i % 2 else "M", "x") for i in range(40)]
    engine.create_table("people", {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "note": "VARCHAR"}, rows)
    cfg = parse_config(
        {
            "source": {"url": engine.url, "table": "people"},
            "output": {"table": "people_out"},
            "attributes": {
                "id": {"role": "identifier"},
                "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
                "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
                "note": {"role": "insensitive"},
            },
            "privacy": {"k": 3, "suppression_limit": 0.1},
        },
        base_dir=tmp_path,
    )
    result = sqlanon.anonymize(cfg)
    assert result.verified
    assert result.rows == 40
    out = engine.execute('SELECT count(*) FROM "people_out"')[0][0]
    assert out == 40 - result.suppressed_rows
    assert "people_out" in engine.tables()
    assert not any(t.startswith("sqlanon_") for t in engine.tables())


def test_temporary_tables_are_dropped_unless_the_database_ends_with_the_run(tmp_path, monkeypatch):
    """A database file keeps its connection's other objects, so each temporary table is dropped at the end;
    an in-memory database ends with the connection, and the drops would only cost time."""
    from sqlanon.engines.duckdb import DuckDBAdapter

    csv = tmp_path / "people.csv"
    csv.write_text("age;sex\n" + "".join(f"{20 + i % 7};{'FM'[i % 2]}\n" for i in range(40)), encoding="utf-8")
    config = {
        "source": {"csv": "people.csv", "delimiter": ";"},
        "output": {"table": "people_out"},
        "attributes": {
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
        },
        "privacy": {"k": 3, "suppression_limit": 0.1},
    }
    drops: list[str] = []
    original = DuckDBAdapter.drop_tables

    def drop_tables(self, tables):
        drops.extend(tables)
        return original(self, tables)

    monkeypatch.setattr(DuckDBAdapter, "drop_tables", drop_tables)
    sqlanon.anonymize(parse_config(config, base_dir=tmp_path), db="duckdb:///:memory:", dry_run=True)
    assert drops == []
    sqlanon.anonymize(parse_config(config, base_dir=tmp_path), db=f"duckdb:///{tmp_path / 'db.duckdb'}",
                      dry_run=True)
    assert any(name.endswith("_src") for name in drops) and any(name.endswith("_fs") for name in drops)
