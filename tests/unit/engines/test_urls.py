"""Database URLs: unreachable servers, missing DuckDB files, unsupported schemes, and DuckDB URLs read
as SQLAlchemy reads them, with their settings applied.

Exit codes: 2 invalid config or input, 3 no feasible node, 1 unexpected error (an unreachable database). Each
test changes one thing of the working config and table of ``tests/bad_input.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bad_input import PASSWORD, UNREACHABLE, base_config, config_file, expect_error
from tests.helpers import invoke


def test_unreachable_database_exits_1(tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(UNREACHABLE))
    for command in ("anonymize", "validate"):
        err = expect_error([command, path], 1, "cannot connect", "127.0.0.1", "u:***@127.0.0.1:1/db")
        assert PASSWORD not in err
    err = expect_error(["explain", path], 1, "cannot connect")
    err = expect_error(["check", "--db", UNREACHABLE, "--table", "t", "--qi", "a"], 1, "cannot connect")


def test_missing_duckdb_parent_directory(tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(f"duckdb:///{tmp_path}/no/such/dir/x.duckdb"))
    expect_error(["anonymize", path], 2, "x.duckdb", "not found")


def test_missing_duckdb_file_is_reported_not_created(tmp_path: Path) -> None:
    """A mistyped DuckDB path is an input error; reading commands must not leave an empty database behind."""
    missing = tmp_path / "typo.duckdb"
    path = config_file(tmp_path, base_config(f"duckdb:///{missing}"))
    for args in (["validate", path], ["anonymize", path, "--dry-run"], ["explain", path],
                 ["check", "--db", f"duckdb:///{missing}", "--table", "t", "--qi", "age"]):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "typo.duckdb" in result.stderr
        assert not missing.exists(), f"{args[0]} created the DuckDB file {missing}"


def test_unsupported_url_scheme(tmp_path: Path) -> None:
    path = config_file(tmp_path, base_config(f"mysql://u:{PASSWORD}@127.0.0.1:1/db"))
    err = expect_error(["anonymize", path], 2, "unsupported engine", "'mysql'")
    assert PASSWORD not in err


DUCKDB_URLS = [
    "duckdb:///a.duckdb", "duckdb:////abs/x.duckdb", "duckdb:///:memory:", "duckdb://", "duckdb:///",
    "duckdb:///my%20file.duckdb", "duckdb:///dir/with%3Fq.duckdb", "duckdb:///a#b", "duckdb:///~/x.db",
    "duckdb:///f.duckdb?memory_limit=300MB&threads=2&threads=1", "duckdb:///f?preserve_insertion_order=false",
]


@pytest.mark.parametrize("url", DUCKDB_URLS)
def test_duckdb_urls_read_as_sqlalchemy_reads_them(url: str) -> None:
    """DuckDB URLs are parsed without importing SQLAlchemy (start-up time); they must mean the same."""
    from sqlalchemy.engine import make_url

    from sqlanon.engines.registry import parse_duckdb_url

    parsed = make_url(url)
    expected = {k: v if isinstance(v, str) else v[-1] for k, v in parsed.query.items()}
    assert parse_duckdb_url(url) == (parsed.database or ":memory:", expected)


def test_duckdb_url_errors(tmp_path: Path) -> None:
    # Two slashes make "file.duckdb" a host; SQLAlchemy would then open an empty in-memory database.
    path = config_file(tmp_path, base_config("duckdb://file.duckdb"))
    expect_error(["anonymize", path], 2, "'duckdb://file.duckdb'", "has no host", "duckdb:///file.duckdb")
    path = config_file(tmp_path, base_config("duckdb:///x.duckdb?memory_limt=1GB"))
    expect_error(["anonymize", path], 2, "unknown DuckDB setting 'memory_limt'", "memory_limit")
    path = config_file(tmp_path, base_config("duckdb:x.duckdb"))
    expect_error(["anonymize", path], 2, "'duckdb:x.duckdb' is not a valid URL", "duckdb:///path")


def test_duckdb_url_settings_are_applied(tmp_path: Path) -> None:
    from sqlanon.engines import adapter_for_url

    adapter = adapter_for_url(f"duckdb:///{tmp_path / 'db.duckdb'}?memory_limit=123MB&threads=1")
    adapter.connect()
    try:
        (threads,), = adapter.execute("SELECT current_setting('threads')")
        (limit,), = adapter.execute("SELECT current_setting('memory_limit')")
    finally:
        adapter.close()
    assert int(threads) == 1
    assert limit.replace(" ", "").startswith(("117.3MiB", "123.0MB", "123MB")), limit
