"""Local recoding (KACA, ``method: local_recoding``) on ARX's benchmark datasets, beside the optimal full-domain
generalization of the same data under the same WHD.

For each dataset and engine: wall seconds of ``sqlanon.anonymize`` (median, min, max over --runs; the CSV is read
into DuckDB's :memory: by the run itself, PostgreSQL runs start from a loaded table), the released table verified,
WHD per cell and modification rate, classes and merge rounds; then the optimal full-domain generalization at 0%
suppression under ``search.metric: whd`` (the fairest full-domain opponent) and the factor between the two WHDs.
With --one-at-a-time, the paper's one-merge-per-round KACA too, for its distortion against the batched rounds.

    .venv/bin/python benchmarks/local_recoding_benchmark.py --datasets adult,cup,fars --runs 3
    .venv/bin/python benchmarks/local_recoding_benchmark.py --datasets adult --engines postgres
    .venv/bin/python benchmarks/local_recoding_benchmark.py --datasets adult --one-at-a-time --runs 1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import arx_benchmark as ab  # noqa: E402  (the datasets and their configs, shared with the ARX benchmark)

import sqlanon  # noqa: E402
from sqlanon.config import parse_config  # noqa: E402


def config(ds: ab.Dataset, k: int, engine: str, pg: ab.Postgres | None, method: str, **settings: Any) -> Any:
    data = ab.build_config(ds, k, 0.0, "loss", table=None if engine == "duckdb" else pg.table_for(ds))
    if engine == "postgres":
        assert pg is not None
        data["source"]["url"] = pg.sqlanon_url
    if method == "local_recoding":
        data.pop("search")
        data["method"] = "local_recoding"
        data["local_recoding"] = settings
    else:
        data["search"]["metric"] = "whd"
    return parse_config(data)


def measure(label: str, cfg: Any, runs: int) -> dict[str, Any]:
    seconds, result = [], None
    for i in range(runs):
        started = time.perf_counter()
        result = sqlanon.anonymize(cfg)
        seconds.append(time.perf_counter() - started)
        if not result.verified:
            raise SystemExit(f"{label}: the written table was not verified: {result.verification}")
        print(f"  {label} run {i + 1}: {seconds[-1]:.2f} s, WHD {result.metrics['whd']:.6f}", file=sys.stderr)
    assert result is not None
    details = result.details
    return {"label": label, "median": statistics.median(seconds), "min": min(seconds), "max": max(seconds),
            "whd": result.metrics["whd"], "mr": result.metrics.get("modification_rate"),
            "classes": details.get("classes"), "rounds": details.get("rounds"),
            "transformation": details.get("transformation"), "statements": result.statements}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default="adult,cup,fars")
    parser.add_argument("--engines", default="duckdb")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--one-at-a-time", action="store_true", help="also the paper's one merge per round (slow)")
    args = parser.parse_args(argv)
    pg = ab.Postgres() if "postgres" in args.engines.split(",") else None
    rows = []
    try:
        for key in args.datasets.split(","):
            ds = ab.DATASETS[ab.ALIASES.get(key, key)]
            for engine in args.engines.split(","):
                name = f"{ds.label} {engine} k={args.k}"
                batched = measure(f"{name} KACA batched", config(ds, args.k, engine, pg, "local_recoding"), args.runs)
                full = measure(f"{name} full-domain (whd)", config(ds, args.k, engine, pg, "generalization"),
                               args.runs)
                batched["factor"] = full["whd"] / batched["whd"] if batched["whd"] else float("inf")
                rows += [batched, full]
                if args.one_at_a_time:
                    one = measure(f"{name} KACA one-at-a-time",
                                  config(ds, args.k, engine, pg, "local_recoding", merging="one_at_a_time"), 1)
                    one["factor"] = full["whd"] / one["whd"] if one["whd"] else float("inf")
                    rows.append(one)
    finally:
        if pg is not None:
            pg.close()
    print("\n| run | seconds median | min | max | WHD per cell | full-domain WHD / this | modification rate | "
          "classes | rounds | levels (full-domain) | statements |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        factor = f"{r['factor']:.2f}" if "factor" in r else "-"
        mr = "-" if r["mr"] is None else f"{100 * r['mr']:.2f}%"
        levels = ",".join(map(str, r["transformation"].values())) if r["transformation"] else "-"
        print(f"| {r['label']} | {r['median']:.2f} | {r['min']:.2f} | {r['max']:.2f} | {r['whd']:.6f} | {factor} | "
              f"{mr} | {r['classes'] or '-'} | {r['rounds'] or '-'} | {levels} | {r['statements']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
