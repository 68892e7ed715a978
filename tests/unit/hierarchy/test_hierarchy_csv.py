"""Hierarchy files parsed by the database (load_csv_hierarchy.sql.j2) load the rows Python's reader loads.

Files up to loading.PYTHON_FILE_BYTES are read and coded in Python (test_hierarchy_encoding.py); larger ones
are parsed by the database when they are plain.

The database reads a plain file itself (sources.plain_csv); whatever it rejects, and every file that is not
plain, goes through Python's reader, which loads it or words the error. These tests hold the two readers
to the same rows, file by file, on both engines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sqlanon.config.models import HierarchyConfig
from sqlanon.engines import adapter_for_url
from sqlanon.engines.base import EngineAdapter
from sqlanon.errors import ConfigError
from sqlanon.hierarchy.loading import _load_plain_csv
from sqlanon.hierarchy.sources import plain_csv, read_csv_hierarchy
from tests.helpers import Engine, invoke, one_json_object, write_config

pytestmark = pytest.mark.spark

#: name -> (file bytes, the database must read it itself)
FILES: dict[str, tuple[bytes, bool]] = {
    "basic": (b"a;ab;*\nb;ab;*\nc;c;*\n", True),
    "byte-order mark": (b"\xef\xbb\xbfa;ab;*\nb;ab;*\n", True),
    "CRLF": (b"a;ab;*\r\nb;ab;*\r\n", True),
    "no final line end": (b"a;ab;*\nb;ab;*", True),
    "blank lines at the end": (b"a;ab;*\nb;ab;*\n\n\n", True),
    "empty fields": (b"a;;*\n;x;*\nc;c;\n", True),
    "rows of empty fields": (b"a;ab;*\n;;\nb;ab;*\n", True),
    "NULL mapped": (b"a;ab;*\nNULL;ab;*\nb;ab;*\n", True),
    "spaces kept": (b" a ;a b; * \n", True),
    "backslashes": (b"a\\;\\N;*\nb;\\t;*\n", True),
    "unicode": ("é;ä\u2028b;*\nx\x85y;ä;*\n".encode(), True),
    "hash is no comment": (b"#a;ab;*\n", True),
    "blank line inside": (b"a;ab;*\n\nb;ab;*\n", False),
    "lone CR": (b"a;ab;*\rb;ab;*\r", False),
    "mixed line ends": (b"a;ab;*\r\nb;ab;*\nc;c;*\r\n", False),
    "quoted delimiter": (b'"a;1";ab;*\nb;ab;*\n', False),
    "quote inside a field": (b'a"1;ab;*\nb;ab;*\n', False),
    "row too short": (b"a;ab;*\nb;*\n", False),
    "row too long": (b"a;ab;*\nb;ab;*;x\n", False),
    "trailing delimiter": (b"a;ab;*;\nb;ab;*;\n", False),
    "latin-1": (b"\xe9;ab;*\n", False),
    "NUL byte": (b"a\x00;ab;*\n", False),
    "end-of-data marker": (b"a;ab;*\n\\.\nb;ab;*\n", False),
    "nothing but blank rows": (b"\n;;\n", False),
    "empty": (b"", False),
}


def _connect(engine: Engine) -> EngineAdapter:
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    return adapter


def _sorted(rows) -> list[tuple]:
    return sorted((tuple(r) for r in rows), key=lambda r: [(v is None, v or "") for v in r])


@pytest.mark.parametrize("null_value", [None, "NULL"])
@pytest.mark.parametrize("name", list(FILES))
def test_the_database_reads_a_hierarchy_file_as_python_does(
    engine: Engine, tmp_path: Path, name: str, null_value: str | None
) -> None:
    data, by_database = FILES[name]
    path = tmp_path / "h.csv"
    path.write_bytes(data)
    try:
        expected = _sorted(read_csv_hierarchy(path, ";", null_value, "h"))
    except ConfigError:
        expected = None
    adapter = _connect(engine)
    try:
        config = HierarchyConfig(csv=path, null_value=null_value)
        height = _load_plain_csv(adapter, config, path, "h_raw", "h_staging")
        assert not adapter.table_exists(["h_staging"]), "the staging table was left behind"
        if by_database:
            assert height is not None, f"{name}: the database should have read the file itself"
        if height is None:  # Python's reader loads the file (or words what is wrong with it)
            assert not adapter.table_exists(["h_raw"]), "a rejected file left a lookup table"
            return
        assert expected is not None, f"{name}: the database accepted a file Python's reader rejects"
        assert height == len(expected[0]) - 1
        assert _sorted(adapter.execute("SELECT * FROM " + adapter.quote_identifier("h_raw"))) == expected
    finally:
        adapter.close()


@pytest.mark.parametrize("delimiter", ["'", "%", "\\", "\t", ","])
def test_hostile_delimiters_reach_the_database_quoted(engine: Engine, tmp_path: Path, delimiter: str) -> None:
    path = tmp_path / "h.csv"
    path.write_text(f"a{delimiter}a b{delimiter}*\nb{delimiter}a b{delimiter}*\n", encoding="utf-8")
    adapter = _connect(engine)
    try:
        config = HierarchyConfig(csv=path, delimiter=delimiter)
        assert _load_plain_csv(adapter, config, path, "h_raw", "h_staging") == 3
        loaded = adapter.execute("SELECT * FROM " + adapter.quote_identifier("h_raw"))
        assert _sorted(loaded) == [("a", "a", "a b", "*"), ("b", "b", "a b", "*")]
    finally:
        adapter.close()


def test_plain_files_only(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_bytes(b"\xef\xbb\xbfa;ab;*\n")
    plain = plain_csv(path, ";")
    assert plain is not None and plain.height == 3 and plain.data == b"a;ab;*\n"
    assert plain_csv(Path("h.csv"), ";") is None  # relative: DuckDB and Python could resolve it differently
    (tmp_path / "h[1].csv").write_bytes(b"a;ab;*\n")
    assert plain_csv(tmp_path / "h[1].csv", ";") is None  # DuckDB would expand the glob
    assert plain_csv(tmp_path / "missing.csv", ";") is None  # Python's reader words the error
    assert plain_csv(path, '"') is None


def test_a_hierarchy_from_a_pipe_is_read_once(duckdb_engine: Engine, tmp_path: Path) -> None:
    """A named pipe can be read only once: Python's reader takes it, and the run works as with a file."""
    import os
    import threading

    duckdb_engine.create_table("people", {"code": "VARCHAR"}, [(c,) for c in "aaabbbccccc"])
    fifo = tmp_path / "code.csv"
    os.mkfifo(fifo)
    assert plain_csv(fifo, ";") is None

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as fh:
            fh.write("a;ab;*\nb;ab;*\nc;c;*\n")

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    config = write_config(tmp_path / "c.yaml", {
        "source": {"url": duckdb_engine.url, "table": "people"},
        "output": {"table": "people_out"},
        "attributes": {"code": {"role": "quasi_identifier", "hierarchy": {"csv": "code.csv"}}},
        "privacy": {"k": 5, "suppression_limit": 0},
    })
    result = invoke("anonymize", config, "--json")
    writer.join(timeout=10)
    assert result.exit_code == 0, result.output
    assert one_json_object(result.stdout)["transformation"] == {"code": 1}


def test_anonymize_reads_hierarchy_files_in_the_database(engine: Engine, tmp_path: Path, monkeypatch) -> None:
    """End to end, with files above the size Python codes (loading.PYTHON_FILE_BYTES): no row of a plain
    hierarchy file passes through Python; a file with quotes, which only Python's reader parses, loads beside
    it, and the output is verified."""
    monkeypatch.setattr("sqlanon.hierarchy.loading.PYTHON_FILE_BYTES", 0)
    engine.create_table("people", {"zip": "VARCHAR", "age": "VARCHAR"},
                        [(f"1{i % 7}", str(20 + i % 5)) for i in range(40)])
    (tmp_path / "zip.csv").write_text("".join(f"1{i};1*;*\n" for i in range(7)), encoding="utf-8")
    (tmp_path / "age.csv").write_text("".join(f'"{a}";"2*";*\n' for a in range(20, 25)), encoding="utf-8")
    config = write_config(tmp_path / "c.yaml", {
        "source": {"url": engine.url, "table": "people"},
        "output": {"table": "people_out"},
        "attributes": {"zip": {"role": "quasi_identifier", "hierarchy": {"csv": "zip.csv"}},
                       "age": {"role": "quasi_identifier", "hierarchy": {"csv": "age.csv"}}},
        "privacy": {"k": 5, "suppression_limit": 0},
    })
    inserted: list[int] = []
    cls = type(adapter_for_url(engine.url))
    original = cls.bulk_insert

    def spy(self: EngineAdapter, table: str, columns: int, rows: list) -> None:
        inserted.append(len(rows))
        original(self, table, columns, rows)

    monkeypatch.setattr(cls, "bulk_insert", spy)
    result = invoke("anonymize", config, "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    # only the file with quotes passes through Python, which codes it: its five values and the NULL row
    assert inserted == [6], "only the file with quotes should pass through Python"
    assert report["verified"] is True
    assert report["rows"] == 40
