"""Config and input files as users write them: no silent misreading, and every fault a message with exit code 2.

Duplicate YAML keys and YAML syntax errors (named by file and line), CSV sources as spreadsheets and careless
conversions write them, generated hierarchies on an entirely NULL column, hints for a hierarchy file read with
the wrong delimiter and a mask of the wrong length, and ``other_columns``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sqlanon.config import parse_config
from sqlanon.session import Session
from tests.helpers import Engine, invoke, write_config

pytestmark = pytest.mark.spark


def expect_error(args: list[Any], *fragments: str, code: int = 2) -> str:
    result = invoke(*args)
    assert result.exit_code == code, f"exit {result.exit_code}, expected {code}:\n{result.output}"
    assert result.stderr.startswith("sqlanon: error: "), result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in the message:\n{result.stderr}"
    return result.stderr


# -- YAML: duplicate keys and syntax errors -------------------------------------------------------------

VALID = """\
source:
  url: "duckdb:///:memory:"
  table: t
output:
  table: t_out
attributes:
  age: {role: quasi_identifier, hierarchy: {intervals: {widths: [5, 10]}}}
  sex: {role: quasi_identifier, hierarchy: {inline: {F: ["*"], M: ["*"]}}}
privacy:
  k: 5
"""


def _yaml(tmp_path: Path, text: str, name: str = "cfg.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_duplicate_key_under_privacy_is_an_error(tmp_path: Path) -> None:
    """``k: 5`` then ``k: 1`` ran with k = 1."""
    path = _yaml(tmp_path, VALID + "  suppression_limit: 0\n  k: 1\n")
    expect_error(["validate", path], f"{path}: duplicate key 'k' at lines 10 and 12 (under privacy)")


def test_an_attribute_declared_twice_is_an_error(tmp_path: Path) -> None:
    """``age`` a quasi-identifier and again insensitive copied raw ages to the output."""
    path = _yaml(tmp_path, VALID.replace("privacy:", "  age: {role: insensitive}\nprivacy:"))
    expect_error(["anonymize", path], str(path), "duplicate key 'age' at lines 7 and 9 (under attributes)")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (VALID + "output:\n  table: other\n", "duplicate key 'output' at lines 4 and 11 (at the top level)"),
        (VALID.replace('{F: ["*"], M: ["*"]}', '{F: ["*"], F: ["x"]}'),
         "duplicate key 'F' at line 8, twice (under attributes.sex.hierarchy.inline)"),
        (VALID.replace("{widths: [5, 10]}", "{widths: [5, 10], widths: [2]}"),
         "duplicate key 'widths' at line 7, twice (under attributes.age.hierarchy.intervals)"),
    ],
    ids=["top_level", "inline_hierarchy", "flow_mapping"],
)
def test_duplicate_keys_at_any_level(tmp_path: Path, text: str, fragment: str) -> None:
    path = _yaml(tmp_path, text)
    expect_error(["validate", path], str(path), fragment)


def test_merge_keys_may_still_be_overridden(tmp_path: Path) -> None:
    """``<<`` merges defaults that explicit keys override, as YAML intends: not a duplicate."""
    from sqlanon.config import load_config

    path = _yaml(tmp_path, VALID.replace("privacy:\n  k: 5\n", "defaults: &d {k: 5, suppression_limit: 0}\n"
                                         "privacy:\n  <<: *d\n  k: 3\n"))
    with pytest.raises(Exception, match="unknown key"):  # 'defaults' is not a config key; the merge itself loads
        load_config(path)
    from sqlanon.config.loading import load_yaml

    data = load_yaml(path.read_text(encoding="utf-8"), str(path))
    assert data["privacy"] == {"k": 3, "suppression_limit": 0}


def test_yaml_syntax_error_names_the_file_line_and_column(tmp_path: Path) -> None:
    path = _yaml(tmp_path, VALID.replace("  k: 5", "  k: [5"), "broken.yaml")
    err = expect_error(["validate", path], f"{path}: line 11, column 1: not valid YAML", "flow sequence")
    assert "<unicode string>" not in err


# -- CSV sources ----------------------------------------------------------------------------------------

ROWS = [(20 + i % 7, "FM"[i % 2], f"n{i}") for i in range(12)]


def _csv_config(tmp_path: Path, name: str = "data.csv", **source: Any) -> dict[str, Any]:
    return {
        "source": {"csv": name, **source},
        "output": {"table": "out"},
        "attributes": {
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "note": {"role": "insensitive"},
        },
        "privacy": {"k": 2, "suppression_limit": 0},
    }


def _load(tmp_path: Path, data: bytes, **source: Any) -> tuple[list[str], list[tuple]]:
    """The columns and rows of the CSV source as sqlanon loads it."""
    (tmp_path / "data.csv").write_bytes(data)
    cfg = parse_config(_csv_config(tmp_path, **source), base_dir=tmp_path)
    with Session(cfg) as session:
        table, _ = session.open_source()
        columns = session.adapter.column_names(table)
        rows = session.adapter.execute(f'SELECT * FROM "{table[0]}" ORDER BY 3')
    return columns, rows


def _bytes(rows: list[tuple], delimiter: str = ",", end: str = "\n", header: str = "age,sex,note") -> bytes:
    lines = [header.replace(",", delimiter)] + [delimiter.join(str(v) for v in row) for row in rows]
    return "".join(line + end for line in lines).encode("utf-8")


EXPECTED = sorted(ROWS, key=lambda r: r[2])


@pytest.mark.parametrize(
    ("data", "source"),
    [
        (_bytes(ROWS), {}),
        (_bytes(ROWS, ";"), {}),
        (_bytes(ROWS, ";"), {"delimiter": ";"}),
        (_bytes(ROWS, "\t"), {}),
        (_bytes(ROWS, end="\r\n"), {}),
        (b"\xef\xbb\xbf" + _bytes(ROWS, ";", "\r\n"), {}),
        (_bytes(ROWS, end="\r\r\n"), {}),
        (_bytes(ROWS, ";", end="\r\r\n"), {"delimiter": ";"}),
        (b"\xef\xbb\xbf" + _bytes(ROWS, end="\r\r\n"), {}),
        (_bytes(ROWS[:6], end="\r\n") + _bytes(ROWS[6:], header="")[1:], {}),
    ],
    ids=["comma", "semicolon", "semicolon_given", "tab", "crlf", "bom_crlf_semicolon", "cr_cr_lf",
         "cr_cr_lf_semicolon", "bom_cr_cr_lf", "mixed_line_ends"],
)
def test_csv_source_loads_as_written(tmp_path: Path, data: bytes, source: dict[str, Any]) -> None:
    columns, rows = _load(tmp_path, data, **source)
    assert columns == ["age", "sex", "note"]
    assert rows == EXPECTED  # ages as integers, no stray carriage return in the last column


def test_csv_source_quoted_fields_hold_the_delimiter_quotes_and_line_ends(tmp_path: Path) -> None:
    text = 'age;sex;note\r\n20;F;"a;b"\r\n21;M;"say ""hi"""\r\n22;F;"two\r\nlines"\r\n'
    columns, rows = _load(tmp_path, text.encode("utf-8"))
    assert columns == ["age", "sex", "note"]
    assert rows == [(20, "F", "a;b"), (21, "M", 'say "hi"'), (22, "F", "two\r\nlines")]


def test_csv_source_types_are_detected_on_every_row_where_the_sample_misleads(tmp_path: Path) -> None:
    """A column of numbers for 20,000 rows and a word after that is text, not a conversion error."""
    lines = ["age,sex,note"] + [f"{20 + i % 7},{'FM'[i % 2]},{i}" for i in range(21000)] + ["25,F,n/a"]
    columns, rows = _load(tmp_path, ("\n".join(lines) + "\n").encode("utf-8"))
    assert len(rows) == 21001
    assert {r[2] for r in rows} >= {"0", "n/a"}


def test_csv_source_with_stray_carriage_returns_anonymizes(tmp_path: Path) -> None:
    """The file of the issue: ``\\r\\r\\n`` line ends gave "Error when sniffing file" and exit 1."""
    (tmp_path / "data.csv").write_bytes(_bytes(ROWS, end="\r\r\n"))
    result = invoke("anonymize", write_config(tmp_path / "c.yaml", _csv_config(tmp_path)), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rows"] == 12


@pytest.mark.parametrize(
    ("data", "fragments"),
    [
        (b"age,sex,note\n20,F,a\n21,M\n22,F,c,d\n", ["2 fields where the header has 3", "(line 3)"]),
        (b"age;sex;note\n20;F;a\n21;M;b;c\n", ["4 fields where the header has 3", 'delimiter ";"', "(line 3)"]),
        (b"", ["the file is empty"]),
        (b"\xef\xbb\xbf\r\n", ["the file is empty"]),
        (b"age,sex,note\n20,F,a\n21,M,\xe9t\xe9\n", ["not UTF-8", "byte 0xe9", "column 6", "(line 3)"]),
        (b'age,sex,note\n20,F,a\n21,M,"open\n22,F,c\n', ["quoted field is not closed", "(line 4)"]),
        (b'age,sex,note\n20,F,"a"b\n', ["',' expected after '\"'", "(line 2)"]),
        (b"age,sex,age\n20,F,21\n", ["names column 'age' twice", "(line 1)"]),
        (b"age,sex,note,\n20,F,a,\n", ["field 4 of the header is empty", "end of the line", "(line 1)"]),
        (b"age;sex;note\n20;F;a\n", ['one field with the delimiter ","', 'source.delimiter: ";"']),
    ],
    ids=["ragged", "ragged_semicolon", "empty", "bom_and_blank_line", "not_utf8", "unterminated_quote",
         "text_after_quote", "repeated_column", "trailing_delimiter", "wrong_delimiter"],
)
def test_csv_source_faults_are_input_errors_naming_the_file(
    tmp_path: Path, data: bytes, fragments: list[str]
) -> None:
    (tmp_path / "data.csv").write_bytes(data)
    source = {"delimiter": ","} if "one field" in fragments[0] else {}
    path = write_config(tmp_path / "c.yaml", _csv_config(tmp_path, **source))
    expect_error(["anonymize", path], f"{path}: source.csv: data.csv: ", *fragments)


def test_csv_source_with_a_header_only_has_no_rows(tmp_path: Path) -> None:
    (tmp_path / "data.csv").write_bytes(b"age,sex,note\r\n")
    path = write_config(tmp_path / "c.yaml", _csv_config(tmp_path))
    expect_error(["validate", path], "data.csv has no rows")


def test_csv_source_that_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / "data.csv").mkdir()
    path = write_config(tmp_path / "c.yaml", _csv_config(tmp_path))
    expect_error(["validate", path], "source.csv: data.csv: is a directory, not a CSV file")


def test_csv_source_with_glob_characters_in_its_name(tmp_path: Path) -> None:
    """DuckDB expands ``*?[{`` in a path: ``data[1].csv`` must not read ``data1.csv``."""
    (tmp_path / "data1.csv").write_bytes(b"other\n1\n")
    (tmp_path / "data[1].csv").write_bytes(_bytes(ROWS))
    cfg = parse_config(_csv_config(tmp_path, "data[1].csv"), base_dir=tmp_path)
    with Session(cfg) as session:
        table, _ = session.open_source()
        assert session.adapter.column_names(table) == ["age", "sex", "note"]


def test_csv_source_on_postgresql_is_refused(engine: Engine, tmp_path: Path) -> None:
    (tmp_path / "data.csv").write_bytes(_bytes(ROWS))
    data = _csv_config(tmp_path)
    data["source"]["url"] = engine.url
    path = write_config(tmp_path / "c.yaml", data)
    if engine.name == "duckdb":
        assert invoke("validate", path).exit_code == 0
    else:
        expect_error(["validate", path], "source.csv", "cannot read client CSV files")


# -- generated hierarchies on an entirely NULL column ------------------------------------------------


@pytest.mark.parametrize(
    "hierarchy",
    [{"mask": {"length": 5}}, {"intervals": {"widths": [5, 10]}}, {"dates": {"levels": ["year"]}}],
    ids=["mask", "intervals", "dates"],
)
def test_entirely_null_column_with_a_generated_hierarchy(engine: Engine, tmp_path: Path, hierarchy) -> None:
    kind = next(iter(hierarchy))
    sql_type = {"mask": "VARCHAR", "intervals": "INTEGER", "dates": "DATE"}[kind]
    engine.create_table("t", {"v": sql_type, "sex": "VARCHAR"}, [(None, "FM"[i % 2]) for i in range(10)])
    data = {
        "source": {"url": engine.url, "table": "t"},
        "output": {"table": "t_out"},
        "attributes": {
            "v": {"role": "quasi_identifier", "hierarchy": hierarchy},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
        },
        "privacy": {"k": 2},
    }
    path = write_config(tmp_path / "c.yaml", data)
    err = expect_error(["validate", path], f"{path}: attributes.v: column 'v' is entirely NULL in ",
                       f"{'an' if kind == 'intervals' else 'a'} {kind} hierarchy", "insensitive",
                       "identifier or ignore")
    assert re.search(r"NULL in (\w+\.)*t; ", err), err  # the table, as the database resolved it
    assert "has no values" not in err


# -- hints ---------------------------------------------------------------------------------------------


def test_an_attribute_that_differs_from_its_column_in_case_is_named(engine: Engine, tmp_path: Path) -> None:
    _qi_table(engine, ["A", "B", "C", "A"])
    data = _qi_config(engine, {"mask": {"length": 1}})
    data["attributes"]["SEX"] = data["attributes"].pop("sex")
    path = write_config(tmp_path / "c.yaml", data)
    expect_error(["validate", path], f"{path}: attributes.SEX: no column 'SEX'",
                 "column names are matched exactly: did you mean 'sex'?")


def _qi_table(engine: Engine, values: list[str]) -> None:
    engine.create_table("t", {"code": "VARCHAR", "sex": "VARCHAR"},
                        [(v, "FM"[i % 2]) for i, v in enumerate(values)])


def _qi_config(engine: Engine, hierarchy: dict[str, Any]) -> dict[str, Any]:
    return {
        "source": {"url": engine.url, "table": "t"},
        "output": {"table": "t_out"},
        "attributes": {
            "code": {"role": "quasi_identifier", "hierarchy": hierarchy},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
        },
        "privacy": {"k": 2},
    }


@pytest.mark.parametrize("file_bytes", [256 * 1024, 0], ids=["read_in_python", "read_by_the_database"])
def test_comma_separated_hierarchy_read_with_the_default_delimiter(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, file_bytes: int
) -> None:
    monkeypatch.setattr("sqlanon.hierarchy.loading.PYTHON_FILE_BYTES", file_bytes)
    _qi_table(engine, ["A", "B", "C", "A"])
    (tmp_path / "code.csv").write_text("A,AB,*\nB,AB,*\nC,C,*\n", encoding="utf-8")
    path = write_config(tmp_path / "c.yaml", _qi_config(engine, {"csv": "code.csv"}))
    expect_error(["validate", path], "attributes.code.hierarchy (file code.csv)",
                 "the top level has 3 different values",
                 '(the file looks comma-separated: set delimiter: ",")')
    # and with the delimiter set, it loads
    path = write_config(tmp_path / "c.yaml", _qi_config(engine, {"csv": "code.csv", "delimiter": ","}))
    assert invoke("validate", path).exit_code == 0


def test_no_delimiter_hint_for_a_file_that_uses_the_delimiter(engine: Engine, tmp_path: Path) -> None:
    _qi_table(engine, ["A", "B", "C", "A"])
    (tmp_path / "code.csv").write_text("A;P\nB;P\nC;Q\n", encoding="utf-8")
    path = write_config(tmp_path / "c.yaml", _qi_config(engine, {"csv": "code.csv"}))
    err = expect_error(["validate", path], "the top level has 2 different values")
    assert "looks" not in err


def test_mask_length_that_does_not_fit_the_values(engine: Engine, tmp_path: Path) -> None:
    _qi_table(engine, ["1305", "13053", "130", "13053", "1305", "130"])
    path = write_config(tmp_path / "c.yaml", _qi_config(engine, {"mask": {"length": 5}}))
    expect_error(["validate", path], f"{path}: attributes.code.hierarchy.mask.length: 5, but 2 value(s) of "
                 "column 'code' have another length: lengths seen 3, 4", "'130' (3), '1305' (4)")


# -- other_columns ---------------------------------------------------------------------------------------


def _wide_table(engine: Engine) -> None:
    engine.create_table("t", {"age": "INTEGER", "sex": "VARCHAR", "a": "VARCHAR", "b": "INTEGER", "c": "VARCHAR"},
                        [(20 + i % 7, "FM"[i % 2], f"x{i}", i, f"y{i}") for i in range(12)])


def _wide_config(engine: Engine, **extra: Any) -> dict[str, Any]:
    return {
        "source": {"url": engine.url, "table": "t"},
        "output": {"table": "t_out"},
        "attributes": {
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "c": {"role": "identifier"},
        },
        "privacy": {"k": 2, "suppression_limit": 0},
        **extra,
    }


@pytest.mark.parametrize(("role", "kept"), [("insensitive", ["a", "b"]), ("identifier", []), ("ignore", [])])
def test_other_columns_gives_unlisted_columns_a_role(engine: Engine, tmp_path: Path, role: str,
                                                     kept: list[str]) -> None:
    _wide_table(engine)
    path = write_config(tmp_path / "c.yaml", _wide_config(engine, other_columns=role))
    result = invoke("anonymize", path, "--json")
    assert result.exit_code == 0, result.output
    columns = [name for name, _ in engine.columns("t_out")]
    assert columns == ["age", "sex", *kept]  # c stays an identifier: listed roles win
    if kept:
        assert sorted(engine.execute('SELECT a, b FROM "t_out"')) == sorted((f"x{i}", i) for i in range(12))


def test_without_other_columns_an_unlisted_column_is_an_error_that_names_it(engine: Engine, tmp_path: Path) -> None:
    _wide_table(engine)
    path = write_config(tmp_path / "c.yaml", _wide_config(engine))
    expect_error(["validate", path], "column(s) of t without one: 'a', 'b'", "other_columns: insensitive")


@pytest.mark.parametrize("value", ["quasi_identifier", "sensitive", "keep"])
def test_other_columns_takes_only_roles_without_settings(tmp_path: Path, value: str) -> None:
    path = write_config(tmp_path / "c.yaml", _wide_config(Engine("duckdb", "duckdb:///:memory:", None),
                                                          other_columns=value))
    expect_error(["validate", path], f"{path}: other_columns:", "'insensitive', 'identifier' or 'ignore'",
                 repr(value))


def test_other_columns_is_recorded_and_applied_again(engine: Engine, tmp_path: Path) -> None:
    """``apply`` rebuilds the recorded config: the unlisted columns keep their role on the next batch."""
    _wide_table(engine)
    path = write_config(tmp_path / "c.yaml", _wide_config(engine, other_columns="ignore"))
    saved = tmp_path / "t.json"
    assert invoke("anonymize", path, "--save-transformation", saved).exit_code == 0
    result = invoke("apply", "--transformation", saved, "--source", "t", "--output", "t_next", "--db", engine.url)
    assert result.exit_code == 0, result.output
    rows = engine.execute('SELECT * FROM "t_next"')
    assert len(rows) == 12 and {len(r) for r in rows} == {2}  # age and sex: a, b ignored, c an identifier
