"""Credentials in database URLs never appear in any output: not in errors of any command, not in config
errors, not in the output of successful runs."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bad_input import COLUMNS, PASSWORD, UNREACHABLE, base_config, config_file, expect_error, rows
from tests.helpers import Engine, invoke

PASSWORD_URLS = [
    UNREACHABLE,
    f"postgresql://u:{PASSWORD}@127.0.0.1:1/db?sslmode=bogus",
    f"postgresql+psycopg//u:{PASSWORD}@127.0.0.1:1/db",  # typo: unparseable
    f"postgresql+psycopg://u:{PASSWORD}@127.0.0.1:1x/db",  # bad port
    f"mysql://u:{PASSWORD}@127.0.0.1:1/db",
]


@pytest.mark.parametrize("url", PASSWORD_URLS)
def test_password_never_printed(db: Engine, tmp_path: Path, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever goes wrong with a URL that holds a password, the password is not in any output."""
    in_config = config_file(tmp_path, base_config(url), "in_config.yaml")
    monkeypatch.setenv("SQLANON_TEST_SECRET_URL", url)
    from_env = config_file(tmp_path, base_config("${SQLANON_TEST_SECRET_URL}"), "from_env.yaml")
    good = config_file(tmp_path, base_config(db.url), "good.yaml")
    runs = [
        ["anonymize", in_config], ["anonymize", in_config, "--json"], ["anonymize", from_env, "--json"],
        ["anonymize", from_env, "--dry-run"], ["validate", in_config], ["validate", from_env, "--json"],
        ["explain", from_env], ["anonymize", good, "--db", url], ["anonymize", good, "--db", url, "--json"],
        ["validate", good, "--db", url], ["explain", good, "--db", url],
        ["check", "--db", url, "--table", "t", "--qi", "age"],
        ["check", "--db", url, "--table", "t", "--qi", "age", "--json"],
    ]
    for args in runs:
        result = invoke(*args)
        assert result.exit_code in (1, 2), (args, result.output)
        assert "Traceback" not in result.output
        assert result.stderr.startswith("sqlanon: error: ")
        assert PASSWORD not in result.output, f"password printed by {args}:\n{result.output}"


def test_password_not_printed_in_a_config_error(tmp_path: Path) -> None:
    """A validation error next to a URL with a password shows the URL masked, if at all."""
    data = base_config(UNREACHABLE)
    data["source"]["extra"] = 1
    data["source"]["url"] = {"nested": UNREACHABLE}  # wrong type: a mapping
    path = config_file(tmp_path, data)
    err = expect_error(["anonymize", path], 2, "source.url", "source.extra: unknown key")
    assert PASSWORD not in err
    data = base_config(UNREACHABLE)
    data["source"]["csv"] = "t.csv"  # a csv source needs a duckdb url; the url is in the message context
    err = expect_error(["anonymize", config_file(tmp_path, data)], 2, "source")
    assert PASSWORD not in err


@pytest.fixture
def pg_with_password(postgres_server_url: str) -> Iterator[tuple[Engine, str]]:
    """A PostgreSQL test database and a URL for it that carries a password (the test server trusts local
    connections, so the password is sent along and ignored)."""
    from sqlalchemy.engine import make_url

    eng = Engine.postgres_database(postgres_server_url, f"t_{secrets.token_hex(6)}")
    try:
        url = make_url(eng.url).set(password=PASSWORD).render_as_string(hide_password=False)
        assert PASSWORD in url
        yield eng, url
        eng.assert_sources_unchanged()
    finally:
        eng.close()
        eng.drop_database()


def test_password_not_printed_by_successful_runs(pg_with_password: tuple[Engine, str], tmp_path: Path) -> None:
    eng, url = pg_with_password
    eng.create_table("t", COLUMNS, rows())
    path = config_file(tmp_path, base_config(url))
    runs = [
        ["validate", path], ["validate", path, "--json"], ["explain", path],
        ["anonymize", path, "--dry-run"], ["anonymize", path, "--dry-run", "--json"],
        ["anonymize", path, "--json"], ["anonymize", path],  # the second fails: the output exists
        ["check", "--db", url, "--table", "t_out", "--qi", "age,sex,code", "--k", "2", "--json"],
        ["check", "--db", url, "--table", "t_out", "--qi", "age,sex,code"],
    ]
    for args in runs:
        result = invoke(*args)
        assert result.exit_code in (0, 2), (args, result.output)
        assert PASSWORD not in result.output, f"password printed by {args}:\n{result.output}"
    assert ":***@" in json.loads(invoke("validate", path, "--json").stdout)["database"]  # masked, not dropped
