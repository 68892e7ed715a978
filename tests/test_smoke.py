"""End-to-end smoke test on both engines: a small table with NULLs, anonymized and verified."""

from __future__ import annotations

import sqlanon
from sqlanon.config import parse_config


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
