"""Generalization writes its release by kinds (``release_kinds.sql.j2``, ``write_kinds.sql.j2``): the distinct
released rows with their counts, sorted at random, each then repeated. The written table must hold exactly the
rows a row-by-row write gives (same multiset, same types), in an order that is not the source's even when
many rows are alike; a copied column that GROUP BY cannot group (PostgreSQL's json, point) falls back on the
row-by-row write, which sorts every row."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest

import sqlanon
from sqlanon.config import parse_config
from sqlanon.engines.base import EngineAdapter
from tests.helpers import Engine, quote
from tests.unit.output.test_row_order import fresh, stored_tags

pytestmark = pytest.mark.spark


def config(engine: Engine, source: str, output: str, extra: dict[str, Any] | None = None,
           mask: bool = False) -> Any:
    return parse_config({
        "source": {"url": engine.url, "table": source},
        "output": {"table": output, "if_exists": "replace", "suppressed_rows": "mask" if mask else "remove"},
        "attributes": {
            "tag": {"role": "insensitive"},
            "qa": {"role": "quasi_identifier",
                   "hierarchy": {"inline": {f"a{i}": [f"p{i % 2}", "*"] for i in range(4)}}},
            "qb": {"role": "quasi_identifier", "hierarchy": {"inline": {"x": ["*"], "y": ["*"], None: ["*"]}}},
            **(extra or {}),
        },
        "privacy": {"k": 3, "suppression_limit": 0.1},
        "search": {"strategy": "exhaustive"},
        "history": {"enabled": False},
    })


def rows(engine: Engine, table: str, columns: str) -> Counter:
    return Counter(engine.execute(f"SELECT {columns} FROM {quote(table)}"))


@pytest.mark.parametrize("mask", [False, True])
def test_the_kinds_write_the_same_rows_as_the_row_by_row_write(engine: Engine, monkeypatch, mask: bool) -> None:
    source = fresh("src")
    # 10 rows per tag group, NULLs in qb, one rare combination (suppressed or masked).
    data = [(t // 10, f"a{t % 4}", (None, "x", "y")[t % 3]) for t in range(300)] + [(99, "a3", None)]
    engine.create_table(source, {"tag": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR"}, data)
    by_kinds = fresh("out")
    result = sqlanon.anonymize(config(engine, source, by_kinds, mask=mask))
    assert result.verified is True
    by_rows = fresh("out")
    monkeypatch.setattr(EngineAdapter, "UNGROUPABLE_TYPES", frozenset({"integer", "int4", "int32"}))
    again = sqlanon.anonymize(config(engine, source, by_rows, mask=mask))
    assert again.transformation == result.transformation and again.verified is True
    assert rows(engine, by_kinds, "tag, qa, qb") == rows(engine, by_rows, "tag, qa, qb")
    assert engine.columns(by_kinds) == engine.columns(by_rows)


def test_alike_rows_do_not_keep_the_source_order(engine: Engine) -> None:
    """Tags 0..29 each on 10 alike rows, inserted in tag order: the runs of equal tags come out in another order."""
    source = fresh("src")
    data = [(t // 10, f"a{t % 2}", "x") for t in range(300)]
    engine.create_table(source, {"tag": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR"}, data)
    output = fresh("out")
    assert sqlanon.anonymize(config(engine, source, output)).verified is True
    tags = stored_tags(engine, output)
    runs = [tag for tag, _ in itertools.groupby(tags)]
    assert sorted(tags) == sorted(t for t, _, _ in data)
    assert runs != sorted(runs) and runs != sorted(runs, reverse=True)


def test_a_column_that_cannot_be_grouped_is_written_row_by_row(engine: Engine) -> None:
    """PostgreSQL cannot GROUP BY json or point, Spark a map; DuckDB groups every type (JSON is text there)."""
    source = fresh("src")
    if engine.name == "spark":
        engine.execute(f"CREATE TABLE {quote(source)} AS SELECT CAST(t AS INT) AS tag, 'a' || CAST(t % 4 AS STRING) "
                       "AS qa, 'x' AS qb, map('n', CAST(t AS INT)) AS doc FROM range(40) AS r(t)")
    else:
        kind = "JSON" if engine.name == "duckdb" else "json"
        engine.create_table(source, {"tag": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR", "doc": kind},
                            [(t, f"a{t % 4}", "x", f'{{"n": {t}}}') for t in range(40)])
    output = fresh("out")
    result = sqlanon.anonymize(config(engine, source, output, {"doc": {"role": "insensitive"}}))
    assert result.verified is True
    docs = [r[0] if isinstance(r[0], dict) else json.loads(r[0])
            for r in engine.execute(f"SELECT doc FROM {quote(output)}")]
    assert sorted(d["n"] for d in docs) == list(range(40))


def test_the_same_seed_gives_the_same_order_on_many_threads(engine: Engine) -> None:
    """300,000 kinds: several of DuckDB's row groups, read by several threads. The kinds are sorted by a salted
    hash of their content and repeated in that order, so a seed fixes the order whatever the threads do."""
    source = fresh("src")
    series = "generate_series(0, 299999) AS t(i)" if engine.name == "postgres" else "range(300000) AS t(i)"
    engine.execute(f"CREATE TABLE {quote(source)} AS SELECT CAST(i AS INTEGER) AS tag, "
                   f"'a' || CAST(mod(i, 4) AS VARCHAR) AS qa, 'x' AS qb FROM {series}")
    orders = []
    for _ in range(2):
        output = fresh("out")
        cfg = config(engine, source, output)
        cfg = cfg.model_copy(update={"output": cfg.output.model_copy(update={"seed": 0.5})})
        assert sqlanon.anonymize(cfg).verified is True
        orders.append(stored_tags(engine, output))
    assert orders[0] == orders[1] and sorted(orders[0]) == list(range(300000))
    assert orders[0] != list(range(300000))
