"""Generate a large table with ADULT's columns and value distributions, inside the database (deterministic).

Every column is drawn independently from ADULT's marginal distribution: value index u in [0, 30162) picks the
u-th value of the column sorted, from a per-row, per-column pseudo-random number computed in SQL with BIGINT
arithmetic only (x = (a * r + b) mod p, u = x^2 mod p mod n, p = 2^31 - 1), so DuckDB and PostgreSQL build the
same table for the same seed. Independent marginals make many more distinct quasi-identifier combinations
than ADULT itself (a resample of ADULT's rows would be k-anonymous at the bottom node): the hard case.

    .venv/bin/python benchmarks/generate_adult.py --db duckdb:////tmp/adult10m.duckdb --rows 10000000
    .venv/bin/python benchmarks/generate_adult.py --db postgresql://user@host/db --rows 10000000 --seed 7

Rows never pass through Python: ADULT's CSV is read by the engine (DuckDB's reader, PostgreSQL COPY streamed
as bytes) and the big table is one INSERT ... SELECT.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ADULT = REPO.parent / "shared" / "datasets" / "adult" / "adult.csv"
COLUMNS = ("sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation",
           "salary-class")
PRIME = 2_147_483_647


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _multipliers(seed: int) -> list[tuple[int, int]]:
    """(a, b) per column, fixed by the seed (a < 2^20 keeps a * r below 2^63 for r < 2^40)."""
    import random

    rnd = random.Random(seed)
    return [(rnd.randrange(1 << 16, 1 << 20), rnd.randrange(1, PRIME)) for _ in COLUMNS]


def generation_sql(table: str, rows: int, seed: int, engine: str) -> list[str]:
    series = f"range({rows}) AS t(r)" if engine == "duckdb" else f"generate_series(0::bigint, {rows - 1}) AS t(r)"
    picks, draws, joins, selects = [], [], [], []
    for i, (column, (a, b)) in enumerate(zip(COLUMNS, _multipliers(seed), strict=True)):
        picks.append(
            f"CREATE TABLE sqlanon_gen_pick{i} AS SELECT CAST(row_number() OVER (ORDER BY {_q(column)}) - 1 AS BIGINT)"
            f" AS u, {_q(column)} AS v FROM sqlanon_gen_adult"
        )
        x = f"(({a} * r + {b}) % {PRIME})"
        draws.append(f"(({x} * {x}) % {PRIME}) % (SELECT count(*) FROM sqlanon_gen_adult) AS u{i}")
        joins.append(f"JOIN sqlanon_gen_pick{i} AS p{i} ON p{i}.u = g.u{i}")
        selects.append(f"p{i}.v AS {_q(column)}")
    return [
        *picks,
        f"DROP TABLE IF EXISTS {_q(table)}",
        f"CREATE TABLE {_q(table)} AS SELECT {', '.join(selects)} FROM (SELECT r, {', '.join(draws)} "
        f"FROM {series}) AS g {' '.join(joins)}",
        *[f"DROP TABLE sqlanon_gen_pick{i}" for i in range(len(COLUMNS))],
        "DROP TABLE sqlanon_gen_adult",
    ]


def generate(db: str, table: str, rows: int, seed: int) -> float:
    """Create ``table`` with ``rows`` rows in the database at ``db``; return the seconds it took."""
    if not ADULT.is_file():
        raise SystemExit(f"ADULT not found at {ADULT} (../shared/datasets beside the repository)")
    started = time.perf_counter()
    if db.startswith("duckdb:"):
        import duckdb

        path = db.removeprefix("duckdb:///").split("?")[0]
        con = duckdb.connect(path)
        try:
            con.execute("DROP TABLE IF EXISTS sqlanon_gen_adult")
            con.execute("CREATE TABLE sqlanon_gen_adult AS SELECT * FROM read_csv(?, delim = ';', header = true, "
                        "all_varchar = true)", [str(ADULT)])
            for statement in generation_sql(table, rows, seed, "duckdb"):
                con.execute(statement)
            con.execute("CHECKPOINT")
        finally:
            con.close()
    else:
        import psycopg

        url = db.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(url, autocommit=True) as con:
            con.execute("DROP TABLE IF EXISTS sqlanon_gen_adult")
            con.execute("CREATE TABLE sqlanon_gen_adult (" + ", ".join(f"{_q(c)} TEXT" for c in COLUMNS) + ")")
            copy_sql = "COPY sqlanon_gen_adult FROM STDIN WITH (FORMAT csv, DELIMITER ';', HEADER true)"
            with con.cursor() as cur, cur.copy(copy_sql) as copy, ADULT.open("rb") as fh:
                while chunk := fh.read(1 << 20):
                    copy.write(chunk)
            for statement in generation_sql(table, rows, seed, "postgres"):
                con.execute(statement)
            con.execute(f"ANALYZE {_q(table)}")
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="duckdb:///file.duckdb or postgresql://...")
    parser.add_argument("--table", default="adult_big")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    seconds = generate(args.db, args.table, args.rows, args.seed)
    print(f"generated {args.table} ({args.rows} rows, seed {args.seed}) in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
