"""Hostile identifiers and values on both engines: quotes, spaces, semicolons, percent signs, question
marks, dollar signs, dots, SQL keywords and unicode in table, column and hierarchy names and in data.

Everything must work end to end through the CLI (anonymize, verify, check, validate, explain) and nothing
may be injected: the decoy tables the names try to drop still exist afterwards. On Spark too, with table and
schema names its catalog can hold (``SPARK_NAMES``) and the same hostile columns and values.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sqlanon.engines import adapter_for_url
from tests.helpers import Engine, invoke, quote, spark_sql, write_config

pytestmark = pytest.mark.spark

SOURCE = "Größe; DROP TABLE x;--"
OUTPUT = 'out "put"; DROP TABLE x;-- %s ? $1'
HIER_TABLE = "hier 'h'; DROP TABLE y;-- %"
QUOTE_COL = 'a"b'  # quasi-identifier, inline hierarchy with hostile values
KEYWORD_COL = "select"  # quasi-identifier, interval hierarchy
MIXED_COL = "Mixed Case"  # quasi-identifier, hierarchy from a table with a hostile name
DATE_COL = "when? %(x)s"  # quasi-identifier, date hierarchy
PCT_COL = "pct %s ?"  # sensitive
SEMI_COL = "semi;colon $1 dot.ted"  # insensitive
APOS_COL = "it's"  # identifier
UNICODE_COL = "Größe"  # ignore

HOSTILE_VALUES = ["'; DROP TABLE x; --", "%s", "?", "ünï \"q\""]
HOSTILE_PARENTS = {"'; DROP TABLE x; --": "p %", "%s": "p %", "?": "p ?", "ünï \"q\"": "p ?"}




def hostile_rows(n: int = 48) -> list[tuple]:
    return [
        (
            HOSTILE_VALUES[i % 4],
            20 + (i * 7) % 40 if i % 11 else None,
            "ABC"[i % 3] if i % 13 else None,
            dt.date(1990 + i % 12, 1 + i % 12, 1 + i % 28),
            f"secret {i} %s ?",
            f"v{i}; DROP TABLE x",
            f"id{i}",
            f"ß{i}",
        )
        for i in range(n)
    ]


COLUMNS = {
    QUOTE_COL: "VARCHAR", KEYWORD_COL: "INTEGER", MIXED_COL: "VARCHAR", DATE_COL: "DATE", PCT_COL: "VARCHAR",
    SEMI_COL: "VARCHAR", APOS_COL: "VARCHAR", UNICODE_COL: "VARCHAR",
}
QIS = [QUOTE_COL, KEYWORD_COL, MIXED_COL, DATE_COL]


PH = "\x01"  # placeholder marker in raw SQL below


def raw(engine: Engine, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> list[tuple]:
    """Run SQL on the test database without touching identifiers (tests.helpers' Engine.execute rewrites
    every '%' and '?' in the statement, quoted identifiers included, so it cannot handle hostile names).
    Write placeholders as PH."""
    if engine.name == "duckdb":
        import duckdb

        con = duckdb.connect(engine.extra["path"])
        try:
            cur = con.execute(sql.replace(PH, "?"), list(params)) if params else con.execute(sql)
            return cur.fetchall() if cur.description else []
        finally:
            con.close()
    if engine.name == "spark":  # tests.helpers' spark_sql turns the double-quoted names into backticks
        return engine.execute(sql.replace(PH, "?"), params)
    text = sql.replace("%", "%%").replace(PH, "%s") if params else sql
    cur = engine.con.execute(text, list(params) if params else None)
    return cur.fetchall() if cur.description else []


def create(engine: Engine, qualified: str, columns: dict[str, str], rows: list[tuple]) -> None:
    ddl = f"CREATE TABLE {qualified} (" + ", ".join(f"{quote(c)} {t}" for c, t in columns.items()) + ")"
    insert = f"INSERT INTO {qualified} VALUES (" + ", ".join([PH] * len(columns)) + ")"
    if engine.name == "duckdb":
        import duckdb

        con = duckdb.connect(engine.extra["path"])  # one connection: opening a DuckDB file is slow
        try:
            con.execute(ddl)
            con.executemany(insert.replace(PH, "?"), [list(r) for r in rows])
        finally:
            con.close()
        return
    raw(engine, ddl)
    if engine.name == "spark":
        values = ", ".join(["(" + ", ".join([PH] * len(columns)) + ")"] * len(rows))
        raw(engine, f"INSERT INTO {qualified} VALUES {values}", [v for r in rows for v in r])
        return
    with engine.con.cursor() as cur:
        cur.executemany(insert.replace("%", "%%").replace(PH, "%s"), [list(r) for r in rows])


SCHEMA = 'my "sch"; DROP TABLE x;-- % ?.ü'
#: Spark's session catalog takes only letters, digits and _ in table and schema names (INVALID_SCHEMA_OR_RELATION_
#: NAME; a name it refuses is exit 2, test_hostile_unquoted_output_name_without_dots): its tables get names that
#: are keywords in mixed case, its columns and values stay as hostile as on the other engines.
SPARK_NAMES = {SOURCE: "Select_From", OUTPUT: "Drop_Table", HIER_TABLE: "Hier_Where", SCHEMA: "Schema_Union"}


def named(engine: Engine, name: str) -> str:
    """A hostile table or schema name as the engine's catalog can hold it."""
    return SPARK_NAMES[name] if engine.name == "spark" else name


def setup_hostile(engine: Engine, schema: str | None = None) -> tuple[str, str, str]:
    """Decoy tables x and y, the hostile source and a hostile hierarchy table; returns qualified names
    (config spelling, which is also SQL spelling) of source, output and hierarchy table."""
    schema = None if schema is None else named(engine, schema)
    engine.create_table("x", {"keep": "INTEGER"}, [(1,)])
    engine.create_table("y", {"keep": "INTEGER"}, [(2,)])
    prefix = ""
    if schema is not None:
        raw(engine, f"CREATE SCHEMA {quote(schema)}")
        prefix = quote(schema) + "."
    source, output, hier = (quote(named(engine, t)) for t in (SOURCE, OUTPUT, HIER_TABLE))
    create(engine, prefix + source, COLUMNS, hostile_rows())
    create(engine, prefix + hier, {"leaf?": "VARCHAR", "lvl 1 %": "VARCHAR", "top;": "VARCHAR"},
           [("A", "AB", "*"), ("B", "AB", "*"), ("C", "C", "*")])
    return prefix + source, prefix + output, prefix + hier


def hostile_config(url: str, source: str, output: str, hier: str, k: int = 3) -> dict[str, Any]:
    return {
        "source": {"url": url, "table": source},
        "output": {"table": output},
        "attributes": {
            QUOTE_COL: {"role": "quasi_identifier", "hierarchy": {
                "inline": {v: [HOSTILE_PARENTS[v], "*"] for v in HOSTILE_VALUES}}},
            KEYWORD_COL: {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [10, 20]}}},
            MIXED_COL: {"role": "quasi_identifier", "hierarchy": {"table": hier}},
            DATE_COL: {"role": "quasi_identifier", "hierarchy": {"dates": {"levels": ["year", "decade"]}}},
            PCT_COL: {"role": "sensitive"},
            SEMI_COL: {"role": "insensitive"},
            APOS_COL: {"role": "identifier"},
            UNICODE_COL: {"role": "ignore"},
        },
        "privacy": {"k": k, "suppression_limit": 0.1},
    }


def all_relations(engine: Engine) -> set[str]:
    """Every table name in every schema, temporary schemas of other sessions included."""
    if engine.name == "duckdb":
        return {r[0] for r in raw(engine, "SELECT table_name FROM information_schema.tables")}
    if engine.name == "spark":  # every schema's tables, and the session's temporary views (scratch tables)
        schemas = [d.name for d in engine.con.catalog.listDatabases()]
        return {r.tableName for s in schemas for r in engine.con.sql(f"SHOW TABLES IN {spark_quote(s)}").collect()}
    return {r[0] for r in raw(engine, "SELECT relname FROM pg_class WHERE relkind IN ('r', 'v', 'm', 'p')")}


def stored(engine: Engine, name: str) -> str:
    """A hostile table's name as the catalog keeps it: Spark's session catalog folds names to lower case."""
    return named(engine, name).lower() if engine.name == "spark" else name


def tables_in(engine: Engine, schema: str | None) -> set[str]:
    """The tables of a schema of its own (Engine.tables lists every schema's on DuckDB and PostgreSQL, the
    test's own on Spark)."""
    if schema is None or engine.name != "spark":
        return set()
    return {r.tableName for r in engine.con.sql(f"SHOW TABLES IN {spark_quote(named(engine, schema))}").collect()}


def spark_quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def column_names(engine: Engine, qualified: str) -> list[str]:
    return [d[0] for d in raw_description(engine, qualified)]


def raw_description(engine: Engine, qualified: str) -> list[tuple]:
    if engine.name == "spark":
        return [(f.name,) for f in engine.con.sql(spark_sql(f"SELECT * FROM {qualified}")).schema.fields]
    if engine.name == "duckdb":
        import duckdb

        con = duckdb.connect(engine.extra["path"])
        try:
            return list(con.execute(f"SELECT * FROM {qualified} LIMIT 0").description)
        finally:
            con.close()
    return list(engine.con.execute(f"SELECT * FROM {qualified} LIMIT 0").description)


def select_all(engine: Engine, qualified: str) -> list[tuple]:
    return sorted(raw(engine, f"SELECT * FROM {qualified}"), key=repr)


@pytest.mark.parametrize("schema", [None, SCHEMA], ids=["default", "schema"])
def test_hostile_identifiers_end_to_end(engine: Engine, tmp_path: Path, schema: str | None) -> None:
    source, output, hier = setup_hostile(engine, schema)
    before = select_all(engine, source)
    config = write_config(tmp_path / "hostile.yaml", hostile_config(engine.url, source, output, hier))

    validated = invoke("validate", config, "--json")
    assert validated.exit_code == 0, validated.output
    assert json.loads(validated.stdout)["rows"] == 48

    explained = invoke("explain", config, "--node", f"{KEYWORD_COL}=1")
    assert explained.exit_code == 0, explained.output

    result = invoke("anonymize", config, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["status"] == "ok" and report["verified"] is True
    assert list(report["transformation"]) == QIS

    # No injection: the decoys survive, the source is unchanged, no temporary table is left behind.
    tables = engine.tables() | tables_in(engine, schema)
    assert {"x", "y", *(stored(engine, t) for t in (SOURCE, HIER_TABLE, OUTPUT))} <= tables
    assert raw(engine, "SELECT keep FROM x") == [(1,)] and raw(engine, "SELECT keep FROM y") == [(2,)]
    assert select_all(engine, source) == before
    assert not any(t.startswith("sqlanon_") for t in all_relations(engine))

    # The output: right columns in the right order, right row count, k-anonymous, values from the hierarchies.
    assert column_names(engine, output) == [QUOTE_COL, KEYWORD_COL, MIXED_COL, DATE_COL, PCT_COL, SEMI_COL]
    rows = raw(engine, f"SELECT * FROM {output}")
    assert len(rows) == 48 - report["suppressed_rows"] == report.get("output_rows", len(rows))
    classes = Counter(tuple(r[:4]) for r in rows)
    assert min(classes.values()) >= 3
    level = report["transformation"][QUOTE_COL]
    allowed = [set(HOSTILE_VALUES), set(HOSTILE_PARENTS.values()), {"*"}][level]
    assert {r[0] for r in rows} <= allowed | {None, "*"}
    assert {r[4] for r in rows} <= {f"secret {i} %s ?" for i in range(48)}
    assert {r[5] for r in rows} <= {f"v{i}; DROP TABLE x" for i in range(48)}

    # check measures the hostile output table by its hostile name and columns.
    checked = invoke("check", "--db", engine.url, "--table", output, "--qi", ",".join(QIS), "--k", 3, "--json")
    assert checked.exit_code == 0, checked.output
    assert json.loads(checked.stdout)["smallest_class"] >= 3

    # Running again fails cleanly because the hostile output exists; replace works.
    again = invoke("anonymize", config)
    assert again.exit_code == 2 and "already exists" in again.stderr
    data = hostile_config(engine.url, source, output, hier)
    data["output"]["if_exists"] = "replace"
    replaced = invoke("anonymize", write_config(tmp_path / "replace.yaml", data), "--json")
    assert replaced.exit_code == 0, replaced.output
    assert {"x", "y", stored(engine, SOURCE), stored(engine, OUTPUT)} <= engine.tables() | tables_in(engine, schema)


def test_hostile_unquoted_output_name_without_dots(engine: Engine, tmp_path: Path) -> None:
    """An unquoted config name is taken literally (no SQL parsing), however hostile, as long as it has no dot;
    only its case follows the engine's rule (lower case here, so the same on both engines). Spark's catalog
    refuses it: exit 2 naming it, nothing written, the decoy intact."""
    source, _, hier = setup_hostile(engine)
    name = "tab le;drop table x;--'%?$1"
    config = write_config(tmp_path / "c.yaml", hostile_config(engine.url, source, name, hier))
    result = invoke("anonymize", config, "--json")
    if engine.name == "spark":
        assert result.exit_code == 2, result.output
        assert name in result.stderr and "not a valid name" in result.stderr
        assert engine.tables() == {"x", "y", stored(engine, SOURCE), stored(engine, HIER_TABLE)}
        return
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["output_table"] == quote(name)
    assert {"x", name, stored(engine, SOURCE)} <= engine.tables()


def test_hostile_names_in_error_messages(engine: Engine, tmp_path: Path) -> None:
    """Errors about hostile names quote them faithfully and still exit 2 without a traceback."""
    source, output, hier = setup_hostile(engine)
    data = hostile_config(engine.url, source, output, hier)
    data["attributes"]['no "such"; col'] = {"role": "insensitive"}
    result = invoke("validate", write_config(tmp_path / "c.yaml", data))
    assert result.exit_code == 2, result.output
    assert "no \"such\"; col" in result.stderr
    data = hostile_config(engine.url, "missing; DROP TABLE x;--", output, hier)
    result = invoke("validate", write_config(tmp_path / "d.yaml", data))
    assert result.exit_code == 2, result.output
    assert "missing; DROP TABLE x;--" in result.stderr
    assert "x" in engine.tables()


def test_explain_prints_hostile_identifiers_verbatim(engine: Engine, tmp_path: Path) -> None:
    """The SQL that explain prints names the columns as they are (quoted), on both engines; a driver's
    escaping (psycopg doubles '%') must not change an identifier in the text shown to the user."""
    source, output, hier = setup_hostile(engine)
    config = write_config(tmp_path / "c.yaml", hostile_config(engine.url, source, output, hier))
    result = invoke("explain", config)
    assert result.exit_code == 0, result.output
    sql_text = "\n".join(line for line in result.stdout.splitlines() if not line.startswith("--"))
    shown = type(adapter_for_url(engine.url)).quote_identifier  # the engine's quoting, as a user copies it
    for column in (QUOTE_COL, KEYWORD_COL, MIXED_COL, DATE_COL):
        assert shown(column) in sql_text, f"{shown(column)} not in the printed SQL"
    assert shown(named(engine, SOURCE)) in sql_text
    assert "%%" not in sql_text, "printed SQL has doubled percent signs (wrong identifier when run by hand)"


def test_hierarchy_rows_reach_the_database_exactly(engine: Engine) -> None:
    """Configuration rows (hierarchies) are bulk-inserted: DuckDB through a CSV its reader loads, with a random
    token read back as NULL; PostgreSQL through COPY. Text that looks like CSV syntax or like NULL stays text."""
    rows = [
        ["a", "", None],
        ['q"uote', "line\nbreak", "sqlanon-null-0123"],
        [None, None, '"'],
        ["é,;\t", "NULL", "null"],
        ["\\N", " ", "\\"],
    ]
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        temporary, text = ("", "STRING") if engine.name == "spark" else ("TEMPORARY ", "VARCHAR")  # no temporary tables
        adapter.execute(f"CREATE {temporary}TABLE hier_rows (i {text}, a {text}, b {text}, c {text})")
        adapter.bulk_insert("hier_rows", 4, [[str(i), *row] for i, row in enumerate(rows)])
        got = adapter.execute("SELECT a, b, c FROM hier_rows ORDER BY i")
    finally:
        adapter.close()
    assert [list(r) for r in got] == rows
