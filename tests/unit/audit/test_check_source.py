"""``sqlanon check --source/--key``: the modification rate, the WHD of quasi-identifiers given a hierarchy, the
information loss only for numeric quasi-identifiers, and the key's errors. Both engines; expected values worked
out by hand in the comments."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Engine, invoke
from tests.unit.test_audit import check_json, expect_error, leftover_tables, write_hierarchy

#: Runs on Spark too (the engine fixture's Spark instances).
pytestmark = pytest.mark.spark

ZIP = ["13053;1305*;130**;*", "13068;1306*;130**;*", "14853;1485*;148**;*", "14850;1485*;148**;*"]


def make_people(engine: Engine, tmp_path: Path, released: list[tuple[Any, ...]] | None = None) -> Path:
    engine.create_table("src", {"id": "INTEGER", "age": "INTEGER", "zip": "VARCHAR", "sex": "VARCHAR"}, [
        (1, 25, "13053", "M"), (2, 28, "13068", "F"), (3, 37, "14853", "M"), (4, 39, "14850", None)])
    engine.create_table("rel", {"id": "INTEGER", "age": "VARCHAR", "zip": "VARCHAR", "sex": "VARCHAR"}, released or [
        (1, "20-29", "130**", "M"), (2, "20-29", "130**", "F"), (3, "*", "*", "*"),
        (5, "30-39", "148**", None)])  # id 4 suppressed, id 5 matches no source row
    return write_hierarchy(tmp_path / "zip.csv", ZIP)


def test_modification_rate_and_whd_by_hand(engine: Engine, tmp_path: Path) -> None:
    zip_csv = make_people(engine, tmp_path)
    args = ["--table", "rel", "--qi", "age,zip,sex", "--source", "src", "--key", "id", "--hierarchy", f"zip={zip_csv}"]
    out = check_json(engine, *args)
    sc = out["source_comparison"]
    assert (sc["source_rows"], sc["matched_rows"], sc["missing_rows"], sc["unmatched_table_rows"]) == (4, 3, 1, 1)
    # age: 3 matched cells differ from the source, plus the missing row: 4. zip: the same. sex: 'M'/'F' kept,
    # '*' and the missing row: 2. 10 of 4 rows x 3 QIs.
    by = sc["by_attribute"]
    assert [by[q]["modified_cells"] for q in ("age", "zip", "sex")] == [4, 4, 2]
    assert sc["modified_cells"] == 10 and sc["cells"] == 12 and sc["modification_rate"] == 10 / 12
    assert by["sex"]["modification_rate"] == 0.5
    # zip, height 4 (uniform: 0, 1/3, 2/3, 1): two cells at level 2, '*' is the top (level 3), the missing row 1.
    assert by["zip"]["levels"] == [0, 0, 2, 1] and by["zip"]["masked_cells"] == 0
    assert by["zip"]["values_not_generalized"] == 0 and by["zip"]["modified_by_level"] == 4
    assert sc["whd_distortion"] == float(Fraction(10, 3)) and sc["whd"] == float(Fraction(10, 12))
    assert by["zip"]["whd"] == sc["whd"] and "whd" not in by["age"]
    # Not every QI is numeric: no information loss, and no error either.
    assert "information_loss" not in out and "not numeric" in sc["information_loss_omitted"]
    # Height weights (beta 1): edges 1/3, 1/2, 1; level 2 costs (1/3 + 1/2) / (11/6) = 5/11.
    height = check_json(engine, *args, "--whd-weights", "height", "--whd-beta", "1")["source_comparison"]
    assert height["whd_distortion"] == float(2 * Fraction(5, 11) + 2) and height["whd_weights"] == "height"
    steep = check_json(engine, *args, "--whd-weights", "height", "--whd-beta", "2")["source_comparison"]
    assert steep["whd"] < height["whd"] < sc["whd"]  # steps near the leaves weigh less the larger beta

    text = invoke("check", "--db", engine.url, *args)
    assert text.exit_code == 0, text.output
    for fragment in ("against the source", "3 matched, 1 missing from the table",
                     "modification rate: 0.833333 (10 of 12 cells): age = 1, zip = 1, sex = 0.5",
                     "WHD (uniform weights): 0.833333 per cell", "1 row(s) of the table match no source row",
                     "information loss: omitted (it compares numbers; not numeric in both tables: age, zip, sex)"):
        assert fragment in text.stdout, text.stdout
    assert leftover_tables(engine) == set()


def test_numbers_compare_as_numbers_else_as_text(engine: Engine) -> None:
    engine.create_table("nsrc", {"id": "INTEGER", "age": "INTEGER", "w": "DOUBLE PRECISION"},
                        [(1, 25, None), (2, 30, 1.5), (3, 40, 2.0)])
    engine.create_table("nrel", {"id": "INTEGER", "age": "DOUBLE PRECISION", "w": "DOUBLE PRECISION"},
                        [(1, 25.0, None), (2, 31.0, 1.5), (3, 40.0, None)])
    engine.create_table("trel", {"id": "INTEGER", "age": "VARCHAR", "w": "DOUBLE PRECISION"},
                        [(1, "25.0", None), (2, "30", 1.5), (3, "40", 2.0)])
    out = check_json(engine, "--table", "nrel", "--qi", "age,w", "--source", "nsrc", "--key", "id")
    sc = out["source_comparison"]
    # 25 = 25.0 as numbers; NULL vs NULL is no modification; 30 -> 31 and 2.0 -> NULL are.
    assert sc["by_attribute"]["age"]["modified_cells"] == 1 and sc["by_attribute"]["w"]["modified_cells"] == 1
    assert sc["modification_rate"] == 2 / 6
    assert out["information_loss"]["matched_rows"] == 3 and "information_loss_omitted" not in sc
    # A text column is compared as text: '25.0' is not '25'.
    text = check_json(engine, "--table", "trel", "--qi", "age,w", "--source", "nsrc", "--key", "id")
    assert text["source_comparison"]["by_attribute"]["age"]["modified_cells"] == 1
    assert "information_loss" not in text


def test_a_label_that_does_not_generalize_its_value_is_a_violation(engine: Engine, tmp_path: Path) -> None:
    make_people(engine, tmp_path, released=[
        (1, "20-29", "139**", "M"),     # 139** is no label of 13053: not generalized
        (2, "20-29", "*", "F"),         # '*' is no label here (the top is ANY): a masked cell, 1
        (3, "30-39", "14853", "M"),     # level 0
        (4, "30-39", "ANY", None)])     # the top
    hierarchy = write_hierarchy(tmp_path / "zip_any.csv", [line.replace(";*", ";ANY") for line in ZIP])
    args = ["--table", "rel", "--qi", "age,zip,sex", "--source", "src", "--key", "id", "--hierarchy",
            f"zip={hierarchy}"]
    out = check_json(engine, *args, code=3)
    by = out["source_comparison"]["by_attribute"]["zip"]
    assert by["values_not_generalized"] == 1 and out["source_comparison"]["values_not_generalized"] == 1
    assert by["levels"] == [1, 0, 0, 1] and by["masked_cells"] == 1
    assert by["whd_distortion"] == 3.0  # top 1 + masked 1 + the violation 1
    text = invoke("check", "--db", engine.url, *args)
    assert text.exit_code == 3 and "VIOLATION" in text.stdout and "zip = 1" in text.stdout, text.output


def test_null_source_values_with_a_hierarchy(engine: Engine, tmp_path: Path) -> None:
    """A NULL source value is NULL below the top: NULL is its level 0, the top label its top level."""
    engine.create_table("s", {"id": "INTEGER", "zip": "VARCHAR"}, [(1, None), (2, None), (3, "13053")])
    engine.create_table("r", {"id": "INTEGER", "zip": "VARCHAR"}, [(1, None), (2, "*"), (3, "1305*")])
    hierarchy = write_hierarchy(tmp_path / "zip.csv", ZIP)
    out = check_json(engine, "--table", "r", "--qi", "zip", "--source", "s", "--key", "id", "--hierarchy",
                     f"zip={hierarchy}")
    by = out["source_comparison"]["by_attribute"]["zip"]
    assert by["levels"] == [1, 1, 0, 1] and by["values_not_generalized"] == 0
    assert by["modified_cells"] == 2  # NULL vs NULL is not a modification


def test_a_qi_hierarchy_is_validated_against_the_source(engine: Engine, tmp_path: Path) -> None:
    make_people(engine, tmp_path)
    partial = write_hierarchy(tmp_path / "partial.csv", ZIP[:3])
    expect_error(engine, ["--table", "rel", "--qi", "zip", "--source", "src", "--key", "id", "--hierarchy",
                          f"zip={partial}"], 2, f"--hierarchy zip={partial}", "'14850'", "missing")
    forest = write_hierarchy(tmp_path / "forest.csv", [line.replace(";*", ";X") if "148" in line else line
                                                       for line in ZIP])
    expect_error(engine, ["--table", "rel", "--qi", "zip", "--source", "src", "--key", "id", "--hierarchy",
                          f"zip={forest}"], 2, "WHD needs a single top value")
    assert leftover_tables(engine) == set()


# -- errors ------------------------------------------------------------------------------------------------------


def test_error_hierarchy_of_a_qi_needs_the_source(engine: Engine, tmp_path: Path) -> None:
    hierarchy = make_people(engine, tmp_path)
    expect_error(engine, ["--table", "rel", "--qi", "zip", "--hierarchy", f"zip={hierarchy}"], 2,
                 "--hierarchy", "'zip' is a quasi-identifier", "--source and --key")
    expect_error(engine, ["--table", "rel", "--qi", "zip", "--hierarchy", f"age={hierarchy}"], 2,
                 "--hierarchy", "not one of the --sensitive attributes", "nor a --qi column")


def test_error_whd_options(engine: Engine, tmp_path: Path) -> None:
    make_people(engine, tmp_path)
    base = ["--table", "rel", "--qi", "zip", "--source", "src", "--key", "id"]
    expect_error(engine, [*base, "--whd-weights", "log"], 2, "--whd-weights", "uniform or height", "'log'")
    expect_error(engine, [*base, "--whd-weights", "height", "--whd-beta", "0.5"], 2, "--whd-beta", ">= 1")
    expect_error(engine, [*base, "--whd-beta", "steep"], 2, "--whd-beta", "'steep'")


def test_error_key_that_does_not_identify_the_rows(engine: Engine, tmp_path: Path) -> None:
    make_people(engine, tmp_path)
    engine.create_table("dup", {"id": "INTEGER", "zip": "VARCHAR"}, [(1, "a"), (1, "b"), (2, "c")])
    engine.create_table("nullkey", {"id": "INTEGER", "zip": "VARCHAR"}, [(1, "a"), (None, "b")])
    expect_error(engine, ["--table", "rel", "--qi", "zip", "--source", "dup", "--key", "id"], 2,
                 "--key", "'id' does not identify the rows of the --source table", "1 value(s)", "'1'")
    expect_error(engine, ["--table", "dup", "--qi", "zip", "--source", "src", "--key", "id"], 2,
                 "--key", "does not identify the rows of the --table table")
    expect_error(engine, ["--table", "rel", "--qi", "zip", "--source", "nullkey", "--key", "id"], 2,
                 "--key", "1 row(s) of the --source table", "NULL 'id'")
    expect_error(engine, ["--table", "rel", "--qi", "zip", "--source", "src", "--key", "sex"], 2,
                 "--key", "does not identify")
    assert leftover_tables(engine) == set()
