"""Cloaking (``method: cloaking``): boxes in SQL against the plain-Python oracle (``tests/oracle_cloaking.py``)
in table and request mode on both engines; the released table (k-anonymous in table mode, each box holding k
subjects of the source in request mode, every value inside its box); WHD and modification rate; the
verifiers handed tables that break their claims; and every error path."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.config import parse_config
from sqlanon.methods.cloaking.boxes import default_region
from sqlanon.metrics.whd import cumulative
from tests.bad_input import config_file, expect_error
from tests.helpers import Engine
from tests.oracle_cloaking import Dim, NoRelease, Record, released_box, settle
from tests.strategies import SETTINGS, fresh
from tests.unit.output.test_verification import tampering

# Every test runs on Spark too (epoch microseconds by unix_micros there: sql/spark/macros/cloaking_time.sql.j2).
pytestmark = pytest.mark.spark

EPOCH = datetime(1970, 1, 1)
T0 = datetime(2024, 3, 1)
COLUMNS = {"id": "INTEGER", "usr": "INTEGER", "lat": "DOUBLE PRECISION", "lon": "DOUBLE PRECISION",
           "ts": "TIMESTAMP", "kind": "INTEGER"}


def us(ts: datetime) -> float:
    return float((ts - EPOCH) // timedelta(microseconds=1))


@st.composite
def point_tables(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 40))
    clustered = draw(st.booleans())
    spread = st.one_of(st.integers(0, 7).map(lambda v: v * 0.375),
                       st.floats(0, 9.5, allow_nan=False, allow_subnormal=False))
    coordinate = st.sampled_from([1.0, 1.1, 5.5]) if clustered else spread
    nullable = draw(st.booleans())
    value = st.one_of(st.none(), coordinate) if nullable else coordinate
    rows = []
    for i in range(n):
        seconds = draw(st.integers(0, 86_399))
        rows.append((i, draw(st.integers(0, 5)), draw(value), draw(value),
                     draw(st.one_of(st.none(), st.just(T0 + timedelta(seconds=seconds, microseconds=7 * i)))
                          if nullable else st.just(T0 + timedelta(seconds=seconds, microseconds=7 * i))),
                     draw(st.integers(0, 1))))
    return {
        "rows": rows,
        "k": draw(st.integers(1, min(4, n))),
        "limit": draw(st.integers(0, 6)),
        "space": draw(st.sampled_from([["lat", "lon"], ["lat"], []])),
        "time": draw(st.booleans()),
        "exact": draw(st.booleans()),
        "subject": draw(st.booleans()),
        "levels": (draw(st.integers(1, 5)), draw(st.integers(1, 5))),
    }


def cloak_config(engine: Engine, table: str, case: dict[str, Any], **settings_: Any) -> Any:
    attributes: dict[str, Any] = {"id": {"role": "insensitive"}, "usr": {"role": "identifier"}}
    for c in ("lat", "lon", "ts", "kind"):
        attributes[c] = {"role": "ignore"}
    for c in case["space"]:
        attributes[c] = {"role": "quasi_identifier", "cloak": "space"}
    if case["time"] or not case["space"]:
        attributes["ts"] = {"role": "quasi_identifier", "cloak": "time"}
    if case["exact"]:
        attributes["kind"] = {"role": "quasi_identifier"}
    return parse_config({
        "method": "cloaking",
        "source": {"url": engine.url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace"},
        "attributes": attributes,
        "privacy": {"k": case["k"], "suppression_limit": case["limit"]},
        "cloaking": {"space_levels": case["levels"][0], "time_levels": case["levels"][1],
                     **({"subject": "usr"} if case["subject"] else {}), **settings_},
        "history": {"enabled": False},
    })


def oracle(case: dict[str, Any], cfg: Any, window: float | None = None) -> tuple[list[Dim], dict[int, Record]]:
    columns = cfg.cloaked
    index = {"lat": 2, "lon": 3, "ts": 4}
    values = [[(us(r[index[c]]) if c == "ts" else r[index[c]]) if r[index[c]] is not None else None
               for c in columns] for r in case["rows"]]
    dims = []
    for j, c in enumerate(columns):
        present = [v[j] for v in values if v[j] is not None]
        x0, w = default_region(min(present, default=None), max(present, default=None), c == "ts")
        dims.append(Dim(x0=x0, w=w, integral=c == "ts", time=c == "ts"))
    roots = sorted({r[5] for r in case["rows"]}) if case["exact"] else [None]
    records = {r[0]: Record(values=tuple(v), root=roots.index(r[5]) if case["exact"] else 0,
                            subject=r[1] if case["subject"] else None)
               for r, v in zip(case["rows"], values, strict=True)}
    time_levels = case["levels"][1]
    if "ts" in columns:  # no interval below a microsecond
        time_levels = min(time_levels, int(dims[-1].w).bit_length() - 1)
    settle(list(records.values()), dims, case["k"], subject=case["subject"], budget=case["limit"],
           space_levels=case["levels"][0], time_levels=time_levels, request=cfg.cloaking.mode == "request",
           window=window)
    return dims, records


def written(engine: Engine, cfg: Any) -> dict[int, tuple]:
    cols = ", ".join(f'"{c}_min", "{c}_max"' for c in cfg.cloaked)
    out = {}
    for row in engine.execute(f'SELECT id, {cols} FROM "{cfg.output.table}"'):
        box = []
        for j, c in enumerate(cfg.cloaked):
            lo, hi = row[1 + 2 * j], row[2 + 2 * j]
            if lo is None:
                box.append(None)
            else:
                box.append((us(lo), us(hi)) if c == "ts" else (lo, hi))
        out[row[0]] = tuple(box)
    return out


def expected_metrics(case: dict[str, Any], cfg: Any, dims: list[Dim], records: dict[int, Record]) -> dict[str, float]:
    q = len(cfg.quasi_identifiers)
    n = len(records)
    distortion = modified = 0.0
    for r in records.values():
        if r.st == 2:
            distortion += q
            modified += q
            continue
        for d, x in zip(dims, r.values, strict=True):
            if x is None:
                continue
            modified += 1
            if d.time and cfg.cloaking.mode == "request":
                distortion += float(cumulative(3)[1])
            else:
                levels = case["levels"][1] if d.time else case["levels"][0]
                distortion += float(cumulative(levels + 2)[levels + 1 - (r.lt if d.time else r.ls)])
    return {"whd": distortion / (n * q), "modification_rate": modified / (n * q)}


@settings(max_examples=40, **SETTINGS)
@given(case=point_tables())
def test_table_mode_equals_the_oracle_and_is_k_anonymous(engine: Engine, case: dict[str, Any]) -> None:
    table = fresh("cl")
    engine.create_table(table, COLUMNS, case["rows"])
    cfg = cloak_config(engine, table, case)
    try:
        dims, records = oracle(case, cfg)
    except NoRelease:
        with pytest.raises(sqlanon.NoSolutionError):
            sqlanon.anonymize(cfg)
        return
    result = sqlanon.anonymize(cfg)
    assert result.verified is True, (result.verification, case["rows"][:3])
    boxes = written(engine, cfg)
    expected = {i: released_box(r, dims) for i, r in records.items() if r.st == 1}
    assert boxes == expected
    assert result.suppressed_rows == len(case["rows"]) - len(boxes) <= case["limit"]
    # Independently: every class (box and unchanged quasi-identifiers) holds k records, every value its box.
    classes: dict[tuple, set] = {}
    by_id = {r[0]: r for r in case["rows"]}
    for i, box in boxes.items():
        key = (box, by_id[i][5] if case["exact"] else None)
        classes.setdefault(key, set()).add(by_id[i][1] if case["subject"] else i)
        for c, interval in zip(cfg.cloaked, box, strict=True):
            value = by_id[i][{"lat": 2, "lon": 3, "ts": 4}[c]]
            if interval is None:
                assert value is None
            else:
                v = us(value) if c == "ts" else value
                assert interval[0] <= v < interval[1]
    assert all(len(members) >= case["k"] for members in classes.values())
    metrics = expected_metrics(case, cfg, dims, records)
    assert result.metrics["whd"] == pytest.approx(metrics["whd"], rel=1e-12)
    assert result.metrics["modification_rate"] == pytest.approx(metrics["modification_rate"], rel=1e-12)


@settings(max_examples=25, **SETTINGS)
@given(case=point_tables(), window=st.sampled_from([600, 3600, 86_400]))
def test_request_mode_equals_the_oracle_and_every_box_holds_k(engine: Engine, case: dict[str, Any],
                                                              window: int) -> None:
    case = {**case, "space": case["space"] or ["lat", "lon"]}
    table = fresh("clr")
    engine.create_table(table, COLUMNS, case["rows"])
    extra = {"mode": "request", **({"window": window} if case["time"] else {})}
    cfg = cloak_config(engine, table, case, **extra)
    try:
        dims, records = oracle(case, cfg, window=window * 1e6 if case["time"] else None)
    except NoRelease:
        with pytest.raises(sqlanon.NoSolutionError):
            sqlanon.anonymize(cfg)
        return
    result = sqlanon.anonymize(cfg)
    assert result.verified is True and result.verification["models_checked"] == ["k per request"]
    boxes = written(engine, cfg)
    expected = {i: released_box(r, dims, window * 1e6 if case["time"] else None)
                for i, r in records.items() if r.st == 1}
    assert boxes == expected
    # Each request's box holds k records (subjects) of the source, counted here from the source's rows.
    index = {"lat": 2, "lon": 3, "ts": 4}
    for box in set(boxes.values()):
        inside = set()
        for row in case["rows"]:
            ok = True
            for c, interval in zip(cfg.cloaked, box, strict=True):
                value = row[index[c]]
                if interval is None:
                    ok = ok and value is None
                else:
                    ok = ok and value is not None and interval[0] <= (us(value) if c == "ts" else value) < interval[1]
            if ok:
                inside.add(row[1] if case["subject"] else row[0])
        assert len(inside) >= case["k"]
    metrics = expected_metrics(case, cfg, dims, records)
    assert result.metrics["whd"] == pytest.approx(metrics["whd"], rel=1e-12)


def _grid(engine: Engine, name: str) -> None:
    """Four points in each corner of the unit square and a fifth at (0.3, 0.3), one hour apart."""
    rows, i = [], 0
    for x, y in ((0.1, 0.1), (0.1, 0.9), (0.9, 0.1), (0.9, 0.9), (0.3, 0.3)):
        for j in range(4 if (x, y) != (0.3, 0.3) else 1):
            rows.append((i, i, x + j / 100, y, T0 + timedelta(hours=i), 0))
            i += 1
    engine.create_table(name, COLUMNS, rows)


def _grid_config(engine: Engine, name: str, **cloaking: Any) -> dict[str, Any]:
    return {
        "method": "cloaking",
        "source": {"url": engine.url, "table": name},
        "output": {"table": f"{name}_out", "if_exists": "replace"},
        "attributes": {"id": {"role": "insensitive"}, "usr": {"role": "identifier"},
                       "lat": {"role": "quasi_identifier", "cloak": "space"},
                       "lon": {"role": "quasi_identifier", "cloak": "space"},
                       "ts": {"role": "ignore"}, "kind": {"role": "ignore"}},
        "privacy": {"k": 4},
        "cloaking": {"region": {"lat": [0, 1], "lon": [0, 1]}, **cloaking},
        "history": {"enabled": False},
    }


def test_request_mode_is_not_a_k_anonymous_table_and_says_so(both: Engine) -> None:
    """The survey's trap: per request, the deepest cell with k subjects; the records left at a level share their
    box with fewer than k (here the corner near (0, 0) goes down a level, the fifth point of its quadrant stays)."""
    _grid(both, "grid")
    result = sqlanon.anonymize(parse_config(_grid_config(both, "grid", mode="request")))
    assert result.verified is True
    classes = both.execute('SELECT count(*) FROM "grid_out" GROUP BY lat_min, lat_max, lon_min, lon_max ORDER BY 1')
    assert [c[0] for c in classes] == [1, 4, 4, 4, 4]
    report = sqlanon.check(both.url, "grid_out", ["lat_min", "lat_max", "lon_min", "lon_max"], k=4)
    assert report.k_anonymous is False
    lines = sqlanon.methods.method_class("cloaking").summary_lines(result)
    assert any("not k-anonymous" in line for line in lines)
    # Table mode on the same data: the quadrant near (0, 0) cannot split without leaving the fifth point alone.
    table = sqlanon.anonymize(parse_config(_grid_config(both, "grid")))
    assert table.verified is True and table.suppressed_rows == 0
    classes = both.execute('SELECT count(*) FROM "grid_out" GROUP BY lat_min, lat_max, lon_min, lon_max ORDER BY 1')
    assert [c[0] for c in classes] == [4, 4, 4, 5]


def test_table_mode_suppresses_a_lone_point_within_the_limit(both: Engine) -> None:
    _grid(both, "grid")
    cfg = _grid_config(both, "grid")
    cfg["privacy"]["suppression_limit"] = 1
    result = sqlanon.anonymize(parse_config(cfg))
    assert result.suppressed_rows == 1 and result.verified is True
    # The fifth point suppressed, the corner near (0, 0) goes down to a box of a quarter of the quadrant.
    rows = both.execute('SELECT lat_max - lat_min, count(*) FROM "grid_out" GROUP BY lat_min, lat_max, lon_min, '
                        'lon_max ORDER BY 1')
    assert rows[0][1] == 4 and rows[0][0] < 0.5 and [n for _, n in rows] == [4, 4, 4, 4]


def test_subjects_are_counted_and_reverified(both: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """k subjects: one person's four records are one subject; the re-check reads the source's subjects, and a
    tampered box (widened to take in records of another) fails it."""
    rows = [(i, i // 4, 0.1 + (i // 4) / 10 + (i % 4) / 100, 0.1, T0, 0) for i in range(8)]
    rows += [(8 + i, 2 + i, 0.9, 0.9, T0, 0) for i in range(2)]
    both.create_table("subj", COLUMNS, rows)
    cfg = _grid_config(both, "subj", subject="usr")
    cfg["privacy"]["k"] = 2
    result = sqlanon.anonymize(parse_config(cfg))
    assert result.verified is True and result.verification["fewest_inside"] >= 2
    honest = both.execute('SELECT count(*) FROM "subj_out" GROUP BY lat_min, lon_min ORDER BY 1')
    assert [n for (n,) in honest] == [2, 8]
    with tampering(monkeypatch, "UPDATE {out} SET lat_max = 0.5 WHERE lat_min >= 0.5"):
        broken = sqlanon.anonymize(parse_config(cfg))
    assert broken.verified is False and broken.verification["models_verified"] is False


def test_the_shared_verifier_catches_a_box_below_k(both: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    _grid(both, "grid")
    cfg = parse_config(_grid_config(both, "grid"))
    with tampering(monkeypatch, "UPDATE {out} SET lat_min = -1 WHERE id = 0"):
        result = sqlanon.anonymize(cfg)
    assert result.verified is False and "smaller than k" in result.verification["reason"]


def test_request_verifier_catches_a_box_holding_fewer_than_k(both: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    _grid(both, "grid")
    cfg = parse_config(_grid_config(both, "grid", mode="request"))
    tamper = "UPDATE {out} SET lat_min = 0.1, lat_max = 0.105, lon_min = 0.1, lon_max = 0.105 WHERE id = 0"
    with tampering(monkeypatch, tamper):
        result = sqlanon.anonymize(cfg)
    assert result.verified is False and result.verification["boxes_below_k"] == 1


@pytest.mark.parametrize("ts_type", ["TIMESTAMP", "TIMESTAMP_NTZ"])
def test_time_is_released_as_timestamps_and_other_columns_unchanged(both: Engine, ts_type: str) -> None:
    """On Spark both its TIMESTAMP (an instant) and TIMESTAMP_NTZ (a wall-clock time, read in the session's
    zone) are times; the other engines have the second under the first's name."""
    if ts_type == "TIMESTAMP_NTZ" and both.name != "spark":
        pytest.skip("TIMESTAMP_NTZ is Spark's; the other engines' TIMESTAMP is without time zone already")
    rows = [(i, i, 0.5, 0.5, T0 + timedelta(minutes=i), i % 2) for i in range(12)]
    both.create_table("tt", {**COLUMNS, "ts": ts_type}, rows)
    if both.name == "spark":
        assert both.execute("SELECT typeof(ts) FROM tt LIMIT 1") == [(ts_type.lower(),)]
    cfg = {
        "method": "cloaking", "source": {"url": both.url, "table": "tt"},
        "output": {"table": "tt_out", "if_exists": "replace"},
        "attributes": {"id": {"role": "insensitive"}, "usr": {"role": "identifier"},
                       "lat": {"role": "ignore"}, "lon": {"role": "ignore"},
                       "ts": {"role": "quasi_identifier", "cloak": "time"}, "kind": {"role": "quasi_identifier"}},
        "privacy": {"k": 3},
        "cloaking": {"region": {"ts": ["2024-03-01T00:00:00", "2024-03-01T00:16:00"]}},
        "history": {"enabled": False},
    }
    result = sqlanon.anonymize(parse_config(cfg))
    assert result.verified is True
    rows_out = both.execute('SELECT kind, ts_min, ts_max, count(*) FROM "tt_out" GROUP BY 1, 2, 3 ORDER BY 1, 2')
    # Per kind 6 records over minutes 0..11: the 16 minutes halved to 8 and 4 minutes.
    assert rows_out == [(0, T0, T0 + timedelta(minutes=8), 4), (0, T0 + timedelta(minutes=8),
                                                                  T0 + timedelta(minutes=16), 2)] \
        or all(n >= 3 for *_, n in rows_out)
    assert all(n >= 3 for *_, n in rows_out)
    assert both.execute('SELECT count(*) FROM "tt_out" WHERE ts_min > ts_max') == [(0,)]
    assert result.metrics["mean_interval"] > 0


# -- errors -------------------------------------------------------------------------------------------------


def _cli_config(url: str, **changes: Any) -> dict[str, Any]:
    base = {
        "method": "cloaking",
        "source": {"url": url, "table": "pts"},
        "output": {"table": "pts_out"},
        "attributes": {"id": {"role": "insensitive"}, "usr": {"role": "identifier"},
                       "lat": {"role": "quasi_identifier", "cloak": "space"},
                       "lon": {"role": "quasi_identifier", "cloak": "space"},
                       "ts": {"role": "quasi_identifier", "cloak": "time"}, "kind": {"role": "insensitive"}},
        "privacy": {"k": 2},
        "history": {"enabled": False},
    }
    for key, value in changes.items():
        target = base
        *path, last = key.split(".")
        for part in path:
            target = target.setdefault(part, {})
        target[last] = value
    return base


@pytest.mark.parametrize(("changes", "fragments"), [
    ({"method": "generalization"}, ["attributes.lat.cloak", "method cloaking only"]),
    ({"method": "microaggregation"}, ["attributes.lat.cloak", "method cloaking only"]),
    ({"cloaking.region": {"kind": [0, 1]}}, ["cloaking.region.kind", "not a cloaked attribute"]),
    ({"cloaking.region": {"lat": [1, 0]}}, ["cloaking.region.lat", "low end must be below"]),
    ({"cloaking.mode": "request"}, ["cloaking.window", "request mode needs"]),
    ({"cloaking.window": 60}, ["cloaking.window", "mode: request only"]),
    ({"attributes.kind": {"role": "quasi_identifier", "cloak": "space"}}, ["one or two columns"]),
    ({"attributes.kind": {"role": "quasi_identifier", "cloak": "time"}}, ["cloak: time takes one column"]),
    ({"attributes.kind": {"role": "insensitive", "cloak": "time"}}, ["cloak applies to quasi_identifier only"]),
    ({"output.suppressed_rows": "mask"}, ["output.suppressed_rows", "use remove"]),
    ({"attributes.kind": {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 2}}]}},
     ["attributes.kind.models", "not available with method cloaking"]),
    ({"attributes.kind": {"role": "quasi_identifier", "hierarchy": {"mask": {"length": 1}}}},
     ["attributes.kind", "uses no hierarchy"]),
    ({"cloaking.subject": "lat"}, ["cloaking.subject", "is a quasi-identifier"]),
    ({"cloaking.mode": "sideways"}, ["cloaking.mode"]),
])
def test_config_errors_name_the_key(tmp_path, changes: dict[str, Any], fragments: list[str]) -> None:
    path = config_file(tmp_path, _cli_config("duckdb:///x.duckdb", **changes))
    expect_error(["validate", path], 2, str(path), *fragments)


def _points(engine: Engine, lat_min: bool) -> None:
    # Spark's only zoned type is its TIMESTAMP (an instant, cloaked as any timestamp)
    zone = "TIMESTAMP" if engine.name == "spark" else "TIMESTAMP WITH TIME ZONE"
    columns = {**COLUMNS, "note": "VARCHAR", "zone": zone, **({"lat_min": "INTEGER"} if lat_min else {})}
    engine.create_table("pts", columns, [(i, i, i / 10, i / 10, T0 + timedelta(hours=i), 0, "x", None)
                                         + ((None,) if lat_min else ()) for i in range(6)])


@pytest.mark.parametrize(("changes", "code", "fragments"), [
    ({"attributes.note": {"role": "quasi_identifier", "cloak": "space"}, "attributes.lon": {"role": "ignore"}},
     2, ["attributes.note", "needs a numeric column", "'note'"]),
    ({"attributes.zone": {"role": "quasi_identifier", "cloak": "time"}, "attributes.ts": {"role": "ignore"}},
     2, ["attributes.zone", "cast it to a timestamp in UTC"]),
    ({"attributes.ts": {"role": "quasi_identifier", "cloak": "space"}, "attributes.lon": {"role": "ignore"}},
     2, ["attributes.ts", "use cloak: time"]),
    ({"cloaking.subject": "nobody"}, 2, ["cloaking.subject", "no column 'nobody'"]),
    ({"attributes.lat_min": {"role": "insensitive"}}, 2, ["attributes.lat", "lat_min"]),
    ({"cloaking.region": {"lat": [0, 0.3]}}, 2, ["cloaking.region.lat", "outside the region"]),
    ({"attributes.id": {"role": "quasi_identifier"}}, 3,
     ["6 records are in combinations of id", "fewer than k=2", "suppression limit is 0"]),
    ({"attributes.kind": {"role": "quasi_identifier"}, "privacy.k": 4}, None, []),
])
def test_data_errors_name_the_key(engine: Engine, tmp_path, changes: dict[str, Any], code: int | None,
                                  fragments: list[str]) -> None:
    if engine.name == "spark" and "attributes.zone" in changes:
        pytest.skip("Spark has no timestamp with time zone to refuse: its TIMESTAMP is an instant")
    _points(engine, "attributes.lat_min" in changes)
    cfg = _cli_config(engine.url, **changes)
    cfg["attributes"].setdefault("note", {"role": "ignore"})
    cfg["attributes"].setdefault("zone", {"role": "ignore"})
    if code is None:
        # 6 records of one kind: one root of 6 >= 4 records; fine. (A root below k is the 3 above.)
        assert sqlanon.anonymize(parse_config(cfg)).verified is True
        return
    path = config_file(tmp_path, cfg)
    expect_error(["anonymize", path], code, *fragments)


def test_the_report_shows_the_boxes(duckdb_engine: Engine, tmp_path) -> None:
    _grid(duckdb_engine, "grid")
    cfg = _grid_config(duckdb_engine, "grid")
    cfg["output"]["table"] = "grid_k4"
    path = config_file(tmp_path, cfg)
    from tests.helpers import invoke

    out = invoke("anonymize", path, "--report", tmp_path / "r.html", "--report", tmp_path / "r.json")
    assert out.exit_code == 0, out.output
    html = (tmp_path / "r.html").read_text()
    assert "Cloaking" in html and "top-down splits" in html


def test_check_verifies_the_boxes_of_both_modes_against_the_source(both: Engine) -> None:
    """``sqlanon check --box`` on real releases: every source value inside its box; table mode k-anonymous;
    request mode not as a table, but every request's box holds k subjects (``--per-request``)."""
    _grid(both, "grid")
    for mode in ("table", "request"):
        cfg = _grid_config(both, "grid", mode=mode, subject="usr")
        cfg["output"]["table"] = f"grid_{mode}"
        assert sqlanon.anonymize(parse_config(cfg)).verified is True
        report = sqlanon.check(both.url, f"grid_{mode}", [], k=4, boxes="lat,lon", source="grid", key="id",
                               subject="usr", per_request=mode == "request")
        assert report.boxes["values_outside_box"] == {"lat": 0, "lon": 0}
        assert report.boxes["per_request_k"] >= 4
        assert report.k_anonymous is (mode == "table")
        assert report.passed
        if mode == "request":
            plain = sqlanon.check(both.url, "grid_request", [], k=4, boxes="lat,lon", source="grid", key="id")
            assert plain.k_anonymous is False and not plain.passed


@pytest.mark.parametrize("tamper", [
    # Windows stay disjoint (the records are placed in their window first): a box moved where nobody is.
    "UPDATE {out} SET lat_min = 0.5, lat_max = 0.51 WHERE id = 0",
    # A window widened so that two overlap (the plain range join serves): the same box moved too.
    "UPDATE {out} SET lat_min = 0.5, lat_max = 0.51, ts_max = ts_max + INTERVAL '2 hours' WHERE id = 0",
])
def test_request_verifier_with_time_windows(both: Engine, monkeypatch: pytest.MonkeyPatch, tamper: str) -> None:
    _grid(both, "grid")
    cfg = _grid_config(both, "grid", mode="request", window=86_400)
    cfg["attributes"]["ts"] = {"role": "quasi_identifier", "cloak": "time"}
    honest = sqlanon.anonymize(parse_config(cfg))
    assert honest.verified is True and honest.verification["fewest_inside"] >= 4
    with tampering(monkeypatch, tamper):
        broken = sqlanon.anonymize(parse_config(cfg))
    assert broken.verified is False and broken.verification["boxes_below_k"] == 1


def test_check_per_request_with_time_windows(both: Engine) -> None:
    """``check --per-request`` on a request-mode release with time windows (each source record placed in its
    window first), then on the same table with one box moved where nobody is."""
    _grid(both, "grid")
    cfg = _grid_config(both, "grid", mode="request", window=86_400, subject="usr")
    cfg["attributes"]["ts"] = {"role": "quasi_identifier", "cloak": "time"}
    assert sqlanon.anonymize(parse_config(cfg)).verified is True

    def check() -> Any:
        return sqlanon.check(both.url, "grid_out", [], k=4, boxes="lat,lon,ts", source="grid", key="id",
                             subject="usr", per_request=True)

    honest = check()
    assert honest.passed and honest.boxes["per_request_k"] >= 4
    both.execute('UPDATE "grid_out" SET lat_min = 0.5, lat_max = 0.51 WHERE id = 0')
    moved = check()
    assert not moved.passed and moved.boxes["per_request_k"] == 0
    assert moved.boxes["values_outside_box"]["lat"] == 1
