"""``sqlanon check --box``: the boxes of a cloaking release (c released as [c_min, c_max)) in the classes, their
validity, the source values outside their box, and the per-request k of a request-mode release, which is not
k-anonymity of the table. Both engines; a space dimension (numbers) and a time dimension (TIMESTAMP)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from tests.helpers import Engine, invoke
from tests.unit.test_audit import check_json, expect_error, leftover_tables

pytestmark = pytest.mark.spark

NOTE = ("not k-anonymous as a table; every released box holds >= k subjects of the source "
        "(a request-mode release protects each request, not the table)")
BOXED = {"id": "INTEGER", "x_min": "DOUBLE PRECISION", "x_max": "DOUBLE PRECISION", "ts_min": "TIMESTAMP",
         "ts_max": "TIMESTAMP"}


def t(hour: int, minute: int) -> datetime:
    return datetime(2024, 1, 1, hour, minute)


def box(id_: int, x: tuple[float, float] | None, ts: tuple[datetime, datetime] | None) -> tuple[Any, ...]:
    return (id_, *(x or (None, None)), *(ts or (None, None)))


A = ((0.0, 4.0), (t(10, 0), t(10, 30)))     # holds positions 1, 2, 3 (subjects a, b, c)
B = ((0.0, 2.5), (t(10, 0), t(10, 30)))     # holds 1, 2 (a, b)
C = ((5.0, 8.0), (t(11, 0), t(11, 10)))     # holds 4, 5 (a, d; a, a in "same")


def make_positions(engine: Engine) -> None:
    columns = {"id": "INTEGER", "uid": "VARCHAR", "x": "DOUBLE PRECISION", "ts": "TIMESTAMP"}
    rows = [(1, "a", 1.0, t(10, 0)), (2, "b", 2.0, t(10, 10)), (3, "c", 3.0, t(10, 20)), (4, "a", 6.0, t(11, 0)),
            (5, "d", 7.0, t(11, 5)), (6, "e", None, None), (7, "f", None, None)]
    engine.create_table("pos", columns, rows)
    engine.create_table("same", columns, [(i, "a" if i == 5 else u, x, ts) for i, u, x, ts in rows])
    # Request mode: every request its own box holding >= 2 subjects; the classes are not all of size 2.
    engine.create_table("req", BOXED, [box(1, *A), box(2, *B), box(3, *A), box(4, *C), box(5, *C), box(6, None, None),
                                       box(7, None, None)])


def test_request_mode_release_is_not_table_k_anonymity(engine: Engine) -> None:
    make_positions(engine)
    args = ["--table", "req", "--box", "x,ts", "--k", "2", "--source", "pos", "--key", "id"]
    out = check_json(engine, *args, code=3)  # class B holds one row
    assert out["quasi_identifiers"] == [] and out["classes"] == 4 and out["classes_below_k"] == 1
    b = out["boxes"]
    assert (b["distinct_boxes"], b["invalid_boxes"], b["values_outside_box"]) == (4, 0, {"x": 0, "ts": 0})
    # Inside A: 3 records; B: 2; C: 2; the NULL box: the two NULL positions.
    assert (b["per_request_k"], b["boxes_below_k"], b["per_request_k_anonymous"]) == (2, 0, True)
    assert b["per_request_judged"] is False
    # Every box cell is a modification but the NULL ones: 10 of 7 rows x 2 columns.
    assert out["source_comparison"]["modified_cells"] == 10 and out["source_comparison"]["cells"] == 14
    text = invoke("check", "--db", engine.url, *args)
    assert text.exit_code == 3 and NOTE in text.stdout and "NOT k-anonymous" in text.stdout, text.output
    assert "over [x_min, x_max), [ts_min, ts_max)" in text.stdout
    judged = invoke("check", "--db", engine.url, *args, "--per-request")
    assert judged.exit_code == 0 and NOTE in judged.stdout and "--per-request: per-request k = 2 >= k=2" in \
        judged.stdout, judged.output
    assert check_json(engine, *args, "--per-request")["boxes"]["per_request_judged"] is True


def test_per_request_k_counts_subjects(engine: Engine) -> None:
    make_positions(engine)
    args = ["--table", "req", "--box", "x,ts", "--k", "2", "--source", "same", "--key", "id"]
    assert check_json(engine, *args, code=3)["boxes"]["per_request_k"] == 2  # records
    b = check_json(engine, *args, "--subject", "uid", code=3)["boxes"]
    assert (b["subject"], b["per_request_k"], b["boxes_below_k"]) == ("uid", 1, 1)  # C holds subject a twice
    text = invoke("check", "--db", engine.url, *args, "--subject", "uid", "--per-request")
    assert text.exit_code == 3 and "NOT k-anonymous per request" in text.stdout and NOTE not in text.stdout


def test_a_box_below_k_and_k_anonymous_boxes(engine: Engine) -> None:
    make_positions(engine)
    # A table version: boxes shared by >= 2 rows, but a box holding one source record (the k of requests).
    engine.create_table("tab", {**BOXED, "zone": "VARCHAR"}, [
        (*box(1, *A), "n"), (*box(2, *A), "n"), (*box(3, *A), "n"), (*box(4, (5.0, 6.5), C[1]), "s"),
        (*box(5, (5.0, 6.5), C[1]), "s"), (*box(6, None, None), "n"), (*box(7, None, None), "n")])
    engine.execute('CREATE TABLE "posz" AS SELECT pos.*, CASE WHEN id IN (4, 5) THEN \'s\' ELSE \'n\' END AS zone '
                   'FROM pos')
    args = ["--table", "tab", "--qi", "zone", "--box", "x,ts", "--k", "2", "--source", "posz", "--key", "id"]
    out = check_json(engine, *args, code=3)  # id 5 (x = 7) lies outside [5, 6.5): a violation
    assert out["k_anonymous"] is True and out["classes"] == 3
    assert out["source_comparison"]["by_attribute"]["zone"]["modified_cells"] == 0
    b = out["boxes"]
    assert b["values_outside_box"] == {"x": 1, "ts": 0}
    assert (b["per_request_k"], b["boxes_below_k"]) == (1, 1)  # [5, 6.5) x C holds position 4 alone
    text = invoke("check", "--db", engine.url, *args)
    assert text.exit_code == 3 and "VIOLATION: source values outside their released box: x = 1" in text.stdout
    assert NOTE not in text.stdout


def test_invalid_boxes_and_null_source_values_outside(engine: Engine) -> None:
    make_positions(engine)
    engine.create_table("bad", BOXED, [
        box(1, (1.0, 1.0), A[1]),           # empty: c_min = c_max
        (2, 0.0, 4.0, None, t(10, 30)),     # one NULL bound
        box(3, *A), box(4, *C), box(5, *C),
        box(6, (0.0, 1.0), None),           # a NULL x released in a box: outside
        box(7, None, None)])
    out = check_json(engine, "--table", "bad", "--box", "x,ts", "--source", "pos", "--key", "id", code=3)
    b = out["boxes"]
    assert b["invalid_boxes"] == 2
    # 1 lies in no empty box; the NULL ts of 2 in no half-NULL one, nor 6's NULL x in [0, 1).
    assert b["values_outside_box"] == {"x": 2, "ts": 1}
    assert b["per_request_k"] == 0  # the empty box holds nobody
    no_source = check_json(engine, "--table", "bad", "--box", "x,ts", code=3)
    assert no_source["boxes"] == {"columns": ["x", "ts"], "distinct_boxes": 6, "invalid_boxes": 2}
    assert "source_comparison" not in no_source
    text = invoke("check", "--db", engine.url, "--table", "bad", "--box", "x,ts")
    assert text.exit_code == 3 and "VIOLATION: 2 row(s) with an invalid box" in text.stdout


def test_hostile_box_column_names(engine: Engine) -> None:
    weird = 'x"y; z'
    engine.create_table("hs", {"id": "INTEGER", weird: "INTEGER"}, [(1, 1), (2, 2), (3, 9)])
    engine.create_table("hr", {"id": "INTEGER", f"{weird}_min": "INTEGER", f"{weird}_max": "INTEGER"},
                        [(1, 0, 5), (2, 0, 5), (3, 0, 5)])
    out = check_json(engine, "--table", "hr", "--box", weird, "--k", "3", "--source", "hs", "--key", "id",
                     "--per-request", code=3)
    assert out["k_anonymous"] is True and out["boxes"]["values_outside_box"] == {weird: 1}
    assert out["boxes"]["per_request_k"] == 2


# -- errors ------------------------------------------------------------------------------------------------------


def test_error_box_options(engine: Engine) -> None:
    make_positions(engine)
    base = ["--table", "req", "--k", "2"]
    expect_error(engine, [*base, "--box", "x,lat"], 2, "--box", "'lat_min', 'lat_max'", "columns:")
    expect_error(engine, [*base, "--box", "x,"], 2, "--box", "comma-separated")
    expect_error(engine, [*base, "--box", "x", "--qi", "x_min"], 2, "--box", "'x_min'", "--qi")
    expect_error(engine, [*base, "--box", "x,ts", "--subject", "uid"], 2, "--subject", "--source")
    expect_error(engine, [*base, "--box", "x,ts", "--source", "pos", "--key", "id", "--subject", "who"], 2,
                 "--subject", "'who'", "--source table")
    expect_error(engine, [*base, "--box", "x,ts", "--per-request"], 2, "--per-request", "--source/--key")
    expect_error(engine, ["--table", "req", "--box", "x,ts", "--source", "pos", "--key", "id", "--per-request"], 2,
                 "--per-request", "--k")
    expect_error(engine, [*base, "--box", "x,ts", "--masked-as-suppressed"], 2, "--masked-as-suppressed", "--box")
    expect_error(engine, [*base, "--box", "x,ts", "--source", "req", "--key", "id"], 2, "--box", "'x', 'ts'",
                 "--source table")
    expect_error(engine, base, 2, "--qi", "--box")
    assert leftover_tables(engine) == set()
