"""A deterministic table of numeric quasi-identifiers for the microaggregation benchmarks.

Six correlated, skewed attributes shaped like a tax file (income, tax, contributions, interest, age, household
size) plus an id and an insensitive column. Every value is a function of the row number only (a multiplicative
hash per attribute, Box-Muller for normals), so DuckDB and PostgreSQL get the same table for the same --rows and
--seed, and a 50,000-row sample is the first 50,000 rows.

    .venv/bin/python benchmarks/generate_numeric.py --db duckdb:////tmp/num.duckdb --table num --rows 1000000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

COLUMNS = ["id", "income", "tax", "contrib", "interest", "age", "household", "region"]
QIS = ["income", "tax", "contrib", "interest", "age", "household"]


def _uniform(j: int, seed: int) -> str:
    """A pseudo-uniform value in (0, 1) from the row number i: three rounds of squaring modulo a prime below
    2^31 (every product fits a BIGINT), the same integers on every engine."""
    prime = 2_147_483_647
    a = (48_271 * (j + 1) + 7 * seed) % prime or 1
    b, c, d = ((16_807 * (j + n) + 13 * seed) % prime for n in (3, 5, 7))
    x1 = f"((CAST(i AS BIGINT) * {a} + {b}) % {prime})"
    x2 = f"(({x1} * {x1} + {c}) % {prime})"
    x3 = f"(({x2} * {x2} + {d}) % {prime})"
    return f"(({x3} + 0.5) / {prime}.0)"


def _normal(j: int, seed: int) -> str:
    return f"(sqrt(-2 * ln({_uniform(2 * j, seed)})) * cos(2 * pi() * {_uniform(2 * j + 1, seed)}))"


def select_sql(rows: int, seed: int, series: str) -> str:
    income = f"exp(10.3 + 0.8 * {_normal(0, seed)})"
    return f"""
SELECT i AS id,
       round({income}) AS income,
       round({income} * (0.12 + 0.04 * {_normal(1, seed)})) AS tax,
       round({income} * 0.07 * {_uniform(20, seed)}) AS contrib,
       round(exp(4 + 1.5 * {_normal(2, seed)})) AS interest,
       floor(18 + 62 * {_uniform(21, seed)}) AS age,
       floor(1 + 5 * {_uniform(22, seed)} * {_uniform(23, seed)}) AS household,
       'r' || CAST(i % 50 AS VARCHAR) AS region
FROM {series}
"""


def generate(db: str, table: str, rows: int, seed: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from sqlanon.engines import adapter_for_url

    adapter = adapter_for_url(db, Path.cwd())
    adapter.connect()
    try:
        series = (f"range({rows}) AS t(i)" if adapter.name == "duckdb"
                  else f"generate_series(0, {rows - 1}) AS t(i)")
        quoted = adapter.quote_identifier(table)
        adapter.execute(f"DROP TABLE IF EXISTS {quoted}")
        adapter.execute(f"CREATE TABLE {quoted} AS {select_sql(rows, seed, series)}")
    finally:
        adapter.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True)
    parser.add_argument("--table", default="num")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    generate(args.db, args.table, args.rows, args.seed)


if __name__ == "__main__":
    main()
