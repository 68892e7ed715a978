"""Cloaking (``method: cloaking``) on generated location/time data, beside the best uniform grid.

The generator (``generate``) is deterministic: every value is a hash of the row number, so the same rows come
out on every machine. Points cluster around a few centres in a city-sized region (New York's box), with a
spread per centre; times follow a daily rhythm (most records by day, few at night) over 30 days; 5,000
subjects with 200 records each at 1 M rows.

For each --runs: wall seconds of ``sqlanon.anonymize`` in table mode on DuckDB (median, min, max), the written
table verified, its mean box area and interval length. Then the best *uniform grid* release of the same data:
every record at the same quadtree level and time level (full-domain generalization over the two implicit
hierarchies), the pair of levels whose suppressed records (cells below k) fit the same limit with the smallest
mean box volume (area x interval), measured in one SQL statement per pair of levels.

    .venv/bin/python benchmarks/cloaking_benchmark.py --rows 1000000 --runs 3
    .venv/bin/python benchmarks/cloaking_benchmark.py --rows 100000 --k 10 --limit 0.01
    .venv/bin/python benchmarks/cloaking_benchmark.py --rows 1000000 --mode request --window 3600 --limit 0.01
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import duckdb

import sqlanon
from sqlanon.config import parse_config

CENTRES = [(40.758, -73.985, 0.010), (40.712, -74.006, 0.008), (40.678, -73.944, 0.020),
           (40.750, -73.870, 0.015), (40.840, -73.940, 0.012), (40.600, -74.100, 0.030)]
REGION = {"lat": [40.4, 41.0], "lon": [-74.3, -73.6]}


def generate(path: Path, rows: int) -> None:
    """The table ``positions`` (id, subject, lat, lon, ts) in the DuckDB file ``path``."""
    # u(i, s): a deterministic uniform in [0, 1) from the row number and a salt.
    def u(salt: int) -> str:
        return f"((hash(i, {salt}) % 1000000007) / 1000000007.0)"

    centre = f"CAST(floor({u(1)} * {len(CENTRES)}) AS INTEGER)"
    lat = " ".join(f"WHEN {j} THEN {c[0]} + {c[2]} * g1" for j, c in enumerate(CENTRES))
    lon = " ".join(f"WHEN {j} THEN {c[1]} + {c[2]} * 1.3 * g2" for j, c in enumerate(CENTRES))
    # Box-Muller normals (clipped to the region), and an hour of the day drawn from a daily rhythm: the hour is
    # 6 + 16 * u for 85% of the records, uniform over the day for the rest.
    sql = f"""
    CREATE OR REPLACE TABLE positions AS
    WITH base AS (
      SELECT i, {centre} AS centre,
             sqrt(-2 * ln(1 - {u(2)})) * cos(2 * pi() * {u(3)}) AS g1,
             sqrt(-2 * ln(1 - {u(4)})) * cos(2 * pi() * {u(5)}) AS g2,
             CAST(floor({u(6)} * 30) AS INTEGER) AS day,
             CASE WHEN {u(7)} < 0.85 THEN 6 + 16 * {u(8)} ELSE 24 * {u(8)} END AS hour
      FROM range({rows}) AS t(i)
    )
    SELECT i AS id, CAST(i % {max(rows // 200, 1)} AS INTEGER) AS subject,
           least(greatest(CASE centre {lat} END, 40.4), 40.999999) AS lat,
           least(greatest(CASE centre {lon} END, -74.3), -73.600001) AS lon,
           TIMESTAMP '2024-03-01' + to_days(day) + to_microseconds(CAST(hour * 3600e6 AS BIGINT)) AS ts
    FROM base
    """
    with duckdb.connect(str(path)) as con:
        con.execute(sql)


def config(path: Path, k: int, limit: float, mode: str = "table", window: float = 3600,
           table: str = "positions_k") -> Any:
    return parse_config({
        "method": "cloaking",
        "source": {"url": f"duckdb:///{path}", "table": "positions"},
        "output": {"table": table, "if_exists": "replace"},
        "attributes": {"id": {"role": "identifier"}, "subject": {"role": "identifier"},
                       "lat": {"role": "quasi_identifier", "cloak": "space"},
                       "lon": {"role": "quasi_identifier", "cloak": "space"},
                       "ts": {"role": "quasi_identifier", "cloak": "time"}},
        "privacy": {"k": k, "suppression_limit": limit},
        "cloaking": {"region": REGION, "mode": mode, **({"window": window} if mode == "request" else {})},
        "history": {"enabled": False},
    })


def uniform_grid(path: Path, result: Any, k: int, limit: int, space_levels: int, time_levels: int) -> dict:
    """The best pair of uniform levels: the smallest mean box volume whose cells below k fit the limit."""
    region = result.details["region"]
    lat0, lat1 = region["lat"]["low"], region["lat"]["high"]
    lon0, lon1 = region["lon"]["low"], region["lon"]["high"]
    best = None
    with duckdb.connect(str(path), read_only=True) as con:
        t0, t1 = (con.execute(f"SELECT epoch_us(TIMESTAMP '{region['ts'][end]}')").fetchone()[0]
                  for end in ("low", "high"))

        def suppressed(ls: int, lt: int) -> int:
            n = 2 ** ls
            return int(con.execute(f"""
                SELECT coalesce(sum(c) FILTER (WHERE c < {k}), 0) FROM (
                  SELECT count(*) AS c FROM positions
                  GROUP BY floor((lat - {lat0}) / ({lat1} - {lat0}) * {n}),
                           floor((lon - {lon0}) / ({lon1} - {lon0}) * {n}),
                           floor((epoch_us(ts) - {t0}) / ({t1} - {t0}) * {2 ** lt}))""").fetchone()[0])

        for ls in range(space_levels + 1):
            # Coarser time never suppresses more: the finest feasible time level, by bisection.
            if suppressed(ls, 0) > limit:
                break  # nor does any finer space level
            low, high = 0, time_levels
            while low < high:
                mid = (low + high + 1) // 2
                low, high = (mid, high) if suppressed(ls, mid) <= limit else (low, mid - 1)
            area = (lat1 - lat0) * (lon1 - lon0) / 4 ** ls
            interval = (t1 - t0) / 1e6 / 2 ** low
            if best is None or area * interval < best["area"] * best["interval"]:
                best = {"space_level": ls, "time_level": low, "area": area, "interval": interval,
                        "suppressed": suppressed(ls, low)}
    assert best is not None  # level (0, 0) holds every record
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--limit", type=float, default=0.0, help="suppression limit, a fraction of the rows")
    parser.add_argument("--mode", choices=("table", "request"), default="table",
                        help="request: each record's own cell, in windows of --window seconds (no grid beside it)")
    parser.add_argument("--window", type=float, default=3600)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "positions.duckdb"
        started = time.perf_counter()
        generate(path, args.rows)
        print(f"generated {args.rows} rows in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        cfg = config(path, args.k, args.limit, args.mode, args.window)
        seconds, result = [], None
        for i in range(args.runs):
            started = time.perf_counter()
            result = sqlanon.anonymize(cfg)
            seconds.append(time.perf_counter() - started)
            if not result.verified:
                raise SystemExit(f"not verified: {result.verification}")
            print(f"  run {i + 1}: {seconds[-1]:.2f} s", file=sys.stderr)
        assert result is not None
        m = result.metrics
        if args.mode == "request":
            print(f"cloaking, request mode (windows of {args.window:g} s), DuckDB, {args.rows} rows, k={args.k}: "
                  f"median {statistics.median(seconds):.2f} s (min {min(seconds):.2f}, max {max(seconds):.2f}); "
                  f"{result.details['rounds']} rounds; verified ({result.verification['boxes']} boxes, fewest "
                  f"inside {result.verification['fewest_inside']}); {result.suppressed_rows} suppressed; mean box "
                  f"area {m['mean_box_area']:.6g} deg^2")
            return
        grid = uniform_grid(path, result, args.k, cfg.privacy.max_suppressed(args.rows),
                            cfg.cloaking.space_levels, cfg.cloaking.time_levels)
    print(f"cloaking, table mode, DuckDB, {args.rows} rows, k={args.k}, limit {args.limit}:")
    print(f"  seconds: median {statistics.median(seconds):.2f} (min {min(seconds):.2f}, max {max(seconds):.2f}) "
          f"over {args.runs} runs; {result.details['rounds']} rounds, {result.statements} statements; verified; "
          f"{result.suppressed_rows} suppressed")
    print(f"  boxes: mean area {m['mean_box_area']:.6g} deg^2, mean interval {m['mean_interval']:.6g} s, "
          f"mean area x mean interval {m['mean_box_area'] * m['mean_interval']:.6g}")
    print(f"  best uniform grid: space level {grid['space_level']}, time level {grid['time_level']}: area "
          f"{grid['area']:.6g} deg^2, interval {grid['interval']:.6g} s, volume {grid['area'] * grid['interval']:.6g}, "
          f"{grid['suppressed']} suppressed")
    volume = m["mean_box_area"] * m["mean_interval"]
    print(f"  grid volume / (mean area x mean interval): {grid['area'] * grid['interval'] / volume:.3g}x "
          f"(area {grid['area'] / m['mean_box_area']:.3g}x, interval {grid['interval'] / m['mean_interval']:.3g}x)")


if __name__ == "__main__":
    main()
