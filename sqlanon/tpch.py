"""TPC-H data in a DuckDB file, for anonymizing records spread over related tables
(customer -> orders -> lineitem, with the part and nation/region lookups).

The data comes from ``tpchgen-cli`` (PyPI, a test dependency: ``pip install tpchgen-cli``), written as Parquet
into a temporary folder and loaded table by table. The columns keep their TPC-H names and the generator's
types: keys BIGINT, dates DATE, quantities and prices DECIMAL(15,2), text VARCHAR.

Run as ``python -m sqlanon.tpch --scale-factor 0.01 --database tpch.duckdb``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import duckdb

EXECUTABLE = "tpchgen-cli"

# The generator's eight tables; the anonymization tests use the first six.
DEFAULT_TABLES = ("nation", "region", "part", "customer", "orders", "lineitem")
ALL_TABLES = (*DEFAULT_TABLES, "supplier", "partsupp")


def find_executable() -> str:
    """``tpchgen-cli`` beside the running interpreter (the virtual environment's scripts), else on PATH."""
    names = [EXECUTABLE + ".exe", EXECUTABLE] if os.name == "nt" else [EXECUTABLE]
    for name in names:
        candidate = Path(sys.executable).parent / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which(EXECUTABLE)
    if found is None:
        raise RuntimeError(
            f"{EXECUTABLE} was not found beside {sys.executable} nor on PATH: "
            f"pip install tpchgen-cli (it is in sqlanon's test extra: pip install -e '.[test]')"
        )
    return found


def check_tables(tables: Sequence[str]) -> tuple[str, ...]:
    """The table names, in order and without repeats; an unknown name raises ValueError.

    >>> check_tables(["orders", "customer", "orders"])
    ('orders', 'customer')
    >>> check_tables(["customers"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown TPC-H table 'customers' (tables: nation, region, part, customer, ..., partsupp)
    """
    if not tables:
        raise ValueError("no table to generate")
    for table in tables:
        if table not in ALL_TABLES:
            raise ValueError(f"unknown TPC-H table {table!r} (tables: {', '.join(ALL_TABLES)})")
    return tuple(dict.fromkeys(tables))


def command(executable: str, scale_factor: float, output_dir: Path, tables: Sequence[str]) -> list[str]:
    """The generator's command line: one Parquet file ``<output_dir>/<table>.parquet`` per table.

    >>> command("tpchgen-cli", 0.01, Path("/tmp/t"), ["nation", "orders"])
    ['tpchgen-cli', 'parquet', '--scale-factor=0.01', '--output-dir=/tmp/t', '--tables=nation,orders', '--quiet']
    """
    return [
        executable,
        "parquet",
        f"--scale-factor={scale_factor}",
        f"--output-dir={output_dir}",
        f"--tables={','.join(tables)}",
        "--quiet",
    ]


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def generate(database: Path, scale_factor: float, *, tables: Sequence[str] = DEFAULT_TABLES) -> dict[str, int]:
    """Generate the TPC-H ``tables`` at ``scale_factor`` and load each into the DuckDB file ``database``
    (created with its folder if missing; tables of the same names are replaced). Returns each table's row count.

    At scale factor 1: 150,000 customers, 1,500,000 orders, about 6,000,000 line items, 200,000 parts; nation
    (25 rows) and region (5) do not scale. Raises RuntimeError when ``tpchgen-cli`` is missing or fails.
    """
    if not scale_factor > 0:
        raise ValueError(f"the scale factor must be positive, not {scale_factor!r}")
    tables = check_tables(tables)
    executable = find_executable()
    database = Path(database)
    database.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sqlanon-tpch-") as folder:
        output_dir = Path(folder)
        argv = command(executable, scale_factor, output_dir, tables)
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(
                f"{' '.join(argv)} failed (exit {done.returncode}): {(done.stderr or done.stdout).strip()}"
            )
        counts: dict[str, int] = {}
        with duckdb.connect(str(database)) as con:
            con.execute("BEGIN TRANSACTION")
            for table in tables:
                parquet = output_dir / f"{table}.parquet"
                if not parquet.is_file():
                    raise RuntimeError(f"{' '.join(argv)} wrote no {parquet.name}")
                con.execute(
                    f'CREATE OR REPLACE TABLE "{table}" AS SELECT * FROM read_parquet({_sql_string(str(parquet))})'
                )
                counts[table] = con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            con.execute("COMMIT")
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sqlanon.tpch",
        description="Generate TPC-H tables with tpchgen-cli and load them into a DuckDB file "
        "(tables of the same names are replaced).",
        epilog="example: python -m sqlanon.tpch --scale-factor 0.01 --database tpch.duckdb "
        "(1,500 customers, 15,000 orders, about 60,000 line items, in about a second)",
    )
    parser.add_argument("--database", type=Path, required=True, help="the DuckDB file to write (created if missing)")
    parser.add_argument(
        "--scale-factor", type=float, default=0.01,
        help="TPC-H scale factor: 1 is 150,000 customers and about 6,000,000 line items (default: 0.01)",
    )
    parser.add_argument(
        "--tables", default=",".join(DEFAULT_TABLES),
        help=f"comma-separated tables among {', '.join(ALL_TABLES)} (default: {','.join(DEFAULT_TABLES)})",
    )
    args = parser.parse_args(argv)
    tables = [name.strip() for name in args.tables.split(",") if name.strip()]
    start = time.perf_counter()
    try:
        counts = generate(args.database, args.scale_factor, tables=tables)
    except (RuntimeError, ValueError) as exc:
        parser.exit(2, f"error: {exc}\n")
    for table, count in counts.items():
        print(f"{table:<10} {count:>12,}")
    print(f"scale factor {args.scale_factor:g} -> {args.database} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
