"""UPDATE and DELETE of Spark's scratch views (``sqlanon/engines/spark_rewrite.py``): each form the methods'
templates write leaves the same rows on Spark as the statement itself leaves on DuckDB, NULL predicates and
unmatched rows included; the forms the rewrite cannot read are engine errors, not wrong rows."""

from __future__ import annotations

from typing import Any

import duckdb
import pytest

from sqlanon.engines import spark_rewrite
from sqlanon.engines.spark import SparkAdapter
from sqlanon.errors import EngineError

#: rid, grp, part, s, rare: NULL groups and values, parts of one and of several rows.
ROWS = [(1, None, 0, "a", False), (2, 5, 0, None, True), (3, None, 1, "a", None), (4, 7, 1, "b", False),
        (5, None, 2, None, True), (6, 5, 2, "c", False), (7, 9, 3, "a", True)]
COLUMNS = "CAST(rid AS INTEGER) AS rid, CAST(grp AS BIGINT) AS grp, CAST(part AS BIGINT) AS part, " \
          "CAST(s AS VARCHAR) AS s, CAST(rare AS BOOLEAN) AS rare"
#: Statements in the shapes of sql/common/methods/*, {t} the quoted table, with their parameters.
STATEMENTS = {
    "set a value where": ("UPDATE {t} SET grp = ? WHERE rid = ?", [42, 3]),
    "NULL predicates leave their rows": ("UPDATE {t} SET grp = NULL WHERE grp = ? AND NOT rare", [5]),
    "set without where": ("UPDATE {t} SET rare = TRUE", []),
    "IN a grouped subquery": ("UPDATE {t} SET grp = -1 WHERE part IN (SELECT part FROM {t} GROUP BY part "
                              "HAVING count(*) < ?)", [2]),
    "correlated scalar subquery": ("UPDATE {t} SET grp = (SELECT max(g.grp) FROM {t} AS g WHERE g.part = {t}.part "
                                   "AND g.grp >= ?) WHERE grp IS NULL", [6]),
    "two assignments": ("UPDATE {t} SET grp = ?, part = part + 1 WHERE rid > ?", [0, 4]),
    "from a derived table": ("UPDATE {t} SET grp = x.grp FROM (SELECT rid, rid * ? AS grp FROM {t} "
                             "WHERE rid % 2 = 0) AS x WHERE {t}.rid = x.rid", [10]),
    "from with an alias": ("UPDATE {t} AS z SET part = q.p FROM (SELECT rid, CAST(rid % ? AS BIGINT) AS p "
                           "FROM {t}) AS q WHERE z.rid = q.rid AND q.p > 0", [3]),
    "from a table, NULL-safe join": ("UPDATE {t} SET rare = f.c * ? < ? FROM (SELECT s, count(*) AS c FROM {t} "
                                     "GROUP BY s) AS f WHERE {t}.s IS NOT DISTINCT FROM f.s", [2, 3]),
    "a value becomes NULL": ("UPDATE {t} SET s = NULL WHERE s = ?", ["a"]),
    "delete with a NULL predicate": ("DELETE FROM {t} WHERE grp IN (SELECT grp FROM {t} WHERE grp > ?)", [6]),
    "delete rows of a pattern": ("DELETE FROM {t} WHERE s IS NULL OR rare", []),
}


@pytest.fixture(scope="module")
def adapter(spark_session: Any) -> SparkAdapter:
    spark = SparkAdapter.borrowing(spark_session)
    spark.connect()
    return spark


def _values() -> str:
    def literal(v: Any) -> str:
        return "NULL" if v is None else repr(v).upper() if isinstance(v, bool) else repr(v)

    return ", ".join("(" + ", ".join(literal(v) for v in row) + ")" for row in ROWS)


@pytest.mark.parametrize("case", sorted(STATEMENTS))
def test_spark_leaves_the_rows_duckdb_leaves(adapter: SparkAdapter, case: str) -> None:
    statement, params = STATEMENTS[case]
    source = f"SELECT {COLUMNS} FROM (VALUES {_values()}) AS v(rid, grp, part, s, rare)"
    con = duckdb.connect()
    con.execute(f"CREATE TEMP TABLE t AS {source}")
    con.execute(statement.format(t='"t"'), params)
    expected = sorted(con.execute("SELECT * FROM t").fetchall(), key=lambda r: r[0])
    view = "sqlanon_rewrite_test"
    adapter.execute(f"CACHE TABLE `{view}` AS {adapter._finalize_sql(source)}", [])
    try:
        types = adapter._columns(f"`{view}`")
        adapter.execute(statement.format(t=f"`{view}`"), params)
        got = sorted(adapter.execute(f"SELECT * FROM `{view}`", []), key=lambda r: r[0])
        assert adapter._columns(f"`{view}`") == types  # an UPDATE keeps the columns' types
    finally:
        adapter.drop_tables([view])
    assert got == expected
    assert got != ROWS  # each case changes something


def test_the_rewrite_keeps_the_order_of_the_parameters() -> None:
    """SET's expressions, FROM's source, WHERE's predicate: as in the statement, so ``?`` bind as they are."""
    query = spark_rewrite.rewrite("UPDATE `t` SET a = ?1 FROM (SELECT ?2 AS b) AS x WHERE x.b = ?3",
                                  [("`a`", "int"), ("`b`", "int")])
    assert query.index("?1") < query.index("?2") < query.index("?3")
    query = spark_rewrite.rewrite("UPDATE `t` SET a = ?1, b = ?2 WHERE a = ?3", [("`a`", "int"), ("`b`", "int")])
    assert query.index("?1") < query.index("?2") < query.index("?3")


@pytest.mark.parametrize(("statement", "message"), [
    ("UPDATE `t` SET a = x.a FROM `s` AS x", "needs a WHERE"),
    ("UPDATE `t` SET a = x.a FROM `s` x WHERE x.a = 1", "named with AS"),
    ("UPDATE `t` SET nope = 1", "no column `nope`"),
    ("UPDATE `t` SET a + 1", "cannot read the assignment"),
    ("UPDATE `t` SET a = 1 WHERE a = 2 WHERE a = 3", "unexpected WHERE"),
    ("UPDATE `t` SET a = 1 WHERE a = 2 FROM `s` AS x", "unexpected FROM"),
])
def test_forms_the_rewrite_cannot_read_are_errors(statement: str, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        spark_rewrite.rewrite(statement, [("`a`", "int")])


def test_a_statement_on_a_catalog_table_is_left_to_spark(adapter: SparkAdapter) -> None:
    """Only the session's scratch views are rewritten: an UPDATE of another name reaches Spark, which refuses it
    for its parquet tables (the run history writes a second row instead, history/runs.py)."""
    adapter.execute("CREATE TABLE sqlanon_rewrite_parquet (a INT) USING parquet", [])
    try:
        with pytest.raises(EngineError, match="UPDATE"):
            adapter.execute("UPDATE `sqlanon_rewrite_parquet` SET a = 1", [])
    finally:
        adapter.execute("DROP TABLE sqlanon_rewrite_parquet", [])
