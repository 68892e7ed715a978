"""Microaggregation at warehouse size: MDAV on the deterministic numeric table of generate_numeric.py, and on the
CASC Census.

Each run is a fresh ``sqlanon anonymize --json`` process that writes and verifies the output table; the script
prints wall seconds (median, min, max over --runs), the process's peak RSS (DuckDB runs inside it), IL, the
number of groups, rounds and statements. ``--sample N`` also runs exact MDAV (one part) and the partitioned
MDAV of the big runs on the first N rows, side by side, and prints the ratio of their IL.

    .venv/bin/python benchmarks/microaggregation_benchmark.py --census --runs 3
    .venv/bin/python benchmarks/microaggregation_benchmark.py --rows 1000000 --engines duckdb,postgres --runs 1
    .venv/bin/python benchmarks/microaggregation_benchmark.py --rows 1000000 --sample 50000 --runs 1

Tables are kept in --workdir (default /tmp/sqlanon-microaggregation) and reused when rows and seed match;
PostgreSQL is SQLANON_BENCH_POSTGRES_URL or a throwaway embedded server.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import yaml  # noqa: E402
from arx_benchmark import Postgres  # noqa: E402
from generate_numeric import COLUMNS, QIS  # noqa: E402
from scale_benchmark import run_once  # noqa: E402

CENSUS = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets" / "census" / "census.csv"
CENSUS_QIS = ["AFNLWGT", "AGI", "EMCONTRB", "FEDTAX", "PTOTVAL", "STATETAX", "TAXINC", "POTHVAL", "INTVAL",
              "PEARNVAL", "FICA", "WSALVAL", "ERNVAL"]


def config(url: str | None, table: str | None, qis: list[str], others: list[str], k: int, partition: int,
           csv: Path | None = None, output: str | None = None) -> dict[str, Any]:
    source: dict[str, Any] = {"url": url, "table": table} if csv is None else {"csv": str(csv), "delimiter": ","}
    return {
        "method": "microaggregation",
        "source": source,
        "output": {"table": output or f"{table}_k{k}", "if_exists": "replace"},
        "attributes": {**{q: {"role": "quasi_identifier"} for q in qis},
                       **{c: {"role": "insensitive"} for c in others}},
        "privacy": {"k": k},
        "microaggregation": {"partition_size": partition, "part_size": partition},
        "history": {"enabled": False},
    }


def generate(db: str, table: str, rows: int, seed: int) -> None:
    """In a process of its own, so that its memory is not counted in a run's peak RSS (see scale_benchmark.py)."""
    subprocess.run([sys.executable, str(Path(__file__).with_name("generate_numeric.py")), "--db", db, "--table",
                    table, "--rows", str(rows), "--seed", str(seed)], check=True)


def measure(label: str, path: Path, data: dict[str, Any], runs: int) -> dict[str, Any]:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    results = []
    for i in range(runs):
        result = run_once(path)
        results.append(result)
        print(f"  {label} run {i + 1}: {result['_seconds']:.2f} s, peak RSS {result['_rss_mb']:.0f} MB, "
              f"IL {result['metrics']['information_loss']:.4f}, {result['groups']} groups, {result['rounds']} rounds",
              file=sys.stderr)
        if not result["verified"]:
            raise SystemExit(f"{label}: the written table was not verified: {result['verification']}")
    seconds = [r["_seconds"] for r in results]
    first = results[0]
    return {"label": label, "median": statistics.median(seconds), "min": min(seconds), "max": max(seconds),
            "rss": max(r["_rss_mb"] for r in results), "il": first["metrics"]["information_loss"],
            "groups": first["groups"], "rounds": first["rounds"], "parts": first["parts"],
            "statements": first["statements"], "rows": first["rows"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=0, help="rows of the generated table (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--partition-size", type=int, default=1000)
    parser.add_argument("--engines", default="duckdb")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--sample", type=int, default=0, help="also compare exact and partitioned MDAV on this many")
    parser.add_argument("--census", action="store_true", help="MDAV on the CASC Census (1,080 x 13), k=3..10")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/sqlanon-microaggregation"))
    parser.add_argument("--duckdb-settings", default="memory_limit=400MB",
                        help="DuckDB settings as URL query parameters (k=v,k=v); bounds the process's memory")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    out: list[dict[str, Any]] = []
    pg = None
    for engine in args.engines.split(","):
        if engine == "duckdb":
            path = args.workdir / f"num_{args.rows}_s{args.seed}.duckdb"
            query = "&".join(args.duckdb_settings.split(",")) if args.duckdb_settings else ""
            url = f"duckdb:///{path}" + (f"?{query}" if query else "")
        elif engine == "postgres":
            pg = Postgres()
            pg.start()
            url = pg.sqlanon_url
        else:
            raise SystemExit(f"--engines: unknown engine {engine!r} (duckdb, postgres)")
        if args.census:
            out.extend(census_runs(args, engine, url, pg))
        if args.rows:
            out.extend(generated_runs(args, engine, url))
    if pg is not None:
        pg.close()
    print("\n| run | rows | seconds median | min | max | peak RSS MB | IL | groups | parts | rounds | statements |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in out:
        print(f"| {r['label']} | {r['rows']:,} | {r['median']:.2f} | {r['min']:.2f} | {r['max']:.2f} | "
              f"{r['rss']:.0f} | {r['il']:.4f} | {r['groups']:,} | {r['parts']} | {r['rounds']} | {r['statements']} |")
    return 0


def census_runs(args: argparse.Namespace, engine: str, url: str, pg: Postgres | None) -> list[dict[str, Any]]:
    """MDAV on the CASC Census, k = 3, 5, 10 (DuckDB reads the CSV; PostgreSQL gets it loaded as a table)."""
    out = []
    for k in (3, 5, 10):
        db = url if engine == "postgres" else f"duckdb:///{args.workdir / 'census.duckdb'}"
        data = config(db, None, CENSUS_QIS, [], k, 10_000, csv=CENSUS if engine == "duckdb" else None,
                      output=f"census_k{k}")
        if engine == "postgres":
            assert pg is not None
            _load_census(pg.url)
            data["source"] = {"url": url, "table": "census"}
        out.append(measure(f"{engine} Census k={k}", args.workdir / f"census_{engine}_{k}.yaml", data,
                           args.runs))
    return out


def generated_runs(args: argparse.Namespace, engine: str, url: str) -> list[dict[str, Any]]:
    """Partitioned MDAV on --rows generated rows; with --sample, exact and partitioned MDAV on a sample."""
    # Where the generator writes: the DuckDB file without the run's settings (the server's URL as it is).
    plain = url.split("?")[0] if engine == "duckdb" else url
    out = []
    table = f"num_{args.rows}"
    marker = args.workdir / f"{table}_s{args.seed}_{engine}.done"
    if engine == "postgres" or not marker.is_file():
        print(f"generating {args.rows} rows on {engine} ...", file=sys.stderr)
        generate(plain, table, args.rows, args.seed)
        marker.touch()
    others = [c for c in COLUMNS if c not in QIS]
    data = config(url, table, QIS, others, args.k, args.partition_size)
    out.append(measure(f"{engine} {args.rows:,} rows, parts of {args.partition_size}",
                       args.workdir / f"{table}_{engine}.yaml", data, args.runs))
    if args.sample:
        sample = f"num_{args.sample}_sample"
        generate(plain, sample, args.sample, args.seed)
        for label, size in (("exact", args.sample), (f"parts of {args.partition_size}", args.partition_size)):
            data = config(url, sample, QIS, others, args.k, size)
            out.append(measure(f"{engine} {args.sample:,}-row sample, {label}",
                               args.workdir / f"{sample}_{engine}_{size}.yaml", data, args.runs))
        exact, parted = out[-2]["il"], out[-1]["il"]
        print(f"  {engine} sample: IL partitioned / exact = {parted:.4f} / {exact:.4f} = "
              f"{parted / exact:.3f}", file=sys.stderr)
    return out


def _load_census(url: str) -> None:
    import csv

    import psycopg

    with open(CENSUS, newline="") as fh:
        rows = list(csv.reader(fh))
    with psycopg.connect(url, autocommit=True) as con:
        con.execute("DROP TABLE IF EXISTS census")
        con.execute("CREATE TABLE census (" + ", ".join(f'"{c}" BIGINT' for c in rows[0]) + ")")
        with con.cursor() as cur, cur.copy("COPY census FROM STDIN") as copy:
            for row in rows[1:]:
                copy.write_row([int(v) for v in row])


if __name__ == "__main__":
    sys.exit(main())
