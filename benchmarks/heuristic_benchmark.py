"""Lattices ARX's optimal search refuses: sqlanon's heuristics against ARX's LIGHTNING, side by side.

For each dataset (every column a quasi-identifier, ARX-format hierarchies in ../shared/datasets), suppression
limit and budget, this runs, alternating in one run: ARX 3.9.2's best-effort bottom-up search (LIGHTNING,
``benchmarks/arx/ArxHeuristic.java``, compiled with javac against ../shared/arx-bench's jars) with a step
limit in checked transformations or a time limit; then sqlanon's ``top_down`` and ``lightning`` with the same
``search.budget`` (nodes or seconds), each in a fresh process on DuckDB (dry run, so the figures are the
search's). It prints the Loss each reaches (ARX's own score; sqlanon's ``loss`` is the same metric), the
checked nodes, the wall time, sqlanon's lower bound and the peak RSS of its process.

    .venv/bin/python benchmarks/heuristic_benchmark.py                       # the four rows of issue 34
    .venv/bin/python benchmarks/heuristic_benchmark.py --seconds 60          # 60 s for everyone instead
    .venv/bin/python benchmarks/heuristic_benchmark.py --datasets mach2019_int --suppression 0.05 --no-arx

Exit 2 when java/javac or ../shared/arx-bench is missing (``--no-arx`` skips ARX).
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATASETS_DIR = REPO.parent / "shared" / "datasets"
ARX_DIR = REPO.parent / "shared" / "arx-bench"
DRIVER = Path(__file__).resolve().parent / "arx" / "ArxHeuristic.java"
#: The node budgets of issue 34's table (ARX's step limits).
NODE_BUDGETS = {"mach2019_int": 500, "creditcard_int": 2000}


def columns(dataset: str) -> list[str]:
    with (DATASETS_DIR / dataset / f"{dataset}.csv").open(encoding="utf-8") as fh:
        return next(csv.reader(fh, delimiter=";"))


def hierarchy(dataset: str, column: str) -> Path:
    return DATASETS_DIR / dataset / f"{dataset}_hierarchy_{column}.csv"


def config(dataset: str, suppression: float, strategy: str, budget: dict) -> dict:
    data = DATASETS_DIR / dataset / f"{dataset}.csv"
    attributes = {c: {"role": "quasi_identifier", "hierarchy": {"csv": str(hierarchy(dataset, c)), "delimiter": ";"}}
                  for c in columns(dataset)}
    return {"source": {"url": "duckdb:///:memory:", "csv": str(data), "delimiter": ";"},
            "output": {"table": f"{dataset}_anonymized", "if_exists": "replace"}, "attributes": attributes,
            "privacy": {"k": 5, "suppression_limit": suppression},
            "search": {"strategy": strategy, "metric": "loss", "budget": budget}, "history": {"enabled": False}}


def worker(spec: str) -> None:
    """One sqlanon run in this process; prints its figures as one JSON line."""
    import sqlanon
    from sqlanon.config.loading import parse_config

    args = json.loads(spec)
    cfg = parse_config(config(args["dataset"], args["suppression"], args["strategy"], args["budget"]))
    started = time.perf_counter()
    result = sqlanon.anonymize(cfg, dry_run=True)
    print(json.dumps({"s": time.perf_counter() - started, "loss": result.metrics["loss"],
                      "checked": result.nodes_evaluated, "lower_bound": result.lower_bound,
                      "optimal": result.optimal, "levels": result.transformation,
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def run_sqlanon(dataset: str, suppression: float, strategy: str, budget: dict) -> dict:
    spec = json.dumps({"dataset": dataset, "suppression": suppression, "strategy": strategy, "budget": budget})
    done = subprocess.run([sys.executable, __file__, "--worker", spec], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def compile_driver(into: Path) -> str:
    """The classpath with the compiled driver; exits 2 naming what is missing."""
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} not found (ARX needs Java 17); use --no-arx to skip ARX")
    core = ARX_DIR / "arx-core-3.9.2.jar"
    if not core.exists():
        sys.stderr.write(f"{core} not found: ARX 3.9.2 is expected in ../shared/arx-bench\n")
        sys.exit(2)
    classpath = ":".join([str(core), *sorted(str(p) for p in (ARX_DIR / "lib").glob("*.jar"))])
    subprocess.run(["javac", "-d", str(into), "-cp", classpath, str(DRIVER)], check=True)
    return f"{into}:{classpath}"


def run_arx(classpath: str, dataset: str, suppression: float, budget: dict) -> dict:
    qis = columns(dataset)
    args = [f"data={DATASETS_DIR / dataset / f'{dataset}.csv'}", f"qi={','.join(qis)}", "k=5",
            f"supp={suppression}", "algorithm=bottom_up"]
    args += [f"hier.{q}={hierarchy(dataset, q)}" for q in qis]
    args += [f"checks={budget['nodes']}"] if "nodes" in budget else [f"seconds={budget['seconds']}"]
    started = time.perf_counter()
    done = subprocess.run(["java", "-Xmx8g", "-cp", classpath, "ArxHeuristic", *args], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["s"] = out["ms"] / 1000
    out["process_s"] = time.perf_counter() - started
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", default="mach2019_int,creditcard_int")
    parser.add_argument("--suppression", default="0,0.05", help="suppression limits, comma-separated fractions")
    parser.add_argument("--nodes", type=int, help="one node budget for all (default: issue 34's, per dataset)")
    parser.add_argument("--seconds", type=float, help="a time budget instead of a node budget")
    parser.add_argument("--strategies", default="top_down,lightning")
    parser.add_argument("--no-arx", action="store_true")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    with tempfile.TemporaryDirectory() as tmp:
        classpath = None if args.no_arx else compile_driver(Path(tmp))
        print("| dataset | supp | budget | who | loss | checked | s | lower bound | peak RSS MB |")
        print("|---|---|---|---|---|---|---|---|---|")
        for dataset in args.datasets.split(","):
            for suppression in (float(s) for s in args.suppression.split(",")):
                budget = ({"seconds": args.seconds} if args.seconds is not None
                          else {"nodes": args.nodes or NODE_BUDGETS.get(dataset, 1000)})
                shown = f"{budget['seconds']:g} s" if "seconds" in budget else f"{budget['nodes']:,} nodes"
                who_runs = [] if classpath is None else ["ARX LIGHTNING"]
                who_runs += [f"sqlanon {s}" for s in args.strategies.split(",")]
                for who in who_runs:
                    out = (run_arx(classpath, dataset, suppression, budget) if who.startswith("ARX")
                           else run_sqlanon(dataset, suppression, who.split()[-1], budget))
                    print(row(dataset, suppression, shown, who, out), flush=True)


def row(dataset: str, suppression: float, budget: str, who: str, out: dict) -> str:
    head = f"| {dataset} | {suppression:g} | {budget} | {who} |"
    if "error" in out:
        return f"{head} error: {out['error']} |||||"
    bound, rss = out.get("lower_bound"), out.get("rss_mb")
    return (f"{head} {out['loss']:.10f} | {out['checked']:,} | {out['s']:.1f} | "
            f"{'-' if bound is None else f'{bound:.4f}'} | {'-' if rss is None else f'{rss:.0f}'} |")


if __name__ == "__main__":
    main()
