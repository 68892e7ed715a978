"""Warehouse scale: ADULT-shaped tables of millions of rows (benchmarks/generate_adult.py), k=5, 5%, Loss.

Each run is a fresh ``sqlanon anonymize --json`` process that writes and verifies the output table (history on,
as in production); the script prints wall seconds (median, min, max over --runs), the process's peak RSS
(getrusage of the child: DuckDB runs inside it, so its memory counts), nodes evaluated and statements.

    .venv/bin/python benchmarks/scale_benchmark.py --rows 10000000 --engines duckdb --runs 3
    .venv/bin/python benchmarks/scale_benchmark.py --rows 10000000 --engines postgres --runs 1
    .venv/bin/python benchmarks/scale_benchmark.py --rows 1000000 --duckdb-settings memory_limit=300MB,threads=2
    .venv/bin/python benchmarks/scale_benchmark.py --rows 10000000 --engines spark,duckdb --runs 1 --phases

The generated tables are kept in --workdir (default /tmp/sqlanon-scale) and reused when the row count and
seed match; PostgreSQL is SQLANON_BENCH_POSTGRES_URL or a throwaway embedded server.

With ``--baseline DIR`` (another checkout, e.g. a ``git worktree`` of an older commit) every run of this checkout
is preceded by one of that checkout's sqlanon on the same table (``PYTHONPATH=DIR``), for before/after figures
taken side by side.

With ``--phases`` one more run per engine (not among the timed ones) charges the SQL time of each statement to
its template (``profile_run.by_template``): where the time of an end-to-end run goes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import yaml  # noqa: E402
from arx_benchmark import DATASETS, Postgres, sqlanon_command  # noqa: E402
from generate_adult import COLUMNS  # noqa: E402

ADULT = DATASETS["adult"]


def config(url: str, table: str, source: str | None = None) -> dict:
    """The benchmark's config: ``table`` names the output (``<table>_k5``); ``source``: the table read, when it
    is not ``table`` (Spark reads the generated rows as parquet files)."""
    attributes = {
        q: {"role": "quasi_identifier", "hierarchy": {"csv": str(ADULT.hierarchy_path(q)), "delimiter": ";"}}
        for q in ADULT.qis
    }
    attributes.update({c: {"role": "insensitive"} for c in COLUMNS if c not in ADULT.qis})
    return {
        "source": {"url": url, "table": source or table},
        "output": {"table": f"{table}_k5", "if_exists": "replace"},
        "attributes": attributes,
        "privacy": {"k": 5, "suppression_limit": 0.05},
        "search": {"strategy": "flash", "metric": "loss"},
    }


def generate(db: str, table: str, rows: int, seed: int) -> None:
    """generate_adult.py in a process of its own: a child's peak RSS (wait4) starts at the RSS of the process it
    was forked from, and generating in this one grew it to ~190 MB (1 M rows), which every later run reported."""
    subprocess.run([sys.executable, str(Path(__file__).with_name("generate_adult.py")), "--db", db, "--table", table,
                    "--rows", str(rows), "--seed", str(seed)], check=True)


def duckdb_table(args: argparse.Namespace, table: str) -> Path:
    """The DuckDB file holding the generated table, generated on first use."""
    path = args.workdir / f"{table}.duckdb"
    marker = path.with_suffix(".done")
    if not marker.is_file():
        path.unlink(missing_ok=True)
        print(f"generating {args.rows} rows in {path} ...", file=sys.stderr)
        generate(f"duckdb:///{path}", table, args.rows, args.seed)
        marker.touch()
    return path


def engine_source(engine: str, args: argparse.Namespace, table: str) -> tuple[str, str | None, Postgres | None]:
    """(database URL, source table when not ``table``, the PostgreSQL server started for it) of an engine."""
    if engine == "duckdb":
        path = duckdb_table(args, table)
        query = "&".join(args.duckdb_settings.split(",")) if args.duckdb_settings else ""
        return f"duckdb:///{path}" + (f"?{query}" if query else ""), None, None
    if engine == "postgres":
        pg = Postgres()
        pg.start()
        print(f"generating {args.rows} rows in PostgreSQL ...", file=sys.stderr)
        generate(pg.sqlanon_url, table, args.rows, args.seed)
        return pg.sqlanon_url, None, pg
    if engine == "spark":
        # The same generated rows, as parquet files Spark reads where they lie (source.table: parquet:...); the
        # output and the run history go to a warehouse folder beside them.
        parquet = args.workdir / f"{table}.parquet"
        if not parquet.exists():
            import duckdb

            with duckdb.connect(str(duckdb_table(args, table)), read_only=True) as con:
                con.execute(f"COPY {table} TO '{parquet}' (FORMAT parquet)")
        url = f"spark:///?master=local[2]&warehouse={args.workdir / 'spark-warehouse'}&{args.spark_settings}"
        return url, f"parquet:{parquet}", None
    raise SystemExit(f"--engines: unknown engine {engine!r} (duckdb, postgres, spark)")


def run_once(config_path: Path, baseline: Path | None = None) -> dict:
    """One fresh process (of ``baseline``'s sqlanon when given); returns its JSON result plus wall seconds and
    its own peak RSS in MB (wait4)."""
    import tempfile

    env = None if baseline is None else {**os.environ, "PYTHONPATH": str(baseline)}

    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        proc = subprocess.Popen([*sqlanon_command(), "anonymize", str(config_path), "--json", "--quiet"],
                                stdout=out, stderr=err, text=True, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0:
        raise SystemExit(f"sqlanon failed ({proc.returncode}): {stdout}\n{stderr}")
    result = json.loads(stdout)
    result["_seconds"], result["_rss_mb"] = seconds, usage.ru_maxrss / 1024  # Linux: kilobytes
    return result


def phases(config_path: Path) -> None:
    """One run in this process, its SQL time charged to templates; prints the phases, largest first."""
    import profile_run

    import sqlanon

    timers = profile_run.Timers()
    profile_run.by_template(timers)
    started = time.perf_counter()
    result = sqlanon.anonymize(config_path)
    wall = time.perf_counter() - started
    sql = sum(timers.statements.values())
    print(f"  phases of one run: {wall:.2f} s wall, {sql:.2f} s in SQL ({result.statements} statements)")
    for label, seconds in sorted(timers.statements.items(), key=lambda kv: -kv[1])[:12]:
        print(f"    {seconds:8.2f} s  {timers.statement_counts[label]:5d} x  {label}")
    print(f"    {wall - sql:8.2f} s         outside SQL (Python, connections, hierarchy files)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--engines", default="duckdb")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/sqlanon-scale"))
    parser.add_argument("--duckdb-settings", default="memory_limit=300MB",
                        help="DuckDB settings as URL query parameters (k=v,k=v); bounds the process's memory")
    parser.add_argument("--spark-settings", default="spark.driver.memory=4g&spark.sql.shuffle.partitions=8",
                        help="Spark settings as URL query parameters (k=v&k=v) for --engines spark")
    parser.add_argument("--phases", action="store_true", help="one more run per engine: SQL time per template")
    parser.add_argument("--baseline", type=Path, help="another checkout whose sqlanon runs before each run of this one")
    parser.add_argument("--phases-of", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phases_of:
        phases(args.phases_of)
        return 0
    args.workdir.mkdir(parents=True, exist_ok=True)
    table = f"adult_{args.rows}_s{args.seed}"
    rows_out = []
    pg = None
    for engine in args.engines.split(","):
        url, source, started = engine_source(engine, args, table)
        pg = started or pg
        config_path = args.workdir / f"{table}_{engine}.yaml"
        config_path.write_text(yaml.safe_dump(config(url, table, source), sort_keys=False), encoding="utf-8")
        versions = [("this", None)] if args.baseline is None else [("baseline", args.baseline.resolve()),
                                                                    ("this", None)]
        results: dict[str, list[dict]] = {name: [] for name, _ in versions}
        for i in range(args.runs):
            for name, checkout in versions:
                result = run_once(config_path, checkout)
                results[name].append(result)
                print(f"  {engine} {name} run {i + 1}: {result['_seconds']:.2f} s, peak RSS {result['_rss_mb']:.0f} "
                      f"MB, {result['nodes_evaluated']} nodes, levels {list(result['transformation'].values())}",
                      file=sys.stderr)
        if args.phases:
            subprocess.run([sys.executable, __file__, "--phases-of", str(config_path)], check=True)
        for name, runs in results.items():
            seconds = [r["_seconds"] for r in runs]
            label = engine if args.baseline is None else f"{engine} ({name})"
            rows_out.append((label, args.rows, statistics.median(seconds), min(seconds), max(seconds),
                             max(r["_rss_mb"] for r in runs), runs[0]["nodes_evaluated"], runs[0]["statements"],
                             runs[0]["transformation"], runs[0]["suppressed_rows"]))
    if pg is not None:
        pg.close()
    print("\n| engine | rows | seconds median | min | max | peak RSS MB | nodes | statements | levels | suppressed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for engine, n, med, lo, hi, rss, nodes, stmts, levels, supp in rows_out:
        print(f"| {engine} | {n:,} | {med:.2f} | {lo:.2f} | {hi:.2f} | {rss:.0f} | {nodes} | {stmts} | "
              f"{','.join(str(v) for v in levels.values())} | {supp} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
