"""Bad outputs: a table that exists, the source itself, a schema that does not exist.

Exit codes: 2 invalid config or input, 3 no feasible node, 1 unexpected error (an unreachable database). Each
test changes one thing of the working config and table of ``tests/bad_input.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bad_input import base_config, config_file, expect_error
from tests.helpers import Engine

pytestmark = pytest.mark.spark


def test_output_table_exists(both: Engine, tmp_path: Path) -> None:
    both.create_table("t_out", {"keep": "INTEGER"}, [(42,)])
    expect_error(["anonymize", config_file(tmp_path, base_config(both.url))], 2, "output.table", "t_out",
                 "already exists", "if_exists")
    assert both.execute('SELECT * FROM "t_out"') == [(42,)]  # untouched


def test_output_equal_to_source_is_refused(db: Engine, tmp_path: Path) -> None:
    data = base_config(db.url)
    data["output"] = {"table": "t", "if_exists": "replace"}
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "output.table", "source")
    assert len(db.execute('SELECT * FROM "t"')) == 20


def test_output_schema_does_not_exist(both: Engine, tmp_path: Path) -> None:
    data = base_config(both.url)
    data["output"]["table"] = "nosuch.t_out"
    expect_error(["anonymize", config_file(tmp_path, data)], 2, "nosuch")
    assert both.tables() == {"t"}
    assert len(both.execute('SELECT * FROM "t"')) == 20
