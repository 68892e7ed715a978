"""``sqlanon check`` with sensitive attributes: l-diversity (distinct, entropy, recursive), p-sensitivity,
(alpha,k)-anonymity, t-closeness (equal, ordered, hierarchical distance), (k,e)-anonymity and delta-presence.

Every test runs on DuckDB and PostgreSQL (the ``engine`` fixture). Expected values are worked out by hand in
the comments (p = class distribution, q = table distribution); a Python reference written from the
definitions in ``sqlanon/measures.py`` checks random tables with NULLs, and pycanon is an external oracle on
random tables without NULLs (slow test).

The t values, alpha and delta are one division of two exact integers in SQL, so they are compared with the
exact fraction converted to a float (``==``), which also proves both engines return the same double.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import sqlanon
from tests.helpers import Engine, invoke, quote

pytestmark = pytest.mark.spark

# -- helpers -----------------------------------------------------------------------------------------------




def check_json(engine: Engine, *args: Any, code: int = 0) -> dict[str, Any]:
    result = invoke("check", "--db", engine.url, *args, "--json")
    assert result.exit_code == code, result.output
    text = result.stdout.strip()
    assert text.startswith("{") and "\n" not in text, result.stdout
    return json.loads(text)


def expect_error(engine: Engine, args: list[Any], code: int, *fragments: str) -> str:
    """Text and --json runs both fail with ``code`` and a message holding every fragment."""
    result = invoke("check", "--db", engine.url, *args)
    assert result.exit_code == code, f"exit {result.exit_code}, expected {code}:\n{result.output}"
    assert result.stdout == "", result.stdout
    assert result.stderr.startswith("sqlanon: error: "), result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in:\n{result.stderr}"
    as_json = invoke("check", "--db", engine.url, *args, "--json")
    assert as_json.exit_code == code
    report = json.loads(as_json.stdout.strip())
    assert report["exit_code"] == code and report["status"] == {2: "invalid_input"}.get(code, "error")
    for fragment in fragments:
        assert fragment in report["error"]
    return result.stderr


def create_table(engine: Engine, name: str, columns: dict[str, str], rows: Sequence[Sequence[Any]]) -> None:
    """Like ``Engine.create_table``, but column names may hold '%' on PostgreSQL too (the CREATE statement
    runs without parameters there, so psycopg must see the name undoubled)."""
    if engine.name == "postgres" and any("%" in c for c in columns):
        engine.con.execute(f"CREATE TABLE {quote(name)} (" + ", ".join(
            f"{quote(c)} {t}" for c, t in columns.items()) + ")")
        with engine.con.cursor() as cur:
            cur.executemany(f"INSERT INTO {quote(name)} VALUES ({', '.join(['%s'] * len(columns))})",
                            [list(r) for r in rows])
        return
    engine.create_table(name, columns, rows)


def leftover_tables(engine: Engine) -> set[str]:
    return {t for t in engine.tables() if t.startswith("sqlanon_")}


def write_hierarchy(path: Path, lines: Sequence[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- the ward table: two classes, NULL in a quasi-identifier and in both sensitive attributes ---------------

WARD_COLUMNS = {"zone": "VARCHAR", "age": "INTEGER", "diagnosis": "VARCHAR", "stay": "INTEGER"}
WARD_ROWS = [
    # class X = ('x', 1)
    ("x", 1, "flu", 10),
    ("x", 1, "flu", 20),
    ("x", 1, "cold", None),
    # class Y = ('y', NULL): NULL is a quasi-identifier value of its own
    ("y", None, "flu", 5),
    ("y", None, None, 7),
    ("y", None, "hiv", 7),
]
WARD_HIERARCHY = ["flu;respiratory;*", "cold;respiratory;*", "hiv;sti;*", "measles;viral;*"]


def make_ward(engine: Engine, tmp_path: Path) -> Path:
    engine.create_table("ward", WARD_COLUMNS, WARD_ROWS)
    return write_hierarchy(tmp_path / "diagnosis.csv", WARD_HIERARCHY)


def test_ward_measures_by_hand(engine: Engine, tmp_path: Path) -> None:
    hierarchy = make_ward(engine, tmp_path)
    report = check_json(engine, "--table", "ward", "--qi", "zone,age", "--k", "3",
                        "--sensitive", "diagnosis,stay", "--hierarchy", f"diagnosis={hierarchy}")
    assert (report["rows"], report["classes"], report["smallest_class"], report["k_anonymous"]) == (6, 2, 3, True)
    assert "delta_presence" not in report

    # diagnosis. Table: flu 3/6, cold 1/6, hiv 1/6, NULL 1/6 (4 distinct values, NULL one of them).
    #   X: flu 2, cold 1          Y: flu 1, NULL 1, hiv 1
    # distinct l: X 2, Y 3 -> 2 (= p).
    # entropy: X -(2/3 ln 2/3 + 1/3 ln 1/3) = ln 3 - 2/3 ln 2, exp = 3 / 2^(2/3) = 1.88988; Y ln 3 -> 3. min 1.88988.
    # recursive, c = 3: X r = (2, 1): l=2: 2 < 3*1 yes -> 2; Y (1, 1, 1): l=3: 1 < 3*1 yes -> 3. min 2.
    # alpha: X 2/3, Y 1/3 -> 2/3.
    # t equal = max 1/2 sum |p - q|: X: flu 2/3-1/2 = +1/6, cold 1/3-1/6 = +1/6, hiv -1/6, NULL -1/6 -> 1/3;
    #   Y: flu -1/6, NULL +1/6, hiv +1/6, cold -1/6 -> 1/3. t = 1/3.
    # t hierarchical (h = 3; NULL has no row: its own chain below the top; measles occurs nowhere):
    #   X: leaves flu +1/6, cold +1/6, hiv -1/6, NULL -1/6. respiratory: children +1/6, +1/6 -> min(1/3, 0) = 0;
    #   sti, viral, NULL chain: one child -> 0. Top (level 2, weight 2/2): respiratory 1 - 4/6 = +1/3,
    #   sti -1/6, NULL -1/6, viral 0 -> min(1/3, 1/3) = 1/3. Y: respiratory 1/3 - 2/3 = -1/3 (flu -1/6,
    #   cold -1/6: min 0), sti +1/6, NULL +1/6 -> top min(1/3, 1/3) = 1/3. t = 1/3.
    d = report["sensitive"]["diagnosis"]
    assert d["numeric"] is False and d["distinct_values"] == 4 and d["null_rows"] == 1
    assert d["distinct_l"] == d["p"] == 2
    assert d["entropy_l"] == pytest.approx(3 / 2 ** (2 / 3), rel=1e-11)
    assert (d["recursive_c"], d["recursive_l"]) == (3.0, 2)
    assert d["alpha"] == float(Fraction(2, 3))
    assert d["t_equal"] == float(Fraction(1, 3))
    assert d["t_hierarchical"] == float(Fraction(1, 3))
    assert d["t_ordered"] is None and d["e"] is None  # not numeric

    # stay. Table values ascending, NULL last: 5, 7, 10, 20, NULL with q = 1/6, 2/6, 1/6, 1/6, 1/6 (m = 5).
    #   X: 10, 20, NULL (1/3 each)        Y: 5, 7, 7
    # distinct l: X 3, Y 2 -> 2. entropy: X 3, Y (1/3, 2/3) -> 1.88988. recursive c=3: X 3, Y 2 -> 2.
    # alpha: Y 2/3. t equal: X +1/6 (10) +1/6 (20) +1/6 (NULL) = 1/2; Y +1/6 (5) +1/3 (7) = 1/2 -> 1/2.
    # t ordered: X p - q = -1/6, -1/3, +1/6, +1/6, +1/6; running sums -1/6, -1/2, -1/3, -1/6, 0 -> 7/6,
    #   divided by m - 1 = 4: 7/24. Y: +1/6, +1/3, -1/6, -1/6, -1/6 -> 1/6, 1/2, 1/3, 1/6, 0 -> 7/24. t = 7/24.
    # e: X 20 - 10 = 10 (NULL ignored), Y 7 - 5 = 2 -> 2.
    s = report["sensitive"]["stay"]
    assert s["numeric"] is True and s["distinct_values"] == 5 and s["null_rows"] == 1
    assert (s["distinct_l"], s["recursive_l"]) == (2, 2)
    assert s["entropy_l"] == pytest.approx(3 / 2 ** (2 / 3), rel=1e-11)
    assert s["alpha"] == float(Fraction(2, 3))
    assert s["t_equal"] == 0.5
    assert s["t_ordered"] == float(Fraction(7, 24))
    assert s["t_hierarchical"] is None
    assert s["e"] == 2 and isinstance(s["e"], int)
    assert leftover_tables(engine) == set()  # the hierarchy's temporary table is gone


def test_ward_text_report(engine: Engine, tmp_path: Path) -> None:
    hierarchy = make_ward(engine, tmp_path)
    result = invoke("check", "--db", engine.url, "--table", "ward", "--qi", "zone,age", "--sensitive",
                    "diagnosis, stay", "--hierarchy", f"diagnosis={hierarchy}", "--c", "1.5")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "ward: 6 rows, 2 equivalence classes over zone, age" in out
    assert "sensitive attribute diagnosis (" in out and "4 distinct values incl. NULL, 1 NULL rows" in out
    assert "distinct l-diversity: l = 2   (p-sensitivity: p = 2)" in out
    assert "entropy l-diversity: l = 1.88988" in out
    # c = 1.5: X (2, 1): l=2: 2 < 1.5 no; l=1: 2 < 4.5 -> 1. Y (1, 1, 1): l=3: 1 < 1.5 -> 3. min 1.
    assert "recursive (c,l)-diversity with c = 1.5: l = 1" in out
    assert "(alpha,k)-anonymity: alpha = 0.666667" in out
    assert ("t-closeness: equal distance t = 0.333333; ordered distance t = n/a (not numeric); "
            "hierarchical distance t = 0.333333") in out
    assert ("equal distance t = 0.5; ordered distance t = 0.291667; "
            "hierarchical distance t = n/a (no --hierarchy)") in out
    assert "(k,e)-anonymity: e = n/a (not numeric)" in out and "(k,e)-anonymity: e = 2" in out


# -- NULL semantics ----------------------------------------------------------------------------------------


def test_null_is_a_value_of_its_own(engine: Engine) -> None:
    engine.create_table("n", {"zone": "VARCHAR", "age": "INTEGER", "diagnosis": "VARCHAR", "stay": "INTEGER"}, [
        ("p", None, None, None), ("p", None, "flu", None),   # P: stay all NULL
        (None, None, "flu", 3), (None, None, "cold", 8),     # Q: both QIs NULL, a class like any other
        (None, 1, None, None), (None, 1, None, 4),           # R: diagnosis NULL twice
    ])
    report = check_json(engine, "--table", "n", "--qi", "zone,age", "--sensitive", "diagnosis,stay")
    assert (report["classes"], report["smallest_class"], report["rows_with_null"]) == (3, 2, 6)
    # diagnosis: table NULL 3, flu 2, cold 1 (q = 1/2, 1/3, 1/6). P {NULL, flu}: 2 values (count(DISTINCT)
    # would say 1); Q {flu, cold}: 2; R {NULL, NULL}: one value (count(DISTINCT) would say 0) -> l = 1.
    # entropy: P, Q ln 2; R 0 -> exp 1. recursive c=3: R (2): 2 < 3*2 -> 1. alpha: R 2/2 = 1.
    # t equal: P: NULL 1/2-1/2 = 0, flu 1/2-1/3 = +1/6 -> 1/6; Q: flu +1/6, cold 1/2-1/6 = +1/3 -> 1/2;
    # R: NULL 1 - 1/2 = +1/2 -> 1/2. t = 1/2.
    d = report["sensitive"]["diagnosis"]
    assert (d["distinct_values"], d["null_rows"], d["distinct_l"], d["recursive_l"]) == (3, 3, 1, 1)
    assert d["entropy_l"] == 1.0
    assert d["alpha"] == 1.0 and d["t_equal"] == 0.5
    # stay: table ascending 3, 4, 8, NULL with q = 1/6, 1/6, 1/6, 1/2 (m = 4).
    # distinct: P {NULL}: 1 -> l = 1. e: P has only NULLs -> range 0 (documented); Q 8 - 3 = 5; R 4 - 4 = 0.
    # t ordered: P (NULL 1): p - q = -1/6, -1/6, -1/6, +1/2; running -1/6, -1/3, -1/2, 0 -> 1, /3 = 1/3.
    #   Q (3, 8): +1/3, -1/6, +1/3, -1/2 -> 1/3, 1/6, 1/2, 0 -> 1 -> 1/3.
    #   R (NULL, 4): -1/6, +1/3, -1/6, 0 -> -1/6, 1/6, 0, 0 -> 1/3 -> 1/9. t = 1/3.
    # t equal: P NULL 1 - 1/2 = 1/2; Q 3: 1/3, 8: 1/3 -> 2/3; R NULL 0, 4: 1/3 -> 1/3. t = 2/3.
    s = report["sensitive"]["stay"]
    assert (s["distinct_values"], s["null_rows"], s["distinct_l"], s["e"]) == (4, 3, 1, 0)
    assert s["t_ordered"] == float(Fraction(1, 3))
    assert s["t_equal"] == float(Fraction(2, 3))


def test_only_nulls_and_single_value(engine: Engine) -> None:
    # One class, stay all NULL: m = 1 -> t ordered 0; e 0; every class equals the table -> t equal 0.
    engine.create_table("z", {"g": "INTEGER", "stay": "DOUBLE PRECISION"}, [(1, None), (1, None)])
    s = check_json(engine, "--table", "z", "--qi", "g", "--sensitive", "stay")["sensitive"]["stay"]
    assert (s["distinct_l"], s["entropy_l"], s["recursive_l"], s["alpha"]) == (1, 1.0, 1, 1.0)
    assert (s["t_equal"], s["t_ordered"], s["e"]) == (0.0, 0.0, 0.0)
    assert isinstance(s["e"], float)


def test_empty_table(engine: Engine) -> None:
    """An empty table has no equivalence classes to check: exit 2 naming the table, text and JSON alike."""
    engine.create_table("empty", {"g": "INTEGER", "s": "VARCHAR", "x": "INTEGER"}, [])
    engine.create_table("pop", {"g": "INTEGER"}, [(1,)])
    expect_error(engine, ["--table", "empty", "--qi", "g", "--sensitive", "s,x", "--population", "pop"], 2,
                 "--table: table ", "empty", "is empty (0 rows)")
    expect_error(engine, ["--table", "empty", "--qi", "g", "--k", "2"], 2, "is empty (0 rows)")

# -- recursive (c,l)-diversity -------------------------------------------------------------------------------


@pytest.mark.parametrize(("c", "expected"), [
    # One class, counts r = (3, 3, 2, 2), tails r_l + ... + r_m = 10, 7, 4, 2 for l = 1..4; r_1 = 3.
    ("3", 4),     # 3 < 3*2 = 6 holds up to l = 4
    ("1.5", 3),   # l=4: 3 < 1.5*2 = 3 fails; l=3: 3 < 6 holds
    ("0.31", 1),  # l=1: 3 < 3.1 holds; l=2: 3 < 2.17 fails
    ("0.3", 0),   # l=1: 3 < 0.3*10 = 3 fails exactly (in doubles 0.3*10 = 3.0000000000000004 would pass)
])
def test_recursive_l_is_exact(engine: Engine, c: str, expected: int) -> None:
    engine.create_table("r", {"g": "INTEGER", "s": "VARCHAR"},
                        [(1, v) for v in "aaabbbccdd"])
    s = check_json(engine, "--table", "r", "--qi", "g", "--sensitive", "s", "--c", c)["sensitive"]["s"]
    assert s["recursive_l"] == expected
    assert s["recursive_c"] == float(c)


# -- hierarchical distance, deeper hierarchy ---------------------------------------------------------------


def test_hierarchical_distance_height_four(engine: Engine, tmp_path: Path) -> None:
    hierarchy = write_hierarchy(tmp_path / "h.csv", [
        "a1;A;AB;*", "a2;A;AB;*", "b1;B;AB;*",
        "c1;C;C;*",    # the same label on two levels: nodes are (level, label)
        "d1;D;DE;*",   # occurs nowhere in the data: extra 0
        "a1;A;AB;*",   # a duplicate row changes nothing
    ])
    engine.create_table("h", {"g": "INTEGER", "s": "VARCHAR"}, [(1, "a1"), (1, "a2"), (2, "b1"), (2, "c1")])
    s = check_json(engine, "--table", "h", "--qi", "g", "--sensitive", "s",
                   "--hierarchy", f"s={hierarchy}")["sensitive"]["s"]
    # h = 4 columns: weights level/3. q = 1/4 for a1, a2, b1, c1.
    # Class 1 (a1, a2): leaf extras a1 +1/4, a2 +1/4, b1 -1/4, c1 -1/4.
    #   A (level 1): children +1/4, +1/4 -> min(1/2, 0) = 0.  B, C(1), D: a single child -> 0.
    #   AB (level 2): children A +1/2, B -1/4 -> min(1/2, 1/4) = 1/4, weight 2/3 -> 1/6.  C(2), DE: 0.
    #   * (level 3): children AB +1/4, C -1/4, DE 0 -> 1/4, weight 1 -> 1/4.  Total 5/12.
    # Class 2 (b1, c1): A: -1/4, -1/4 -> 0; B +1/4 -> 0; AB: A -1/2, B +1/4 -> 1/4 * 2/3 = 1/6;
    #   *: AB -1/4, C +1/4 -> 1/4. Total 5/12.
    assert s["t_hierarchical"] == float(Fraction(5, 12))
    assert s["t_equal"] == 0.5
    assert leftover_tables(engine) == set()


# -- column types -------------------------------------------------------------------------------------------


def test_numeric_and_non_numeric_types(engine: Engine) -> None:
    engine.create_table("ty", {"g": "INTEGER", "d": "DATE", "code": "VARCHAR", "price": "DECIMAL(8,2)",
                               "w": "DOUBLE PRECISION", "tiny": "SMALLINT"}, [
        (1, "2020-01-01", "10", 1.25, 0.5, -30000), (1, "2020-02-01", "20", 2.0, 1.5, 30000),
        (2, "2021-01-01", "30", 3.5, 4.0, 7), (2, "2021-01-01", "40", 3.75, 4.0, 9),
    ])
    report = check_json(engine, "--table", "ty", "--qi", "g", "--sensitive", "d,code,price,w,tiny")
    m = report["sensitive"]
    # Dates and digit strings are not numeric: no e, no ordered distance.
    assert m["d"]["numeric"] is False and m["d"]["e"] is None and m["d"]["t_ordered"] is None
    assert m["code"]["numeric"] is False and m["code"]["e"] is None
    # price: class 1 range 0.75, class 2 0.25 -> 0.25.  w: 1.0 and 0.0 -> 0.0.
    assert m["price"]["e"] == 0.25 and m["w"]["e"] == 0.0
    # SMALLINT range 60000 does not overflow the column type.
    assert m["tiny"]["e"] == 2 and isinstance(m["tiny"]["e"], int)
    # w: values 0.5, 1.5, 4.0 (q = 1/4, 1/4, 1/2). Class 2 (4.0, 4.0): p - q = -1/4, -1/4, +1/2; running
    # -1/4, -1/2, 0 -> 3/4, /2 = 3/8; class 1 (0.5, 1.5): +1/4, +1/4, -1/2 -> 3/8.
    assert m["w"]["t_ordered"] == float(Fraction(3, 8))


# -- delta-presence -----------------------------------------------------------------------------------------


def test_delta_presence_range(engine: Engine, tmp_path: Path) -> None:
    make_ward(engine, tmp_path)
    # Population = the ward plus two more ('x', 1), one more ('y', NULL) and a class the subset lacks.
    engine.create_table("census", {"age": "INTEGER", "zone": "VARCHAR"}, [
        (a, z) for z, a, _, _ in WARD_ROWS] + [(1, "x"), (1, "x"), (None, "y"), (2, "z")])
    report = check_json(engine, "--table", "ward", "--qi", "zone,age", "--population", "census")
    census = {"duckdb": "test.main.census", "postgres": "public.census",  # resolved by the database
              "spark": f"spark_catalog.{engine._dbname}.census"}[engine.name]
    # X: 3 of 5 = 0.6; Y (NULL age matches NULL age): 3 of 4 = 0.75; ('z', 2) is not a class of the subset.
    assert report["delta_presence"] == {
        "population": census, "population_rows": 10, "classes": 2, "delta_min": 0.6, "delta_max": 0.75,
        "classes_larger_than_population": 0,
    }
    assert "sensitive" not in report
    text = invoke("check", "--db", engine.url, "--table", "ward", "--qi", "zone,age", "--population", "census")
    assert f"delta-presence against {census} (10 rows): delta_min = 0.6, delta_max = 0.75" in text.stdout


def test_delta_presence_not_a_subset(engine: Engine, tmp_path: Path) -> None:
    make_ward(engine, tmp_path)
    engine.create_table("few", {"zone": "VARCHAR", "age": "INTEGER"}, [("x", 1), ("y", None)])
    # X: 3 subset records but 1 in the population: delta 3 > 1 is reported, with a warning in the text.
    report = check_json(engine, "--table", "ward", "--qi", "zone,age", "--population", "few")
    assert report["delta_presence"]["delta_max"] == 3.0
    assert report["delta_presence"]["classes_larger_than_population"] == 2
    text = invoke("check", "--db", engine.url, "--table", "ward", "--qi", "zone,age", "--population", "few")
    assert "not a subset of the population" in text.stdout


# -- hostile identifiers ------------------------------------------------------------------------------------


def test_hostile_column_names_give_the_same_numbers(engine: Engine, tmp_path: Path) -> None:
    """Columns named like the SQL's own aliases, or with quotes, semicolons and '%', change nothing."""
    hierarchy = make_ward(engine, tmp_path)
    names = {"zone": "cid", "age": 'we"ird; col', "diagnosis": "cnt", "stay": "pct%col"}
    create_table(engine, "odd", {names[c]: t for c, t in WARD_COLUMNS.items()}, WARD_ROWS)
    engine.create_table("odd_pop", {"cid": "VARCHAR", 'we"ird; col': "INTEGER", "sqlanon_in_subset": "INTEGER"},
                        [(z, a, 1) for z, a, _, _ in WARD_ROWS] + [("x", 1, 0)])
    engine.create_table("ward_pop", {"zone": "VARCHAR", "age": "INTEGER", "sqlanon_in_subset": "INTEGER"},
                        [(z, a, 1) for z, a, _, _ in WARD_ROWS] + [("x", 1, 0)])
    odd_hierarchy = write_hierarchy(tmp_path / "odd.csv", WARD_HIERARCHY)
    plain = check_json(engine, "--table", "ward", "--qi", "zone,age", "--sensitive", "diagnosis,stay",
                       "--hierarchy", f"diagnosis={hierarchy}", "--population", "ward_pop")
    odd = check_json(engine, "--table", "odd", "--qi", f"cid,{names['age']}", "--sensitive", "cnt,pct%col",
                     "--hierarchy", f"cnt={odd_hierarchy}", "--population", "odd_pop")
    assert odd["sensitive"]["cnt"] == plain["sensitive"]["diagnosis"]
    assert odd["sensitive"]["pct%col"] == plain["sensitive"]["stay"]
    assert {k: v for k, v in odd["delta_presence"].items() if k != "population"} == {
        k: v for k, v in plain["delta_presence"].items() if k != "population"}
    assert plain["delta_presence"]["delta_min"] == 0.75
    # A quasi-identifier named like the presence query's flag column.
    flag = check_json(engine, "--table", "ward_pop", "--qi", "zone,sqlanon_in_subset", "--population", "ward_pop")
    assert flag["delta_presence"]["delta_min"] == flag["delta_presence"]["delta_max"] == 1.0


# -- errors -------------------------------------------------------------------------------------------------


def test_error_unknown_or_misused_sensitive_column(engine: Engine, tmp_path: Path) -> None:
    make_ward(engine, tmp_path)
    base = ["--table", "ward", "--qi", "zone,age"]
    expect_error(engine, [*base, "--sensitive", "diagnosis,colour"], 2, "--sensitive", "'colour'", "columns:")
    expect_error(engine, [*base, "--sensitive", "age"], 2, "--sensitive", "'age'", "quasi-identifier")
    expect_error(engine, [*base, "--sensitive", " , "], 2, "--sensitive")


def test_error_c(engine: Engine, tmp_path: Path) -> None:
    make_ward(engine, tmp_path)
    base = ["--table", "ward", "--qi", "zone,age", "--sensitive", "diagnosis"]
    expect_error(engine, [*base, "--c", "0"], 2, "--c", "must be > 0")
    expect_error(engine, [*base, "--c", "-2"], 2, "--c", "-2")
    usage = invoke("check", "--db", engine.url, *base, "--c", "many")
    assert usage.exit_code == 2 and "--c" in usage.stderr


def test_error_bad_hierarchy_option(engine: Engine, tmp_path: Path) -> None:
    hierarchy = make_ward(engine, tmp_path)
    base = ["--table", "ward", "--qi", "zone,age", "--sensitive", "diagnosis"]
    expect_error(engine, [*base, "--hierarchy", str(hierarchy)], 2, "--hierarchy", "ATTRIBUTE=FILE", str(hierarchy))
    expect_error(engine, [*base, "--hierarchy", "diagnosis="], 2, "--hierarchy", "'diagnosis='")
    expect_error(engine, [*base, "--hierarchy", f"stay={hierarchy}"], 2, "--hierarchy", "'stay'",
                 "not one of the --sensitive", f"stay={hierarchy}")
    expect_error(engine, [*base, "--hierarchy", f"diagnosis={hierarchy}", "--hierarchy", f"diagnosis={hierarchy}"],
                 2, "--hierarchy", "given twice")
    missing = tmp_path / "nope.csv"
    expect_error(engine, [*base, "--hierarchy", f"diagnosis={missing}"], 2, f"--hierarchy diagnosis={missing}",
                 "not found")
    ragged = write_hierarchy(tmp_path / "ragged.csv", ["flu;respiratory;*", "cold;*"])
    expect_error(engine, [*base, "--hierarchy", f"diagnosis={ragged}"], 2, f"--hierarchy diagnosis={ragged}",
                 "line 2 has 2 columns, expected 3")
    flat = write_hierarchy(tmp_path / "flat.csv", ["flu", "cold"])
    expect_error(engine, [*base, "--hierarchy", f"diagnosis={flat}"], 2, "at least two columns")
    empty = write_hierarchy(tmp_path / "empty.csv", [""])
    expect_error(engine, [*base, "--hierarchy", f"diagnosis={empty}"], 2, "empty")
    assert leftover_tables(engine) == set()


def test_error_hierarchy_content(engine: Engine, tmp_path: Path) -> None:
    make_ward(engine, tmp_path)
    base = ["--table", "ward", "--qi", "zone,age", "--sensitive", "diagnosis"]
    partial = write_hierarchy(tmp_path / "partial.csv", ["flu;respiratory;*"])
    err = expect_error(engine, [*base, "--hierarchy", f"diagnosis={partial}"], 2,
                       f"--hierarchy diagnosis={partial}", "2 value(s) of column 'diagnosis' missing",
                       "'cold' (1 rows)", "'hiv' (1 rows)")
    assert "NULL" not in err and "None" not in err  # NULL needs no hierarchy row
    forest = write_hierarchy(tmp_path / "forest.csv", ["flu;respiratory;R", "cold;respiratory;R", "hiv;sti;S"])
    expect_error(engine, [*base, "--hierarchy", f"diagnosis={forest}"], 2, "2 different values", "'R', 'S'",
                 "single top value")
    tangled = write_hierarchy(tmp_path / "tangled.csv", ["flu;respiratory;*", "cold;respiratory;X", "hiv;sti;*"])
    expect_error(engine, [*base, "--hierarchy", f"diagnosis={tangled}"], 2, "more than one parent")
    assert leftover_tables(engine) == set()


def test_error_population(engine: Engine, tmp_path: Path) -> None:
    make_ward(engine, tmp_path)
    engine.create_table("noage", {"zone": "VARCHAR"}, [("x",)])
    engine.create_table("onlyx", {"zone": "VARCHAR", "age": "INTEGER"}, [("x", 1), ("q", 3)])
    base = ["--table", "ward", "--qi", "zone,age"]
    expect_error(engine, [*base, "--population", "nosuch"], 2, "--population", "nosuch", "not found")
    expect_error(engine, [*base, "--population", "noage"], 2, "--population", "'age'", "noage")
    expect_error(engine, [*base, "--population", "onlyx"], 2, "--population", "1 equivalence class(es)",
                 "no record in ", "onlyx", "subset")


def test_errors_keep_the_k_part_working(engine: Engine, tmp_path: Path) -> None:
    """Without sensitive attributes the report is the k-anonymity report of before (no extra keys)."""
    make_ward(engine, tmp_path)
    report = check_json(engine, "--table", "ward", "--qi", "zone,age", "--k", "4", code=3)
    assert "sensitive" not in report and "delta_presence" not in report
    assert report["classes_below_k"] == 2


# -- random tables with NULLs against a Python reference ---------------------------------------------------


def _sort_key(v: Any) -> tuple[bool, Any]:
    return (v is None, v if v is not None else 0)


def reference(rows: list[tuple], qi: Sequence[int], s: int, c: Fraction,
              hierarchy: dict[Any, list[str]] | None = None, numeric: bool = False) -> dict[str, Any]:
    """The definitions of sqlanon/measures.py, literally (hierarchical EMD via min(pos_extra, neg_extra))."""
    classes: dict[tuple, list[Any]] = defaultdict(list)
    for r in rows:
        classes[tuple(r[i] for i in qi)].append(r[s])
    n = len(rows)
    table = Counter(r[s] for r in rows)
    order = sorted(table, key=_sort_key)
    q = {v: Fraction(table[v], n) for v in table}
    out: dict[str, Any] = {"distinct_l": math.inf, "entropy": math.inf, "recursive_l": math.inf,
                           "alpha": Fraction(0), "t_equal": Fraction(0), "t_ordered": Fraction(0),
                           "t_hierarchical": Fraction(0), "e": None}
    for values in classes.values():
        size = len(values)
        counts = Counter(values)
        p = {v: Fraction(counts.get(v, 0), size) for v in table}
        r = sorted(counts.values(), reverse=True)
        out["distinct_l"] = min(out["distinct_l"], len(counts))
        out["entropy"] = min(out["entropy"], -sum(x / size * math.log(x / size) for x in counts.values()))
        lc = max([l for l in range(1, len(r) + 1) if r[0] < c * sum(r[l - 1:])], default=0)
        out["recursive_l"] = min(out["recursive_l"], lc)
        out["alpha"] = max(out["alpha"], Fraction(r[0], size))
        out["t_equal"] = max(out["t_equal"], sum(abs(p[v] - q[v]) for v in table) / 2)
        if len(order) > 1:
            running, total = Fraction(0), Fraction(0)
            for v in order:
                running += p[v] - q[v]
                total += abs(running)
            out["t_ordered"] = max(out["t_ordered"], total / (len(order) - 1))
        if numeric:
            present = [v for v in values if v is not None]
            rng = max(present) - min(present) if present else 0
            out["e"] = rng if out["e"] is None else min(out["e"], rng)
        if hierarchy is not None:
            out["t_hierarchical"] = max(out["t_hierarchical"], _hierarchical_emd(hierarchy, p, q))
    return out


def _hierarchical_emd(hierarchy: dict[Any, list[str]], p: dict, q: dict) -> Fraction:
    height = len(next(iter(hierarchy.values())))  # columns: value, level 1, ..., top
    top = next(iter(hierarchy.values()))[-1]
    paths = {v: [("leaf", v), *[(j, lab) for j, lab in enumerate(labels[1:], start=1)]]
             for v, labels in hierarchy.items()}
    # NULL: its own node on every level below the top
    paths[None] = [("leaf", None), *[(j, ("NULL", j)) for j in range(1, height - 1)], (height - 1, top)]
    extra: dict[Any, Fraction] = defaultdict(Fraction)
    children: dict[Any, set] = defaultdict(set)
    for v, path in paths.items():
        e = p.get(v, Fraction(0)) - q.get(v, Fraction(0))
        for i, node in enumerate(path):
            extra[node] += e
            if i:
                children[node].add(path[i - 1])
    cost = Fraction(0)
    for node, kids in children.items():
        pos = sum((extra[k] for k in kids if extra[k] > 0), Fraction(0))
        neg = sum((-extra[k] for k in kids if extra[k] < 0), Fraction(0))
        cost += Fraction(node[0], height - 1) * min(pos, neg)
    return cost


def random_table(rng: random.Random, nulls: bool) -> list[tuple]:
    n = rng.randint(1, 40)
    pick = (lambda xs: rng.choice([*xs, None])) if nulls else rng.choice
    return [(pick([1, 2, 3]), pick(["a", "b"]), pick([f"v{i}" for i in range(6)]), pick(list(range(7))))
            for _ in range(n)]


def random_hierarchy(rng: random.Random) -> dict[Any, list[str]]:
    height, branching = rng.randint(2, 4), rng.randint(2, 3)
    return {f"v{i}": [f"v{i}", *[f"L{j}_{i // branching ** j}" for j in range(1, height - 1)], "*"]
            for i in range(6)}


RANDOM_COLUMNS = {"q1": "INTEGER", "q2": "VARCHAR", "s": "VARCHAR", "x": "INTEGER"}


def test_random_tables_with_nulls_match_the_reference(engine: Engine, tmp_path: Path) -> None:
    rng = random.Random(20240603)
    for index in range(6):
        rows = random_table(rng, nulls=True)
        hierarchy = random_hierarchy(rng)
        c = rng.choice([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(1, 2)])
        name = f"rt{index}"
        engine.create_table(name, RANDOM_COLUMNS, rows)
        path = write_hierarchy(tmp_path / f"{name}.csv", [";".join(labels) for labels in hierarchy.values()])
        result = sqlanon.check(engine.url, name, ["q1", "q2"], sensitive=["s", "x"], hierarchies={"s": path},
                               c=float(c))
        assert result.sensitive is not None
        for column, position in (("s", 2), ("x", 3)):
            got = result.sensitive[column]
            want = reference(rows, [0, 1], position, c, hierarchy if column == "s" else None, column == "x")
            context = (index, column, rows)
            assert got["distinct_l"] == want["distinct_l"], context
            assert got["entropy_l"] == pytest.approx(math.exp(want["entropy"]), rel=1e-11), context
            assert got["recursive_l"] == want["recursive_l"], context
            assert got["alpha"] == float(want["alpha"]), context
            assert got["t_equal"] == float(want["t_equal"]), context
            if column == "x":
                assert got["t_ordered"] == float(want["t_ordered"]), context
                assert got["e"] == want["e"], context
            else:
                assert got["t_hierarchical"] == float(want["t_hierarchical"]), context
        assert result.smallest_class == min(Counter((r[0], r[1]) for r in rows).values())
    assert leftover_tables(engine) == set()


# -- pycanon as an external oracle (no NULLs: pycanon's NULL handling is inconsistent) --------------------


@pytest.mark.slow
def test_pycanon_agrees_on_random_tables_without_nulls(engine: Engine) -> None:
    """pycanon 1.0.1 definitions compared where they match ours:

    - k_anonymity: smallest class; l_diversity: min distinct values per class (= distinct_l).
    - entropy_l_diversity returns int(min exp(entropy)), the integer part of our entropy_l (compared with a
      1e-9 tolerance at integers: pycanon truncates 1.9999999999999998 to 1).
    - alpha_k_anonymity: max share of the most frequent value = alpha.
    - t_closeness: a string column uses the equal distance (1/2 sum |p - q|), a numeric column the ordered
      distance over np.unique's ascending values (1/(m-1) sum |running sum|) - our t_equal and t_ordered;
      the equal distance of the numeric column is compared through its string copy.
    - Not compared: recursive_c_l_diversity returns c (not l) for l = distinct l and sorts the counts
      ascending, so its r_1 is the smallest count - a different quantity from Machanavajjhala's r_1 < c (r_l +
      ... + r_m). pycanon has no hierarchical distance, (k,e)-anonymity or delta-presence.
    """
    pytest.importorskip("pycanon", reason="the oracle extra: pip install '.[test,oracle]'")
    import pandas as pd
    from pycanon import anonymity

    rng = random.Random(7)
    qi = ["q1", "q2"]
    for index in range(10):
        rows = random_table(rng, nulls=False) * rng.randint(1, 5)
        if len({r[3] for r in rows}) < 2:  # pycanon's ordered distance divides by m - 1
            rows.append((1, "a", "v0", 1 + rows[0][3]))
        name = f"pc{index}"
        engine.create_table(name, RANDOM_COLUMNS, rows)
        result = sqlanon.check(engine.url, name, qi, sensitive=["s", "x"])
        assert result.sensitive is not None
        df = pd.DataFrame(rows, columns=list(RANDOM_COLUMNS))
        assert result.smallest_class == anonymity.k_anonymity(df, qi)
        for column in ("s", "x"):
            got = result.sensitive[column]
            assert got["distinct_l"] == anonymity.l_diversity(df, qi, [column])
            pycanon_entropy = anonymity.entropy_l_diversity(df, qi, [column])
            assert pycanon_entropy in {math.floor(got["entropy_l"] - 1e-9), math.floor(got["entropy_l"] + 1e-9)}
            alpha, k = anonymity.alpha_k_anonymity(df, qi, [column])
            assert (got["alpha"], result.smallest_class) == (pytest.approx(alpha, abs=1e-12), k)
        assert result.sensitive["s"]["t_equal"] == pytest.approx(anonymity.t_closeness(df, qi, ["s"]), abs=1e-9)
        assert result.sensitive["x"]["t_ordered"] == pytest.approx(anonymity.t_closeness(df, qi, ["x"]), abs=1e-9)
        as_text = df.assign(x=df["x"].astype(str))
        assert result.sensitive["x"]["t_equal"] == pytest.approx(
            anonymity.t_closeness(as_text, qi, ["x"]), abs=1e-9)
