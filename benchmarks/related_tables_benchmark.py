"""Related tables (``method: related_tables``, seed 003) on TPC-H generated with ``tpchgen-cli``: the paper's tree
(nation -> order date -> order total price -> line quantity -> brand; at most 2 orders per customer and 3 items
per order, ``configs/tpch.yaml``), swept over k, m, n, the strategy and the scale factor (the trends of the
paper's Figures 11-17: loss and time against k, m, n and |D|).

Each setting runs in a fresh process (its peak RSS is its own) on a copy of the generated database; the table
printed has wall seconds (median of --runs), peak RSS, cuts evaluated and passed, disassociations, RPD, ML2 and
dML2, and whether the written trees were verified. Settings are interleaved run by run, so that their figures
are taken side by side.

    .venv/bin/python benchmarks/related_tables_benchmark.py --scale-factor 0.01 --k 5,20,100 --runs 3
    .venv/bin/python benchmarks/related_tables_benchmark.py --scale-factor 0.01 --m 2,3,4 --n 0,1,2,3
    .venv/bin/python benchmarks/related_tables_benchmark.py --scale-factor 0.01 --strategy greedy_cut,only_cuts,all_cuts
    .venv/bin/python benchmarks/related_tables_benchmark.py --scale-factor 0.005,0.01,0.02
    .venv/bin/python benchmarks/related_tables_benchmark.py --scale-factor 1 --duckdb-settings memory_limit=700MB
    .venv/bin/python benchmarks/related_tables_benchmark.py --scale-factor 0.1 --bound off,on   # the RPD bound's effect
    git worktree add /tmp/before 097dbec && \
    .venv/bin/python benchmarks/related_tables_benchmark.py --baseline /tmp/before --runs 2   # before/after
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def worker(args: argparse.Namespace) -> None:
    """One run in this process: print its figures as one JSON object."""
    import resource
    import time

    import sqlanon
    from sqlanon.config import parse_config

    data = yaml.safe_load((REPO / "configs" / "tpch.yaml").read_text(encoding="utf-8"))
    settings = f"?{args.duckdb_settings}" if getattr(args, "duckdb_settings", "") else ""
    data["source"] = {"url": f"duckdb:///{args.database}{settings}"}
    data["privacy"] = {"k": args.k, "m": args.m, "n": args.n}
    data["search"] = {"strategy": args.strategy, "beam": args.beam, "max_cuts": args.max_cuts,
                      "bound": args.bound == "on"}
    data["output"] = {"table": "customer_trees", "if_exists": "replace"}
    data["history"] = {"enabled": False}
    cfg = parse_config(data, base_dir=REPO / "configs")
    started = time.perf_counter()
    try:
        result = sqlanon.anonymize(cfg)
        figures = {"seconds": time.perf_counter() - started, "verified": result.verified,
                   "cuts": result.cuts_evaluated, "passed": result.cuts_passed,
                   "bounded": result.subtrees_bounded,
                   "disassociations": len(result.disassociations), "stopped": result.search_stopped_early,
                   "records": result.rows_considered, **{k: result.metrics[k] for k in ("rpd", "ml2", "dml2")}}
    except sqlanon.NoSolutionError:
        figures = {"seconds": time.perf_counter() - started, "verified": None, "no_solution": True}
    figures["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale-factor", default="0.01", help="TPC-H scale factors, comma-separated")
    parser.add_argument("--k", default="20")
    parser.add_argument("--m", default="3")
    parser.add_argument("--n", default="2")
    parser.add_argument("--strategy", default="greedy_cut")
    parser.add_argument("--beam", type=int, default=2)
    parser.add_argument("--max-cuts", type=int, default=0, help="stop a search after this many cuts (0: never)")
    parser.add_argument("--bound", default="on",
                        help="search.bound: on, off, or off,on to run both side by side (the subtrees skipped by "
                             "the RPD bound, column 'skip')")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--duckdb-settings", default="",
                        help="DuckDB settings for the runs, as on a URL: memory_limit=700MB&threads=2")
    parser.add_argument("--baseline", type=Path,
                        help="another checkout of sqlanon (e.g. a git worktree of an older commit): each setting "
                             "also runs with it, alternating with this one run by run")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        args.k, args.m, args.n = int(args.k), int(args.m), int(args.n)
        worker(args)
        return
    from sqlanon.tpch import generate

    def ints(text: str) -> list[int]:
        return [int(x) for x in text.split(",")]

    settings = list(itertools.product(args.scale_factor.split(","), ints(args.k), ints(args.m), ints(args.n),
                                      args.strategy.split(","), args.bound.split(",")))
    with tempfile.TemporaryDirectory(prefix="sqlanon-tpch-") as tmp:
        databases = {}
        for sf in dict.fromkeys(s[0] for s in settings):
            databases[sf] = Path(tmp) / f"tpch_{sf}.duckdb"
            generate(databases[sf], float(sf))
        versions = {"this": REPO} if args.baseline is None else {"baseline": args.baseline.resolve(), "this": REPO}
        figures: dict[tuple, list[dict]] = {(*s, v): [] for s in settings for v in versions}
        for _ in range(args.runs):
            for sf, k, m, n, strategy, bound in settings:
                for version, checkout in versions.items():
                    copy = Path(tmp) / "run.duckdb"
                    shutil.copyfile(databases[sf], copy)
                    # The worker of that checkout, importing that checkout's sqlanon.
                    env = {**os.environ, "PYTHONPATH": str(checkout)}
                    command = [sys.executable, str(checkout / "benchmarks" / Path(__file__).name), "--worker",
                               "--database", str(copy), "--k", str(k), "--m", str(m), "--n", str(n),
                               "--strategy", strategy, "--beam", str(args.beam), "--max-cuts", str(args.max_cuts)]
                    if bound != "on":  # a baseline from before search.bound has no such option (and no bound)
                        command += ["--bound", bound]
                    if args.duckdb_settings:
                        command += ["--duckdb-settings", args.duckdb_settings]
                    out = subprocess.run(command, capture_output=True, text=True, env=env)
                    if out.returncode != 0:
                        sys.exit(f"{version} run failed ({' '.join(command)}):\n{out.stderr}")
                    last_line = out.stdout.strip().splitlines()[-1]
                    figures[(sf, k, m, n, strategy, bound, version)].append(json.loads(last_line))
    print_table(figures, args.runs)


def print_table(figures: dict[tuple, list[dict]], runs: int) -> None:
    print(f"{'SF':>6} {'k':>4} {'m':>2} {'n':>2} {'strategy':<11} {'bound':<5} {'version':<8} {'records':>8} "
          f"{'seconds':>9} {'RSS MB':>7} {'cuts':>6} {'passed':>6} {'skip':>4} {'SD':>4} {'RPD':>9} "
          f"{'ML2':>7} {'dML2':>7} verified")
    for (sf, k, m, n, strategy, bound, version), done in figures.items():
        seconds = statistics.median(r["seconds"] for r in done)
        rss = max(r["rss_mb"] for r in done)
        last = done[-1]
        head = f"{sf:>6} {k:>4} {m:>2} {n:>2} {strategy:<11} {bound:<5} {version:<8}"
        if last.get("no_solution"):
            print(f"{head} {'':>8} {seconds:9.2f} {rss:7.0f}  no solution")
            continue
        stop = "*" if last["stopped"] else " "
        print(f"{head} {last['records']:>8} {seconds:9.2f} {rss:7.0f} "
              f"{last['cuts']:>5}{stop} {last['passed']:>6} {last.get('bounded', 0):>4} {last['disassociations']:>4} "
              f"{last['rpd']:9.5f} "
              f"{last['ml2']:7.4f} {last['dml2']:7.4f} {last['verified']}")
    if runs > 1:
        print("seconds: median of", runs, "runs; * = stopped at --max-cuts")


if __name__ == "__main__":
    main()
