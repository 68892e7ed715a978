"""Where the time of one benchmark run goes: preparation, node queries (planning vs. the rest of SQL),
rendering, Python search bookkeeping, and what follows the search.

    .venv/bin/python benchmarks/profile_run.py                      # ADULT k=5 5% Loss on DuckDB
    .venv/bin/python benchmarks/profile_run.py --dataset adult --k 5 --suppression 0 --metric dm_star
    .venv/bin/python benchmarks/profile_run.py --engine postgres --runs 5
    .venv/bin/python benchmarks/profile_run.py --dataset cup --engine postgres --statements

Each run is ``sqlanon.anonymize(config, dry_run=True)`` as in ``arx_benchmark.py``, with timers wrapped
around sqlanon's own functions (nothing in sqlanon is changed). Planning is measured separately, outside
the timed phases, so the reported total is the run's own time: on DuckDB each node query's statement (for
a prepared model query, its short EXECUTE) is parsed again (``extract_statements``) and runs again under
DuckDB's profiler (binding + optimizing + physical planning as the profiler reports them, and the operators'
CPU time); on PostgreSQL its SQL runs under ``EXPLAIN`` (parse + plan).
The medians over ``--runs`` are printed; with ``--statements``, also the SQL time per statement template
(``sql/``), node queries counted apart.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import arx_benchmark as bench  # noqa: E402  (the benchmark's datasets, configs and PostgreSQL helper)


class Timers:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)
        self.excluded = 0.0  # time spent on EXPLAIN, not part of the run
        self.statements: dict[str, float] = defaultdict(float)  # SQL time per template (--statements)
        self.statement_counts: dict[str, int] = defaultdict(int)

    def wrap(self, owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)
        timers = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            excluded_before = timers.excluded
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                timers.seconds[label] += time.perf_counter() - started - (timers.excluded - excluded_before)
                timers.counts[label] += 1

        setattr(owner, name, timed)


def instrument(timers: Timers) -> None:
    from sqlanon.engines.base import EngineAdapter
    from sqlanon.evaluation import evaluator
    from sqlanon.methods.generalization import method, preparation

    timers.wrap(preparation.Preparation, "prepare", "prepare")
    timers.wrap(method.GeneralizationMethod, "_search", "search")
    timers.wrap(EngineAdapter, "_timed", "sql (all statements)")
    # runs build a node query with _query (sql() is the same text with the comments, for explain)
    timers.wrap(evaluator.NodeEvaluator, "_query", "node query rendering")

    by_template(timers)
    original_run = evaluator.NodeEvaluator._run
    last: dict[int, tuple[str, Any]] = {}  # adapter -> the last statement it ran
    from sqlanon.engines.duckdb import DuckDBAdapter

    original_execute = DuckDBAdapter._execute

    def execute(self: Any, sql: str, params: Any) -> Any:
        last[id(self)] = (sql, params)
        return original_execute(self, sql, params)

    DuckDBAdapter._execute = execute

    def run(self: Any, node: Any, weights: bool) -> Any:
        started = time.perf_counter()
        try:
            return original_run(self, node, weights)
        finally:
            timers.seconds["node queries (render + SQL)"] += time.perf_counter() - started
            timers.counts["node queries (render + SQL)"] += 1
            started = time.perf_counter()
            if isinstance(self.adapter, DuckDBAdapter):
                profile_duckdb(self.adapter, *last[id(self.adapter)], timers)
            else:
                sql, params = self.sql(node, loss_weights=weights)
                explained = time.perf_counter()
                self.adapter._execute("EXPLAIN " + sql, params)
                timers.seconds["node query planning"] += time.perf_counter() - explained
            timers.excluded += time.perf_counter() - started

    evaluator.NodeEvaluator._run = run


def by_template(timers: Timers) -> None:
    """SQL time per statement template: each statement is charged to the template being run, a statement
    outside any (node queries, bulk inserts) to its first word."""
    from sqlanon.engines.base import EngineAdapter

    running: list[str] = []
    original_timed = EngineAdapter._timed

    def charging(original: Any) -> Any:
        """A method taking a template first, wrapped so that its statements are charged to that template."""
        def method(self: Any, template: str, *args: Any, **context: Any) -> Any:
            running.append(template.removesuffix(".sql.j2"))
            try:
                return original(self, template, *args, **context)
            finally:
                running.pop()
        return method

    def timed(self: Any, run: Any, sql: str, params: Any) -> Any:
        excluded_before = timers.excluded
        started = time.perf_counter()
        try:
            return original_timed(self, run, sql, params)
        finally:
            # outside a template: node queries (SELECT, WITH), DuckDB's bulk inserts (INSERT)
            label = running[-1] if running else f"(no template: {(sql.split(None, 1) or ['?'])[0].upper()})"
            timers.statements[label] += time.perf_counter() - started - (timers.excluded - excluded_before)
            timers.statement_counts[label] += 1

    EngineAdapter._timed = timed
    for name in ("run", "create_counted"):  # the methods that render a template and run it
        setattr(EngineAdapter, name, charging(getattr(EngineAdapter, name)))


def profile_duckdb(adapter: Any, sql: str, params: Any, timers: Timers) -> None:
    """The node query's own statement again: parsed alone, then under DuckDB's profiler (its binding,
    optimizing and physical planning, and the operators' CPU time)."""
    started = time.perf_counter()
    adapter._con.extract_statements(sql)
    timers.seconds["node query parsing"] += time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "profile.json"
        con = adapter._con
        con.execute("PRAGMA enable_profiling = 'json'")
        con.execute(f"PRAGMA profiling_output = '{out}'")
        con.execute("SET profiling_mode = 'detailed'")
        try:
            con.execute(sql, list(params)).fetchall() if params else con.execute(sql).fetchall()
        finally:
            con.execute("PRAGMA disable_profiling")
        profile = json.loads(out.read_text())
    timers.seconds["node query planning"] += sum(
        profile[phase]["total_time"] for phase in ("planner", "optimizer", "physical_planner")
    )
    timers.seconds["node query operator CPU"] += profile["query"]["cpu_time"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    p.add_argument("--dataset", default="adult", choices=sorted(bench.DATASETS))
    p.add_argument("--engine", default="duckdb", choices=bench.ENGINES)
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--suppression", type=float, default=5.0, help="percent (default 5)")
    p.add_argument("--metric", default="loss", choices=bench.METRICS)
    p.add_argument("--model", default="-", choices=["-", *bench.MODEL_PRESETS])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--duckdb-source", choices=("csv", "table", "memory"), default="csv",
                   help="as in arx_benchmark.py: read the CSV every run, or start from a loaded DuckDB table in a "
                        "file or in an in-memory database held open (memory)")
    p.add_argument("--statements", action="store_true",
                   help="also print the SQL time per statement template, largest first")
    args = p.parse_args(argv)

    import sqlanon
    from sqlanon.config import parse_config

    ds = bench.DATASETS[args.dataset]
    supp = args.suppression / 100
    rows: list[dict[str, float]] = []
    per_template: list[dict[str, tuple[int, float]]] = []
    counts: dict[str, int] = {}
    with (bench.postgres_database(args.engine == "postgres") as pg,
          bench.duckdb_file(args.duckdb_source) as dk):
        table, db = bench.source_table(ds, args.engine, pg, dk)
        cfg = parse_config(bench.build_config(ds, args.k, supp, args.metric, table=table, model=args.model),
                           source="<profile>", base_dir=bench.REPO)
        sqlanon.anonymize(cfg, db=db, dry_run=True)  # warm-up (imports, first connection), not reported
        timers = Timers()
        instrument(timers)
        for _ in range(args.runs):
            timers.seconds.clear()
            timers.counts.clear()
            timers.statements.clear()
            timers.statement_counts.clear()
            timers.excluded = 0.0
            started = time.perf_counter()
            result = sqlanon.anonymize(cfg, db=db, dry_run=True)
            total = time.perf_counter() - started - timers.excluded
            s = dict(timers.seconds)
            node_sql = s.get("node queries (render + SQL)", 0.0) - s.get("node query rendering", 0.0)
            rows.append({
                "total": total,
                "preparation (CSV load, hierarchies, frequency set)": s.get("prepare", 0.0),
                "search: node queries, SQL": node_sql,
                "search: node queries, of which parsing (DuckDB)": s.get("node query parsing", 0.0),
                "search: node queries, of which planning": s.get("node query planning", 0.0),
                "search: node queries, of which operator CPU (DuckDB)": s.get("node query operator CPU", 0.0),
                "search: rendering node SQL": s.get("node query rendering", 0.0),
                "search: Python (bounds, tagging, paths)": s.get("search", 0.0)
                - s.get("node queries (render + SQL)", 0.0),
                "after the search (final evaluation, report data)": total - s.get("prepare", 0.0)
                - s.get("search", 0.0),
                "all SQL statements": s.get("sql (all statements)", 0.0),
            })
            per_template.append({k: (timers.statement_counts[k], v) for k, v in timers.statements.items()})
            counts = {"node queries": timers.counts.get("node queries (render + SQL)", 0),
                      "statements": result.statements, "nodes evaluated": result.nodes_evaluated}
    print(f"{ds.label} k={args.k} suppression={args.suppression}% metric={args.metric} model={args.model} "
          f"engine={args.engine}: median of {args.runs} runs; {counts}")
    for key in rows[0]:
        values = [r[key] for r in rows]
        median = statistics.median(values)
        share = median / statistics.median(r["total"] for r in rows) * 100
        print(f"  {key:55s} {median * 1000:9.1f} ms  {share:5.1f}%")
    if args.statements:
        print("SQL time per statement template (median ms; statements per run):")
        labels = {label for run in per_template for label in run}
        medians = {label: statistics.median(run.get(label, (0, 0.0))[1] for run in per_template) for label in labels}
        for label in sorted(labels, key=lambda label: -medians[label]):
            print(f"  {label:55s} {medians[label] * 1000:9.1f} ms  {per_template[-1].get(label, (0, 0))[0]:5d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
