"""``sqlanon apply``: a recorded transformation applied to a new batch, on both engines.

The job: ``visits`` (300 rows from a seeded generator) is anonymized once (k=4, 5% suppression); later batches
from the same generator with other seeds are anonymized with the same levels (``--run ID`` from the history, or
``--transformation FILE`` from ``--save-transformation`` / a ``--report .json``). A batch that violates k under
those levels is refused (exit 3, nothing written) unless ``--on-violation search``. Bad inputs exit 2.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import sqlanon.api
from tests.helpers import Engine, invoke, one_json_object, quote, write_config

pytestmark = pytest.mark.spark

COLUMNS = {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "zip": "VARCHAR", "diagnosis": "VARCHAR"}
QIS = ("age", "sex", "zip")
K = 4


# -- helpers -------------------------------------------------------------------------------------------------






def run_ok(*args: Any) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return one_json_object(result.stdout)


def expect_error(args: list[Any], code: int, *fragments: str, as_json: bool = False) -> str:
    """The command fails with ``code`` and stderr names every fragment; with ``as_json`` the --json form
    also prints exactly one error object with the same message."""
    result = invoke(*args)
    assert result.exit_code == code, (args, result.output)
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)
    if as_json:
        again = invoke(*args, "--json")
        assert again.exit_code == code
        error = one_json_object(again.stdout)
        assert error["exit_code"] == code and error["status"] == {2: "invalid_input", 3: "no_solution"}[code]
        assert all(fragment in error["error"] for fragment in fragments)
    return result.stderr


def visit_rows(seed: int, n: int) -> list[tuple]:
    """The same generator for every batch: ages 20..69 (5% NULL), F/M, zip codes in four areas."""
    r = random.Random(seed)
    return [
        (i, None if r.random() < 0.05 else r.randrange(20, 70), r.choice("FM"),
         f"{r.choice(['10', '11', '20', '21'])}{r.randrange(1000):03d}", r.choice(["flu", "cold", "asthma", "ulcer"]))
        for i in range(n)
    ]


def job_config(url: str, **output: Any) -> dict[str, Any]:
    return {
        "source": {"url": url, "table": "visits"},
        "output": {"table": "visits_k4", **output},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10, 20]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "zip": {"role": "quasi_identifier", "hierarchy": {"mask": {"length": 5}}},
            "diagnosis": {"role": "sensitive"},
        },
        "privacy": {"k": K, "suppression_limit": 0.05},
    }


def rows_of(engine: Engine, table: str) -> list[tuple]:
    return sorted(engine.execute(f"SELECT * FROM {quote(table)}"), key=repr)


def rows_in_storage_order(engine: Engine, table: str) -> list[tuple]:
    """The table's rows in the order they were written (DuckDB: rowid; PostgreSQL: physical position ctid;
    Spark: the order its files are read in, which a small table written as one file keeps)."""
    if engine.name == "spark":
        return engine.execute(f"SELECT * FROM {quote(table)}")
    order = "rowid" if engine.name == "duckdb" else "ctid"
    return engine.execute(f"SELECT * FROM {quote(table)} ORDER BY {order}")


def exists(engine: Engine, table: str) -> bool:
    return table in engine.tables()


def show(engine: Engine, run_id: str) -> dict[str, Any]:
    return run_ok("runs", "show", run_id, "--db", engine.url)["run"]


@dataclass
class Job:
    engine: Engine
    tmp: Path
    config: Path
    result: dict[str, Any]  # anonymize --json
    saved: Path  # --save-transformation
    report: Path  # --report .json

    @property
    def run_id(self) -> str:
        return self.result["run_id"]

    @property
    def transformation(self) -> dict[str, int]:
        return self.result["transformation"]

    def add_batch(self, name: str, rows: list[tuple]) -> None:
        self.engine.create_table(name, COLUMNS, rows)

    def document(self, **transformation: Any) -> dict[str, Any]:
        doc = json.loads(self.saved.read_text(encoding="utf-8"))
        doc["transformation"] = transformation
        return doc

    def write_document(self, name: str, document: Any) -> Path:
        path = self.tmp / name
        path.write_text(json.dumps(document), encoding="utf-8")
        return path


def make_job(engine: Engine, tmp_path: Path, **output: Any) -> Job:
    engine.create_table("visits", COLUMNS, visit_rows(1, 300))
    config = write_config(tmp_path / "job.yaml", job_config(engine.url, **output))
    saved, report = tmp_path / "transformation.json", tmp_path / "report.json"
    result = run_ok("anonymize", config, "--save-transformation", saved, "--report", report)
    assert result["status"] == "ok" and result["verified"] is True
    return Job(engine, tmp_path, config, result, saved, report)


@pytest.fixture
def job(engine: Engine, tmp_path: Path) -> Job:
    return make_job(engine, tmp_path)


# -- the nightly load ------------------------------------------------------------------------------------------


def test_apply_recorded_run_to_a_new_batch(job: Job) -> None:
    engine = job.engine
    job.add_batch("batch_2", visit_rows(2, 300))
    out = run_ok("apply", "--run", job.run_id[:8], "--db", engine.url, "--source", "batch_2", "--output", "batch_2_k4")
    assert out["status"] == "ok" and out["verified"] is True
    assert out["transformation"] == job.transformation
    assert out["strategy"] == "fixed" and out["nodes_evaluated"] == 1
    assert (out["source_table"], out["output_table"], out["rows"]) == ("batch_2", "batch_2_k4", 300)
    assert out["suppressed_rows"] <= out["suppression_limit"] == 15
    assert out["run_id"] and out["run_id"] != job.run_id
    written = rows_of(engine, "batch_2_k4")
    assert len(written) == 300 - out["suppressed_rows"] == out["output_rows"]
    assert min(Counter(r[:3] for r in written).values()) >= K
    check = invoke("check", "--db", engine.url, "--table", "batch_2_k4", "--qi", ",".join(QIS), "--k", K)
    assert check.exit_code == 0, check.output
    # The source batch is untouched and the first output is still there.
    assert rows_of(engine, "batch_2") == sorted(visit_rows(2, 300), key=repr)
    assert exists(engine, "visits_k4")
    # Recorded as an apply run of the batch.
    run = show(engine, out["run_id"])
    assert run["command"] == "apply" and run["status"] == "succeeded" and run["verified"] is True
    assert (run["source_table"], run["output_table"]) == ("batch_2", "batch_2_k4")
    assert run["transformation"] == job.transformation and run["nodes_evaluated"] == 1
    assert run["config"]["source"]["table"] == "batch_2"
    assert run["config"]["attributes"] == show(engine, job.run_id)["config"]["attributes"]
    # Readable output.
    job.add_batch("batch_3", visit_rows(3, 300))
    text = invoke("apply", "--run", job.run_id, "--db", engine.url, "--source", "batch_3", "--output", "batch_3_k4")
    assert text.exit_code == 0, text.output
    assert "anonymized batch_3 (300 rows)" in text.stdout and "strategy fixed" in text.stdout
    assert "batch_3_k4" in text.stdout and "verified" in text.stdout


def test_apply_transformation_file_and_report_json(job: Job) -> None:
    engine = job.engine
    job.add_batch("batch_4", visit_rows(4, 300))
    saved_doc = json.loads(job.saved.read_text(encoding="utf-8"))
    assert saved_doc["format"] == "sqlanon-transformation" and saved_doc["transformation"] == job.transformation
    assert saved_doc["run_id"] == job.run_id
    db = ["--db", engine.url]
    from_saved = run_ok("apply", "--transformation", job.saved, "--source", "batch_4", "--output", "from_saved", *db)
    from_report = run_ok("apply", "--transformation", job.report, "--source", "batch_4", "--output", "from_report",
                         *db, "--report", job.tmp / "apply.json")
    for out in (from_saved, from_report):
        assert out["status"] == "ok" and out["verified"] is True and out["strategy"] == "fixed"
        assert out["transformation"] == job.transformation
    assert rows_of(engine, "from_saved") == rows_of(engine, "from_report")
    assert from_saved["metrics"] == from_report["metrics"]
    report = json.loads((job.tmp / "apply.json").read_text(encoding="utf-8"))
    assert report["run_id"] == from_report["run_id"] and report["transformation"] == job.transformation
    assert report["search"]["strategy"] == "fixed" and report["output_table"] == "from_report"
    # The Python API takes the document itself.
    result = sqlanon.api.apply(saved_doc, source="batch_4", output="from_api", db=engine.url, dry_run=True)
    assert result.strategy == "fixed" and result.dry_run and result.transformation == job.transformation
    assert result.verified is None and not exists(engine, "from_api")
    assert show(engine, result.run_id)["status"] == "dry_run"
    if engine.name != "postgres":
        # Without --db the recorded URL is used (a DuckDB file, a Spark URL: no password to lose).
        plain = run_ok("apply", "--transformation", job.saved, "--source", "batch_4", "--output", "no_db")
        assert plain["verified"] is True and rows_of(engine, "no_db") == rows_of(engine, "from_saved")
    else:
        # The recorded PostgreSQL URL has its password masked: --db is needed.
        expect_error(["apply", "--transformation", job.saved, "--source", "batch_4", "--output", "no_db"], 2,
                     str(job.saved), "password removed", "--db")
        assert not exists(engine, "no_db")


def test_batch_violating_k_is_refused_unless_search(job: Job) -> None:
    engine = job.engine
    # 30 rows: too few for the recorded levels, enough for a coarser node.
    job.add_batch("small", visit_rows(99, 30))
    args = ["apply", "--run", job.run_id, "--db", engine.url, "--source", "small", "--output", "small_k4"]
    stderr = expect_error(args, 3, "this batch violates", "nothing was written", "--on-violation search",
                          f"k={K}", ", ".join(f"{q}={v}" for q, v in job.transformation.items()), as_json=True)
    assert "of 30 records" in stderr and "above the suppression limit 1;" in stderr
    assert not exists(engine, "small_k4")
    runs = run_ok("runs", "list", "--db", engine.url, "--limit", 2)["runs"]
    assert [r["command"] for r in runs] == ["apply", "apply"]
    assert [r["status"] for r in runs] == ["no_solution", "no_solution"]
    assert "violates" in runs[0]["error"] and runs[0]["transformation"] is None
    # With --on-violation search: the optimal transformation for this batch, coarser than the recorded one.
    out = run_ok(*args, "--on-violation", "search")
    assert out["verified"] is True and out["transformation"] != job.transformation
    assert all(out["transformation"][q] >= job.transformation[q] for q in QIS)
    assert out["strategy"] == "flash" and out["nodes_evaluated"] > 1
    assert min(Counter(r[:3] for r in rows_of(engine, "small_k4")).values()) >= K
    run = show(engine, out["run_id"])
    assert run["status"] == "succeeded" and run["transformation"] == out["transformation"]


def test_batch_smaller_than_k_violates_k(job: Job) -> None:
    """3 rows cannot be 4-anonymous under any transformation: the batch violates k (exit 3, nothing written),
    like any other violating batch, with or without --on-violation search."""
    engine = job.engine
    job.add_batch("tiny", visit_rows(5, 3))
    args = ["apply", "--run", job.run_id, "--db", engine.url, "--source", "tiny", "--output", "tiny_k4"]
    expect_error(args, 3, "this batch violates", "nothing was written", f"k={K}")
    assert not exists(engine, "tiny_k4")
    expect_error([*args, "--on-violation", "search"], 3, f"k={K}")
    assert not exists(engine, "tiny_k4")


def test_same_job_twice_gives_identical_tables(engine: Engine, tmp_path: Path) -> None:
    job = make_job(engine, tmp_path, if_exists="replace", seed=0.25)
    job.add_batch("batch_6", visit_rows(6, 300))
    args = ["apply", "--run", job.run_id, "--db", engine.url, "--source", "batch_6", "--output", "batch_6_k4"]
    first = run_ok(*args)
    written_first = rows_in_storage_order(engine, "batch_6_k4")
    second = run_ok(*args)
    written_second = rows_in_storage_order(engine, "batch_6_k4")
    assert first["transformation"] == second["transformation"] == job.transformation
    assert sorted(written_first, key=repr) == sorted(written_second, key=repr)  # the same multiset
    assert written_first == written_second  # and the same (seeded random) row order
    assert written_first != sorted(written_first, key=repr)  # the order is shuffled, not sorted
    # Applying the recorded run to its own source reproduces the anonymize output exactly.
    run_ok("apply", "--run", job.run_id, "--db", engine.url, "--source", "visits", "--output", "visits_again")
    assert rows_in_storage_order(engine, "visits_again") == rows_in_storage_order(engine, "visits_k4")


# -- bad input -------------------------------------------------------------------------------------------------


def test_apply_errors(job: Job) -> None:
    engine = job.engine
    job.add_batch("batch_7", visit_rows(7, 100))
    io = ["--source", "batch_7", "--output", "out_7"]
    db = ["--db", engine.url]
    expect_error(["apply", *io, *db], 2, "exactly one of --run ID and --transformation FILE", as_json=True)
    expect_error(["apply", "--run", job.run_id, "--transformation", job.saved, *io, *db], 2, "exactly one of")
    expect_error(["apply", "--run", job.run_id, *io], 2, "--run", "--db")
    missing = job.tmp / "missing.json"
    expect_error(["apply", "--transformation", missing, *io, *db], 2, "--transformation", str(missing),
                 "cannot read")
    broken = job.tmp / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    expect_error(["apply", "--transformation", broken, *io, *db], 2, str(broken), "not JSON")
    array = job.write_document("array.json", [1, 2])
    expect_error(["apply", "--transformation", array, *io, *db], 2, str(array), "JSON object")
    partial = job.write_document("partial.json", {"transformation": job.transformation})
    expect_error(["apply", "--transformation", partial, *io, *db], 2, str(partial), "not a sqlanon transformation",
                 "missing config")
    fewer = job.write_document("fewer.json", job.document(age=1, sex=0))
    expect_error(["apply", "--transformation", fewer, *io, *db], 2, "age, sex", "age, sex, zip",
                 "not the config's quasi-identifiers")
    other = job.write_document("other.json", job.document(age=1, sex=0, zip=1, colour=0))
    expect_error(["apply", "--transformation", other, *io, *db], 2, "colour", "not the config's quasi-identifiers")
    beyond = job.write_document("beyond.json", job.document(age=9, sex=0, zip=1))
    expect_error(["apply", "--transformation", beyond, *io, *db], 2, "outside the lattice", "age<=4", as_json=True)
    negative = job.write_document("negative.json", job.document(age=-1, sex=0, zip=1))
    expect_error(["apply", "--transformation", negative, *io, *db], 2, "outside the lattice")
    invalid_config = job.document(**job.transformation)
    invalid_config["config"]["privacy"]["k"] = 0
    bad_k = job.write_document("bad_k.json", invalid_config)
    expect_error(["apply", "--transformation", bad_k, *io, *db], 2, str(bad_k), "privacy.k")
    expect_error(["apply", "--run", "ffff0000", *io, *db], 2, "no run with id 'ffff0000'")
    expect_error(["apply", "--run", job.run_id, *io, *db, "--schema", "nowhere"], 2, "no run history")
    # A run that ended without a transformation cannot be applied.
    job.add_batch("small", visit_rows(99, 30))
    assert invoke("apply", "--run", job.run_id, "--source", "small", "--output", "x", *db).exit_code == 3
    failed = run_ok("runs", "list", "--db", engine.url, "--limit", 1)["runs"][0]
    assert failed["status"] == "no_solution"
    expect_error(["apply", "--run", failed["run_id"], *io, *db], 2, failed["run_id"], "status no_solution",
                 "only a successful run")
    usage = invoke("apply", "--run", job.run_id, *io, *db, "--on-violation", "maybe")
    assert usage.exit_code == 2 and "--on-violation" in usage.stderr
    assert not exists(engine, "out_7") and not exists(engine, "x")


def test_non_integer_levels_are_invalid_input(engine: Engine, tmp_path: Path) -> None:
    """A level that is not an integer is a bad transformation file (exit 2), not a crash or a silent int()."""
    engine.create_table("batch_9", COLUMNS, visit_rows(9, 100))
    outcomes = {}
    for name, level in (("text", "x"), ("null", None), ("fraction", 1.5)):
        path = tmp_path / f"{name}.json"
        document = {"config": job_config(engine.url), "transformation": {"age": level, "sex": 0, "zip": 4}}
        path.write_text(json.dumps(document), encoding="utf-8")
        result = invoke("apply", "--transformation", path, "--source", "batch_9", "--output", f"out_{name}",
                        "--db", engine.url)
        outcomes[name] = (result.exit_code, result.stderr.strip())
        assert not exists(engine, f"out_{name}") or result.exit_code == 0
    wrong = {name: outcome for name, outcome in outcomes.items()
             if outcome[0] != 2 or "age" not in outcome[1] or "unexpected error" in outcome[1]}
    assert wrong == {}, wrong


def test_batch_value_missing_from_the_hierarchy(job: Job) -> None:
    engine = job.engine
    rows = visit_rows(10, 100)
    rows[5] = (5, 30, "X", "10123", "flu")
    rows[6] = (6, 31, "X", "10124", "flu")
    job.add_batch("odd", rows)
    stderr = expect_error(["apply", "--transformation", job.saved, "--source", "odd", "--output", "odd_k4", "--db",
                           engine.url], 2, str(job.saved), "attributes.sex.hierarchy", "missing from level 0",
                          "'X' (2 rows)", as_json=True)
    assert "column 'sex'" in stderr
    assert not exists(engine, "odd_k4")
    runs = run_ok("runs", "list", "--db", engine.url, "--limit", 1)["runs"]
    assert runs[0]["command"] == "apply" and runs[0]["status"] == "failed" and runs[0]["source_table"] == "odd"
    assert "missing from level 0" in runs[0]["error"]


def test_apply_keeps_an_explicit_null_mapping_of_an_inline_hierarchy(engine: Engine, tmp_path: Path) -> None:
    """An inline hierarchy may map NULL explicitly (a YAML null key); applying the recorded run must generalize
    the same way as the run itself did."""
    grades = [1] * 3 + [2] * 3 + [None] * 6 + [3] * 28  # level 0 fails k=6; level 1: low 6, unknown 6, high 28
    rows = [(i, grade, "flu") for i, grade in enumerate(grades)]
    engine.create_table("grades", {"id": "INTEGER", "grade": "INTEGER", "diagnosis": "VARCHAR"}, rows)
    config = write_config(tmp_path / "grades.yaml", {
        "source": {"url": engine.url, "table": "grades"},
        "output": {"table": "grades_k6"},
        "attributes": {
            "id": {"role": "identifier"},
            "grade": {"role": "quasi_identifier",
                      "hierarchy": {"inline": {1: ["low", "*"], 2: ["low", "*"], 3: ["high", "*"],
                                               None: ["unknown", "*"]}}},
            "diagnosis": {"role": "sensitive"},
        },
        "privacy": {"k": 6, "suppression_limit": 0},
    })
    first = run_ok("anonymize", config)
    assert first["transformation"] == {"grade": 1}
    assert Counter(r[0] for r in engine.execute('SELECT grade FROM "grades_k6"')) == {
        "low": 6, "high": 28, "unknown": 6}
    again = run_ok("apply", "--run", first["run_id"], "--db", engine.url, "--source", "grades", "--output",
                   "grades_again")
    assert again["transformation"] == {"grade": 1}
    assert rows_of(engine, "grades_again") == rows_of(engine, "grades_k6")
