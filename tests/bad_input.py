"""The bad-input tests' working config and table, and ``expect_error``: each test changes one thing.

Bad inputs give the right exit code and a message naming what and where, never a traceback. Exit codes: 2
invalid config or input, 3 no feasible node, 1 unexpected error (an unreachable database). The tests live
with what they check (tests/unit/config, hierarchy, output, engines; tests/e2e/test_passwords.py); the
fixtures ``db`` (DuckDB) and ``both`` (either engine) holding the table ``t`` are in tests/conftest.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers import invoke, write_config

PASSWORD = "SECRETPW"
#: A closed port on loopback: the connection is refused at once.
UNREACHABLE = f"postgresql+psycopg://u:{PASSWORD}@127.0.0.1:1/db"


def expect_error(args: list[Any], code: int, *fragments: str) -> str:
    """Run the command as text and as --json; both fail with ``code`` and say every fragment."""
    result = invoke(*args)
    assert result.exit_code == code, f"exit {result.exit_code}, expected {code}:\n{result.output}"
    assert "Traceback" not in result.output
    assert result.stdout == "", f"an error must not print a report on stdout:\n{result.stdout}"
    assert result.stderr.startswith("sqlanon: error: "), result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in the message:\n{result.stderr}"
    if "--json" not in args and args[0] in ("anonymize", "validate", "check"):
        as_json = invoke(*args, "--json")
        assert as_json.exit_code == code
        assert "Traceback" not in as_json.output
        text = as_json.stdout.strip()
        assert "\n" not in text, f"not exactly one JSON object:\n{as_json.stdout}"
        report = json.loads(text)
        assert report["exit_code"] == code
        assert report["status"] == {2: "invalid_input", 3: "no_solution"}.get(code, "error")
        for fragment in fragments:
            assert fragment in report["error"]
    return result.stderr


def rows() -> list[tuple]:
    """20 rows: sex F/M, code in A/B/C, age 20..39."""
    return [(i, 20 + i, "F" if i % 2 else "M", "ABC"[i % 3], f"n{i}") for i in range(20)]


COLUMNS = {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "code": "VARCHAR", "name": "VARCHAR"}


def base_config(url: str, **privacy: Any) -> dict[str, Any]:
    return {
        "source": {"url": url, "table": "t"},
        "output": {"table": "t_out"},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "code": {"role": "quasi_identifier",
                     "hierarchy": {"inline": {"A": ["AB", "*"], "B": ["AB", "*"], "C": ["C", "*"]}}},
            "name": {"role": "ignore"},
        },
        "privacy": {"k": 2, "suppression_limit": 0, **privacy},
    }


def config_file(tmp_path: Path, data: dict[str, Any], name: str = "c.yaml") -> Path:
    return write_config(tmp_path / name, data)
