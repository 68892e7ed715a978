"""The output can never be, nor replace, a relation the run reads, however the name is spelled.

Names are resolved through the database (its case rule, quoting, default schema, search_path, catalog), so
every spelling family of the source's name is refused with exit 2 before any work, for `anonymize` and for
`apply`, and the source's rows are unchanged afterwards (a checksum of all rows). Unquoted names follow the
engine's case rule (PostgreSQL folds them to lower case, DuckDB compares without case); quoted names are exact
(but Spark's session catalog holds lower-case names only, so on Spark quoted names compare without case too).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Engine, invoke, on_engines, quote, write_config

pytestmark = pytest.mark.spark

ROWS = [(i, 20 + i % 20, "F" if i % 2 else "M", f"n{i}") for i in range(40)]
COLUMNS = {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "name": "VARCHAR"}


def checksum(engine: Engine, table: str) -> list[tuple]:
    """Every row of the table, sorted: equal before and after means the table is unchanged."""
    return sorted(engine.execute(f"SELECT * FROM {table}"), key=repr)


def config(url: str, source: str, output: str, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "source": {"url": url, "table": source},
        "output": {"table": output, "if_exists": "replace"},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "name": {"role": "insensitive"},
        },
        "privacy": {"k": 2},
    }
    data.update(extra)
    return data


def spellings(engine: Engine, table: str) -> list[str]:
    """Names that all denote the table ``table`` (created lower case in the default schema)."""
    schema, catalog = engine.schema, engine.catalog
    names = [f"{schema}.{table}", f"{catalog}.{schema}.{table}", table.upper(),
             f"{schema.upper()}.{table.upper()}", quote(table),
             f"{quote(catalog)}.{quote(schema)}.{quote(table)}"]
    if engine.name != "postgres":  # DuckDB and Spark compare even quoted names without case
        names += [quote(table.upper()), f"{catalog.upper()}.{schema}.{table.upper()}"]
    return names


def expect_refused(result: Any, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in {result.stderr}"


def test_every_spelling_of_the_source_is_refused_as_output(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("src", COLUMNS, ROWS)
    before = checksum(engine, "src")
    for n, name in enumerate(spellings(engine, "src")):
        path = write_config(tmp_path / f"c{n}.yaml", config(engine.url, "src", name))
        result = invoke("anonymize", path)
        expect_refused(result, str(path), "output.table", name, "source.table", "can never be the output")
        assert checksum(engine, "src") == before, name
    # ... and the other way round: the source spelled differently, the output plain.
    for n, name in enumerate(spellings(engine, "src")):
        path = write_config(tmp_path / f"s{n}.yaml", config(engine.url, name, "src"))
        expect_refused(invoke("anonymize", path), "output.table", "can never be the output")
        assert checksum(engine, "src") == before, name


def test_every_spelling_of_the_source_is_refused_by_apply(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("people2", COLUMNS, ROWS)
    path = write_config(tmp_path / "c.yaml", config(engine.url, "people2", "people2_k2"))
    saved = tmp_path / "t.json"
    first = invoke("anonymize", path, "--save-transformation", saved)
    assert first.exit_code == 0, first.output
    before = checksum(engine, "people2")
    for name in spellings(engine, "people2"):
        result = invoke("apply", "--transformation", saved, "--db", engine.url, "--source", "people2",
                        "--output", name, "--if-exists", "replace")
        expect_refused(result, "--output", "--source", "can never be the output")
        assert checksum(engine, "people2") == before, name


def table_on_the_search_path(engine: Engine, schema: str, table: str) -> None:
    """PostgreSQL: ``schema.table`` with the test rows, and ``schema`` second on the database's search_path."""
    engine.execute(f"CREATE SCHEMA {schema}")
    engine.execute(f"CREATE TABLE {schema}.{table} (id INTEGER, age INTEGER, sex VARCHAR, name VARCHAR)")
    engine.execute(f"INSERT INTO {schema}.{table} SELECT * FROM (VALUES " +
                   ", ".join(f"({i}, {a}, '{s}', '{n}')" for i, a, s, n in ROWS) + ") AS v")
    engine.execute(f'ALTER DATABASE "{engine.catalog}" SET search_path = public, {schema}')


#: PostgreSQL only: DuckDB's default search path is the current schema only, Spark has none (both covered by
#: the spellings test).
ON_POSTGRES = on_engines("postgres")


@ON_POSTGRES
def test_the_search_path_is_followed(engine: Engine, tmp_path: Path) -> None:
    """An unqualified source found through the search path is the same relation as its qualified name."""
    table_on_the_search_path(engine, "s2", "only_there")
    before = checksum(engine, "s2.only_there")
    for n, name in enumerate(["s2.only_there", "S2.ONLY_THERE", f"{engine.catalog}.s2.only_there"]):
        path = write_config(tmp_path / f"c{n}.yaml", config(engine.url, "only_there", name))
        expect_refused(invoke("anonymize", path), "output.table", "s2.only_there", "can never be the output")
    assert checksum(engine, "s2.only_there") == before
    # A new table without a schema goes to the first schema of the path (public), not next to the source.
    path = write_config(tmp_path / "ok.yaml", config(engine.url, "only_there", "only_there_k2"))
    assert invoke("anonymize", path).exit_code == 0
    assert engine.execute("SELECT count(*) FROM public.only_there_k2")[0][0] == 40


def test_hierarchy_and_population_tables_are_never_the_output(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("src", COLUMNS, ROWS)
    engine.create_table("sex_h", {"leaf": "VARCHAR", "l1": "VARCHAR"}, [("F", "*"), ("M", "*")])
    engine.create_table("census", COLUMNS, ROWS + ROWS)
    data = config(engine.url, "src", "SEX_H")
    data["attributes"]["sex"]["hierarchy"] = {"table": "sex_h"}
    expect_refused(invoke("anonymize", write_config(tmp_path / "h.yaml", data)),
                   "output.table", "attributes.sex.hierarchy.table")
    data = config(engine.url, "src", "Census")
    data["privacy"]["delta_presence"] = {"population_table": "census", "delta_min": 0, "delta_max": 1}
    expect_refused(invoke("anonymize", write_config(tmp_path / "p.yaml", data)),
                   "output.table", "privacy.delta_presence.population_table")
    assert len(engine.execute("SELECT * FROM census")) == 80
    assert len(engine.execute("SELECT * FROM sex_h")) == 2


def test_the_history_schema_is_never_the_output(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("src", COLUMNS, ROWS)
    assert invoke("anonymize", write_config(tmp_path / "a.yaml", config(engine.url, "src", "out1"))).exit_code == 0
    path = write_config(tmp_path / "b.yaml", config(engine.url, "src", "SQLANON.runs"))
    expect_refused(invoke("anonymize", path), "output.table", "run-history schema")
    runs = invoke("runs", "list", "--db", engine.url, "--json")
    assert runs.exit_code == 0, runs.output


def test_unquoted_names_follow_the_engines_case_rule(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("adult", COLUMNS, ROWS)
    path = write_config(tmp_path / "c.yaml", config(engine.url, "ADULT", "ADULT_K2"))
    result = invoke("anonymize", path, "--json")
    assert result.exit_code == 0, result.output
    tables = engine.tables()
    # PostgreSQL folds the unquoted name to lower case (and Spark's catalog every name); DuckDB keeps the spelling.
    assert ("ADULT_K2" if engine.name == "duckdb" else "adult_k2") in tables
    assert json.loads(result.stdout)["verified"]


def test_quoted_names_are_exact(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("Mixed", COLUMNS, ROWS)
    ok = write_config(tmp_path / "ok.yaml", config(engine.url, quote("Mixed"), quote("Mixed_Out")))
    assert invoke("anonymize", ok).exit_code == 0
    assert ("mixed_out" if engine.name == "spark" else "Mixed_Out") in engine.tables()
    unquoted = write_config(tmp_path / "u.yaml", config(engine.url, "Mixed", "mixed_out2"))
    result = invoke("anonymize", unquoted)
    if engine.name == "postgres":  # folds to mixed, which does not exist: the message says how to keep the case
        expect_refused(result, "source.table", "Mixed", "not found", "double-quote")
    else:
        assert result.exit_code == 0, result.output


@on_engines("duckdb", "postgres")  # Spark has no foreign keys
def test_replacing_a_table_others_depend_on_is_refused_before_the_search(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("src", COLUMNS, ROWS)
    engine.execute("CREATE TABLE out_fk (id INTEGER PRIMARY KEY)")
    engine.execute("INSERT INTO out_fk VALUES (1)")
    engine.execute("CREATE TABLE child (ref INTEGER REFERENCES out_fk (id))")
    path = write_config(tmp_path / "fk.yaml", config(engine.url, "src", "out_fk"))
    expect_refused(invoke("anonymize", path), "output.table", "cannot be replaced", "child", "foreign key")
    assert engine.execute("SELECT * FROM out_fk") == [(1,)]
    if engine.name == "postgres":  # DuckDB binds views by name when read: they then read the new table
        engine.execute("CREATE TABLE out_v (id INTEGER)")
        engine.execute("CREATE VIEW reads_out AS SELECT * FROM out_v")
        path = write_config(tmp_path / "v.yaml", config(engine.url, "src", "out_v"))
        expect_refused(invoke("anonymize", path), "output.table", "reads_out", "view")


def test_outputs_that_cannot_be_written_are_refused(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("src", COLUMNS, ROWS)
    engine.execute("CREATE VIEW a_view AS SELECT * FROM src")
    path = write_config(tmp_path / "v.yaml", config(engine.url, "src", "a_view"))
    expect_refused(invoke("anonymize", path), "output.table", "a_view", "is a view")
    path = write_config(tmp_path / "s.yaml", config(engine.url, "src", "no_such_schema.out"))
    expect_refused(invoke("anonymize", path), "output.table", "no_such_schema", "does not exist")
    assert checksum(engine, "src") == sorted(ROWS, key=repr)


@on_engines("postgres")  # DuckDB: test_a_read_only_duckdb_file_is_refused
def test_a_read_only_role_is_refused_before_the_search(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("src", COLUMNS, ROWS)
    engine.execute("CREATE ROLE sqlanon_reader LOGIN")
    try:
        engine.execute("GRANT SELECT ON src TO sqlanon_reader")
        engine.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        from sqlalchemy.engine import make_url

        url = make_url(engine.url).set(username="sqlanon_reader", password=None).render_as_string(False)
        data = config(url, "src", "out_ro")
        data["history"] = {"enabled": False}
        expect_refused(invoke("anonymize", write_config(tmp_path / "ro.yaml", data)),
                       "output.table", "no permission")
    finally:
        engine.execute("REVOKE ALL ON src FROM sqlanon_reader")
        engine.execute("DROP ROLE sqlanon_reader")


def test_a_read_only_duckdb_file_is_refused(duckdb_engine: Engine, tmp_path: Path) -> None:
    duckdb_engine.create_table("src", COLUMNS, ROWS)
    data = config(duckdb_engine.url + "?access_mode=READ_ONLY", "src", "out_ro")
    data["history"] = {"enabled": False}
    result = invoke("anonymize", write_config(tmp_path / "ro.yaml", data))
    expect_refused(result, "output.table", "no permission")


@ON_POSTGRES
def test_apply_follows_the_search_path(engine: Engine, tmp_path: Path) -> None:
    """apply resolves --source and --output as anonymize does: through the search path on PostgreSQL."""
    table_on_the_search_path(engine, "s3", "batch")
    engine.create_table("people3", COLUMNS, ROWS)
    saved = tmp_path / "t.json"
    first = invoke("anonymize", write_config(tmp_path / "c.yaml", config(engine.url, "people3", "p3_k2")),
                   "--save-transformation", saved)
    assert first.exit_code == 0, first.output
    before = checksum(engine, "s3.batch")
    for name in ["s3.batch", "S3.BATCH", f"{engine.catalog}.s3.batch"]:
        result = invoke("apply", "--transformation", saved, "--db", engine.url, "--source", "BATCH",
                        "--output", name, "--if-exists", "replace")
        expect_refused(result, "--output", "s3.batch", "can never be the output")
    assert checksum(engine, "s3.batch") == before
    ok = invoke("apply", "--transformation", saved, "--db", engine.url, "--source", "Batch", "--output", "batch_k2",
                "--json")
    assert ok.exit_code == 0, ok.output
    assert engine.execute("SELECT count(*) FROM public.batch_k2")[0][0] == 40


def test_a_table_a_source_view_reads_is_never_the_output(engine: Engine, tmp_path: Path) -> None:
    """The source may be a view: the tables it reads (through further views too) are read by the run, so
    none of them may be replaced by the output, whatever the spelling."""
    engine.create_table("base", COLUMNS, ROWS)
    engine.execute("CREATE VIEW inner_v AS SELECT * FROM base WHERE id >= 0")
    engine.execute("CREATE VIEW outer_v AS SELECT * FROM inner_v")
    before = checksum(engine, "base")
    for n, name in enumerate(["base", "BASE", quote("base"), f"{engine.schema}.base"]):
        path = write_config(tmp_path / f"v{n}.yaml", config(engine.url, "outer_v", name))
        expect_refused(invoke("anonymize", path), "output.table", "is read by the view", "source.table",
                       "can never be the output")
        assert checksum(engine, "base") == before, name
    # A view's own output elsewhere is fine.
    path = write_config(tmp_path / "ok.yaml", config(engine.url, "outer_v", "from_view_k2"))
    assert invoke("anonymize", path).exit_code == 0
    assert checksum(engine, "base") == before


def test_the_history_schema_follows_the_name_rules(engine: Engine, tmp_path: Path) -> None:
    """A quoted history schema is exact, and the output may not replace its tables however it is written;
    an unquoted one follows the engine's case rule, in the config and on the command line alike."""
    engine.create_table("src", COLUMNS, ROWS)
    data = config(engine.url, "src", "out_a")
    data["history"] = {"schema": '"Audit"'}
    assert invoke("anonymize", write_config(tmp_path / "a.yaml", data)).exit_code == 0
    assert ("audit" if engine.name == "spark" else "Audit") in engine.schemas()  # Spark's catalog: lower case
    succeeded = """SELECT count(*) FROM "Audit".runs WHERE status = 'succeeded'"""  # refused runs are recorded
    for n, name in enumerate(['"Audit".runs', '"Audit"."runs"', '"Audit".run_nodes']):
        data = config(engine.url, "src", name)
        data["history"] = {"schema": '"Audit"'}
        expect_refused(invoke("anonymize", write_config(tmp_path / f"h{n}.yaml", data)),
                       "output.table", "run-history schema")
    assert engine.execute(succeeded) == [(1,)]
    listed = invoke("runs", "list", "--db", engine.url, "--schema", '"Audit"', "--json")
    assert listed.exit_code == 0, listed.output
    # Unquoted: PostgreSQL folds to lower case (a new schema audit2); DuckDB finds "Audit" whatever the case.
    data = config(engine.url, "src", "out_b")
    data["history"] = {"schema": "AUDIT2"}
    assert invoke("anonymize", write_config(tmp_path / "b.yaml", data)).exit_code == 0
    assert ("AUDIT2" if engine.name == "duckdb" else "audit2") in engine.schemas()
    for spelled in ("audit2", "Audit2", "AUDIT2"):
        listed = invoke("runs", "list", "--db", engine.url, "--schema", spelled, "--json")
        assert listed.exit_code == 0, (spelled, listed.output)
        assert len(json.loads(listed.stdout)["runs"]) == 1
    if engine.name != "postgres":
        listed = invoke("runs", "list", "--db", engine.url, "--schema", "audit", "--json")
        assert listed.exit_code == 0, listed.output


def test_the_output_is_reported_as_the_engine_spells_it(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("srcpg", COLUMNS, ROWS)
    result = invoke("anonymize", write_config(tmp_path / "c.yaml", config(engine.url, "srcpg", "SRCPG_OUT")),
                    "--json")
    assert result.exit_code == 0, result.output
    expected = "SRCPG_OUT" if engine.name == "duckdb" else "srcpg_out"
    assert json.loads(result.stdout)["output_table"] == expected
    assert expected in engine.tables()
