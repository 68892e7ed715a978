"""The Spark engine's URLs and errors (the engine suite's Spark instances are marked ``spark``, tests/conftest.py).

Exit codes: 2 invalid config or input, 1 an engine that cannot be reached or fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sqlanon.engines.spark import SparkAdapter, parse_spark_url
from tests.bad_input import base_config, config_file, expect_error
from tests.helpers import Engine, make_people, people_config, write_config

SECRET = "s3cr3t-value"


def test_local_url_with_a_warehouse_keeps_its_catalog_there(tmp_path: Path) -> None:
    master, remote, settings, database = parse_spark_url("spark:///?master=local[2]&warehouse=wh&database=sales",
                                                         base_dir=tmp_path)
    assert (master, remote, database) == ("local[2]", None, "sales")
    assert settings["spark.sql.warehouse.dir"] == str(tmp_path / "wh")
    assert settings["spark.sql.catalogImplementation"] == "hive"
    assert str(tmp_path / "wh" / "metastore_db") in settings["spark.hadoop.javax.jdo.option.ConnectionURL"]


def test_cluster_and_connect_urls() -> None:
    master, remote, settings, _ = parse_spark_url("spark://head:7077/?spark.executor.memory=4g&warehouse=/wh")
    assert (master, remote) == ("spark://head:7077", None)
    # A cluster's catalog is the cluster's own (its hive-site.xml), not a Derby metastore in the warehouse.
    assert settings == {"spark.executor.memory": "4g", "spark.sql.warehouse.dir": "/wh"}
    assert parse_spark_url("sc://head:15002/;token=x")[:2] == (None, "sc://head:15002/;token=x")


def test_url_errors_name_the_parameter_and_hide_secrets(tmp_path: Path) -> None:
    url = f"spark:///?master=local[1]&datbase=x&spark.hadoop.fs.s3a.secret.key={SECRET}"
    err = expect_error(["anonymize", config_file(tmp_path, base_config(url))], 2,
                       "unknown Spark URL parameter 'datbase'", "database", "secret.key=***")
    assert SECRET not in err
    url = "spark://head:7077/?master=local[2]"
    expect_error(["anonymize", config_file(tmp_path, base_config(url))], 2, "not both")


def test_quoting_and_spelling() -> None:
    adapter = SparkAdapter("spark:", "spark:")
    assert adapter.quote_qualified(("a`b", "c")) == "`a``b`.`c`"
    sql = "SELECT CAST(x AS VARCHAR(3)), CAST(y AS DOUBLE PRECISION) -- TEXT\nFROM `TEXT` WHERE z = 'NUMERIC'"
    assert adapter._finalize_sql(sql) == ("SELECT CAST(x AS VARCHAR(3)), CAST(y AS DOUBLE) -- TEXT\n"
                                          "FROM `TEXT` WHERE z = 'NUMERIC'")


@pytest.mark.spark
def test_a_missing_table_is_an_input_error(engine: Engine, tmp_path: Path) -> None:
    engine.create_table("other", {"id": "INTEGER"}, [(1,)])
    path = write_config(tmp_path / "c.yaml", people_config(engine.url))
    expect_error(["anonymize", path], 2, "people", "not found")


@pytest.mark.spark
def test_the_output_is_published_and_replaced(engine: Engine, tmp_path: Path) -> None:
    """A first run creates the output; a second replaces it (on Spark by the staged swap, which leaves no
    sqlanon_new_/sqlanon_old_ table behind); scratch views are gone after each run."""
    import sqlanon

    make_people(engine)
    cfg = people_config(engine.url)
    cfg["output"]["if_exists"] = "replace"
    path = write_config(tmp_path / "c.yaml", cfg)
    for _ in range(2):
        result = sqlanon.anonymize(path)
        assert result.verified and result.output_rows == engine.execute('SELECT count(*) FROM "people_out"')[0][0]
        assert engine.tables() == {"people", "people_out"}
    if engine.name == "spark":
        assert not [t for t in engine.con.catalog.listTables() if t.isTemporary]


@pytest.mark.spark
def test_related_tables_run_through_the_cli(engine: Engine, tmp_path: Path) -> None:
    """Related tables' templates speak each engine's dialect (Spark's arrays, ordered aggregates and JSON by
    sql/spark/macros/): a run through the CLI writes a verified release, its documents table included."""
    from tests.helpers import invoke
    from tests.unit.methods.related_tables.test_related_tables import Data, config, load

    # Two records that differ under every top label: the search stops at the first specializations (a local
    # Spark takes 0.4 s a statement, and a search down to the leaves runs 500).
    data = Data([(1, "a1"), (2, "b1")], [(10, 1, "d1"), (11, 2, "d5")], [(100, 10, "x"), (101, 11, "z")], None, None)
    load(engine, data)
    path = write_config(tmp_path / "r.yaml", config(data, engine.url, k=2, m=1, n=1, documents="docs"))
    result = invoke("anonymize", path)
    assert result.exit_code == 0, result.output
    assert engine.execute("SELECT count(*) FROM docs") == [(2,)]


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_files_read_by_spark_are_a_source(spark_session: Any, tmp_path: Path, fmt: str) -> None:
    """``source.table: parquet:/path`` (or csv:, with a header line): Spark reads the files as the source; the
    output is a table of the catalog; a path Spark cannot read is an input error naming it."""
    import sqlanon
    from tests.helpers import people_rows

    engine = Engine.spark_database(spark_session, f"t_files_{fmt}")
    try:
        files = tmp_path / f"people.{fmt}"
        frame = spark_session.createDataFrame(people_rows(), "id INT, age INT, sex STRING, zip STRING, name STRING")
        (frame.write.option("header", True).csv(str(files)) if fmt == "csv" else frame.write.parquet(str(files)))
        cfg = people_config(engine.url)
        cfg["source"]["table"] = f"{fmt}:{files}"
        cfg["history"] = {"enabled": False}
        result = sqlanon.anonymize(write_config(tmp_path / "c.yaml", cfg))
        assert result.verified and result.rows == 60
        assert engine.tables() == {"people_out"}
        cfg["source"]["table"] = f"{fmt}:{tmp_path / 'missing'}"
        expect_error(["anonymize", write_config(tmp_path / "m.yaml", cfg)], 2, "source.table", "missing",
                     "not found")
    finally:
        engine.close()


@pytest.mark.spark
def test_a_table_the_source_view_reads_is_never_the_output(engine: Engine, tmp_path: Path) -> None:
    """The source is a view of a table; replacing that table with the output is refused before any work (on
    Spark, the tables a view reads come from its analyzed plan)."""
    make_people(engine)
    engine.execute('CREATE VIEW "people_view" AS SELECT * FROM "people"')
    cfg = people_config(engine.url, output="people")
    cfg["source"]["table"] = "people_view"
    cfg["output"]["if_exists"] = "replace"
    expect_error(["anonymize", write_config(tmp_path / "c.yaml", cfg)], 2, "output.table", "people")


def test_hostile_column_names_and_values_on_spark(spark_session: Any, tmp_path: Path) -> None:
    """tests/e2e/test_hostile_identifiers.py's columns and values on Spark: quotes, backticks' neighbours, spaces,
    semicolons, percent signs, question marks, SQL keywords and unicode in column names and data, through the
    CLI (validate, explain, anonymize, check). Table names are plain: Spark's session catalog takes no others
    (refused with exit 2: test_history's hostile schema name)."""
    import json
    from collections import Counter

    from pyspark.sql.types import DateType, IntegerType, StringType, StructField, StructType

    from tests.e2e import test_hostile_identifiers as h
    from tests.helpers import invoke

    engine = Engine.spark_database(spark_session, "t_hostile")
    try:
        types = {"VARCHAR": StringType(), "INTEGER": IntegerType(), "DATE": DateType()}
        columns = {**h.COLUMNS, "tick `col`": "VARCHAR"}
        schema = StructType([StructField(name, types[kind]) for name, kind in columns.items()])
        rows = [(*row, f"t{i}") for i, row in enumerate(h.hostile_rows())]
        spark_session.createDataFrame(rows, schema).write.saveAsTable("t_hostile.src")
        hierarchy = [("A", "AB", "*"), ("B", "AB", "*"), ("C", "C", "*")]
        (spark_session.createDataFrame(hierarchy, "`leaf?` STRING, `lvl 1 %` STRING, `top;` STRING")
         .write.saveAsTable("t_hostile.hier"))
        engine.create_table("x", {"keep": "INTEGER"}, [(1,)])
        data = h.hostile_config(engine.url, "src", "out", "hier")
        data["attributes"]["tick `col`"] = {"role": "insensitive"}
        config = write_config(tmp_path / "hostile.yaml", data)

        validated = invoke("validate", config, "--json")
        assert validated.exit_code == 0, validated.output
        assert invoke("explain", config, "--node", f"{h.KEYWORD_COL}=1").exit_code == 0
        result = invoke("anonymize", config, "--json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert report["verified"] is True and list(report["transformation"]) == h.QIS

        assert engine.tables() == {"src", "hier", "x", "out"}
        assert engine.execute('SELECT keep FROM "x"') == [(1,)]
        out = spark_session.table("t_hostile.out")
        assert out.columns == [h.QUOTE_COL, h.KEYWORD_COL, h.MIXED_COL, h.DATE_COL, h.PCT_COL, h.SEMI_COL, "tick `col`"]
        written = [tuple(r) for r in out.collect()]
        assert len(written) == 48 - report["suppressed_rows"]
        assert min(Counter(r[:4] for r in written).values()) >= 3
        assert {r[4] for r in written} <= {f"secret {i} %s ?" for i in range(48)}
        checked = invoke("check", "--db", engine.url, "--table", "out", "--qi", ",".join(h.QIS), "--k", 3, "--json")
        assert checked.exit_code == 0, checked.output
        assert json.loads(checked.stdout)["smallest_class"] >= 3
    finally:
        engine.close()
