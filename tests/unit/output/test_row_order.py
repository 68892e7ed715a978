"""The written table's rows are in random order (unsorted matching attack, seed 002), on both engines.

The source carries a unique increasing row tag in an insensitive column, inserted in tag order; the written
table's tags are read in storage order (DuckDB: a plain SELECT of a table created by CREATE TABLE AS keeps
its insertion order; PostgreSQL: ORDER BY ctid). Random data sorted by its own quasi-identifiers says nothing
about the order: the tag does. The order must not be the source's, must follow ``output.seed`` (same seed,
same order) and must change with it.
"""

from __future__ import annotations

import itertools
import secrets
from typing import Any

import pytest

import sqlanon
from sqlanon.config import parse_config
from tests.helpers import Engine, quote

pytestmark = pytest.mark.spark

ROWS = 240
_names = itertools.count()


def fresh(prefix: str) -> str:
    return f"{prefix}_{next(_names)}_{secrets.token_hex(3)}"


def make_source(engine: Engine) -> str:
    table = fresh("src")
    # Tags 0..ROWS-1 in insertion order; every class (qa, qb) holds 20 rows, so nothing is suppressed.
    rows = [(tag, f"a{tag % 4}", f"b{tag % 3}", f"name{tag}") for tag in range(ROWS)]
    engine.create_table(table, {"tag": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR", "name": "VARCHAR"}, rows)
    return table


def config(engine: Engine, source: str, output: str, seed: float | None) -> Any:
    out: dict[str, Any] = {"table": output, "if_exists": "replace"}
    if seed is not None:
        out["seed"] = seed
    return parse_config({
        "source": {"url": engine.url, "table": source},
        "output": out,
        "attributes": {
            "tag": {"role": "insensitive"},
            "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {f"a{i}": ["*"] for i in range(4)}}},
            "qb": {"role": "quasi_identifier", "hierarchy": {"inline": {f"b{i}": ["*"] for i in range(3)}}},
            "name": {"role": "identifier"},
        },
        "privacy": {"k": 2, "suppression_limit": 0},
        "history": {"enabled": False},
    })


def stored_tags(engine: Engine, table: str) -> list[int]:
    """The tags in the table's storage order. A Spark table's is its files' in the order of their names (part
    numbers: the write's partitions), each file's rows in order; Spark's own scan reads the largest file first,
    and a sorted write's split into files follows sampled range bounds, so a plain SELECT's order is not it."""
    order = {"postgres": " ORDER BY ctid",
             "spark": " ORDER BY _metadata.file_name, _metadata.row_index"}.get(engine.name, "")
    return [int(r[0]) for r in engine.execute(f"SELECT tag FROM {quote(table)}{order}")]


def written_order(engine: Engine, source: str, seed: float | None, output: str | None = None) -> list[int]:
    output = output or fresh("out")
    result = sqlanon.anonymize(config(engine, source, output, seed))
    assert result.verified is True and result.transformation == {"qa": 0, "qb": 0}
    return stored_tags(engine, output)


def test_the_source_order_is_the_tag_order(engine: Engine) -> None:
    """The premise of the tests below: read the same way, the source comes back in tag order."""
    source = make_source(engine)
    assert stored_tags(engine, source) == list(range(ROWS))


def test_written_rows_are_not_in_source_order(engine: Engine) -> None:
    source = make_source(engine)
    for seed in (None, 0.5):
        tags = written_order(engine, source, seed)
        assert sorted(tags) == list(range(ROWS))  # every row once
        assert tags != list(range(ROWS)), f"seed {seed}: the output keeps the source order"
        assert tags != sorted(tags, reverse=True), f"seed {seed}: the output is the source order reversed"
        # Not merely shifted or sorted by the quasi-identifiers: most neighbours of the source are split.
        adjacent = sum(1 for a, b in itertools.pairwise(tags) if b == a + 1)
        assert adjacent < ROWS // 4, f"seed {seed}: {adjacent} source neighbours stay neighbours"
        by_class = sorted(tags, key=lambda t: (t % 4, t % 3, t))
        assert tags != by_class, f"seed {seed}: the output is sorted by its quasi-identifiers"


def test_same_seed_same_order_other_seed_other_order(engine: Engine) -> None:
    source = make_source(engine)
    output = fresh("out")
    first = written_order(engine, source, 0.25, output)
    again = written_order(engine, source, 0.25, output)  # if_exists: replace, the same job re-run
    assert again == first
    assert written_order(engine, source, 0.25) == first  # another output table, the same seed
    other = written_order(engine, source, -0.5)
    assert other != first
    assert sorted(other) == sorted(first)


def test_without_a_seed_runs_differ(engine: Engine) -> None:
    """No seed: each run draws its own order (240! orders; two equal ones are not a coincidence)."""
    source = make_source(engine)
    assert written_order(engine, source, None) != written_order(engine, source, None)
