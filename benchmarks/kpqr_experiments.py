"""Seed 004's experiments (Domingo-Ferrer, Sebé, Solanas, PSD 2008, Tables 1-3) on the CASC Census: MDAV,
(k,p,q,r)-anonymity and p-sensitive microaggregation of its first 12 attributes, with the paper's synthetic
sensitive attribute L (unskewed: 1..10 each 108 times; skewed: 1..9 ten times each, 10 990 times), assigned to
the records by a seeded shuffle. Prints the three tables as markdown (docs/microaggregation.md shows them beside
the paper's).

    .venv/bin/python benchmarks/kpqr_experiments.py --engine duckdb --seed 1
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CENSUS = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets" / "census" / "census.csv"


def synthetic(kind: str, seed: int) -> list[int]:
    values = [v for v in range(1, 11) for _ in range(108)] if kind == "unskewed" else \
        [v for v in range(1, 10) for _ in range(10)] + [10] * 990
    random.Random(seed).shuffle(values)
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=["duckdb", "postgres"], default="duckdb")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import sqlanon
    from sqlanon.config import parse_config
    from sqlanon.engines import adapter_for_url

    with open(CENSUS, newline="") as fh:
        header, *rows = list(csv.reader(fh))
    qis = header[:12]
    pg = None
    if args.engine == "postgres":
        from arx_benchmark import Postgres

        pg = Postgres()
        pg.start()
        url = pg.sqlanon_url
    else:
        url = f"duckdb:///{Path(tempfile.mkdtemp()) / 'kpqr.duckdb'}"
    adapter = adapter_for_url(url)
    adapter.connect()
    for kind in ("unskewed", "skewed"):
        values = synthetic(kind, args.seed)
        adapter.execute(f"DROP TABLE IF EXISTS census_{kind}")
        adapter.execute(f"CREATE TABLE census_{kind} (" + ", ".join(f'"{c}" BIGINT' for c in qis) + ', "L" INTEGER)')
        adapter.bulk_insert(f"census_{kind}", 13, [[int(v) for v in r[:12]] + [lv] for r, lv in zip(rows, values,
                                                                                                    strict=True)])
    adapter.close()

    def run(kind: str, k: int, model: dict[str, Any] | None) -> tuple[float, float]:
        attributes: dict[str, Any] = {q: {"role": "quasi_identifier"} for q in qis}
        attributes["L"] = {"role": "sensitive", **({"models": [model]} if model else {})}
        started = time.perf_counter()
        result = sqlanon.anonymize(parse_config({
            "method": "microaggregation", "source": {"url": url, "table": f"census_{kind}"},
            "output": {"table": "out", "if_exists": "replace"}, "attributes": attributes,
            "privacy": {"k": k}, "history": {"enabled": False}}))
        if not result.verified:
            raise SystemExit(f"not verified: {result.verification}")
        return result.metrics["information_loss"], time.perf_counter() - started

    print(f"engine {args.engine}, seed {args.seed}\n")
    print("Table 1 (unskewed, k = 5, p = 4, q = 0.2)\n\n| r | IL | seconds |\n|---|---|---|")
    for r in (0.1, 0.3, 0.5, 0.7, 0.9):
        il, s = run("unskewed", 5, {"kpqr_anonymity": {"p": 4, "q": 0.2, "r": r}})
        print(f"| {r} | {il:.2f} | {s:.1f} |")
    il_k, _ = run("unskewed", 5, None)
    il_p, _ = run("unskewed", 5, {"p_sensitivity": {"p": 4}})
    print(f"\nk = 5: k-anonymity (MDAV) {il_k:.2f}, p-sensitive (p = 4) {il_p:.2f}\n")
    for kind, number in (("unskewed", 2), ("skewed", 3)):
        print(f"Table {number} ({kind}, q = 0.2, r = 0.5)\n\n| k | p | k-anonymity | (k,p,q,r) | p-sensitive |\n"
              "|---|---|---|---|---|")
        for k, p in ((3, 2), (4, 3), (7, 5)):
            mdav, _ = run(kind, k, None)
            kpqr, _ = run(kind, k, {"kpqr_anonymity": {"p": p, "q": 0.2, "r": 0.5}})
            psens, _ = run(kind, k, {"p_sensitivity": {"p": p}})
            print(f"| {k} | {p} | {mdav:.2f} | {kpqr:.2f} | {psens:.2f} |")
        print()
    if pg is not None:
        pg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
