"""The engines' session settings around a run: PostgreSQL's temp_buffers, merge joins and work_mem,
DuckDB's optimizer passes and threads; each restored afterwards, and a setting in the URL left alone."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from tests.bad_input import base_config, config_file
from tests.helpers import Engine, invoke, on_engines

#: A PostgreSQL session setting: the test runs on PostgreSQL only.
ON_POSTGRES = on_engines("postgres")


@ON_POSTGRES
def test_postgres_session_settings_unless_the_url_says(engine) -> None:
    """temp_buffers is raised for sqlanon's sessions (the frequency set is a temporary table scanned per
    node) and merge joins are disfavoured (joins with unanalyzed lookup tables); an explicit
    ``options=-c name=value`` in the URL is left alone, and its space survives the translation to libpq
    (SQLAlchemy's rendering turned it into a '+', an unknown setting)."""
    from urllib.parse import quote

    from sqlanon.engines import adapter_for_url

    sep = "&" if "?" in engine.url else "?"
    shown = {}
    options = quote("-c temp_buffers=16MB -c enable_mergejoin=on")
    for label, url in (("default", engine.url), ("url", engine.url + sep + "options=" + options)):
        adapter = adapter_for_url(url)
        adapter.connect()
        try:
            (shown[label],), = adapter.execute("SELECT current_setting('temp_buffers') || ' ' || "
                                               "current_setting('enable_mergejoin')")
        finally:
            adapter.close()
    assert shown == {"default": "256MB off", "url": "16MB on"}


@ON_POSTGRES
def test_postgres_verification_aggregates_with_more_work_mem_and_in_parallel(
    both: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The written table's verification (one aggregate over all its rows into its few classes) runs with
    work_mem 64 MB and without sorts, so that PostgreSQL hashes its classes instead of sorting every row on
    disk, and with a cheaper parallel_tuple_cost, so that it aggregates in parallel workers; the session's
    values come back after it; a setting in the URL is left alone, each on its own."""
    from urllib.parse import quote

    from sqlanon import run as api  # the run lifecycle calls the verifier
    from sqlanon.engines.postgres import AGGREGATE_WORK_MEM_MB, PARALLEL_SETTINGS, PostgresAdapter
    AGGREGATE_WORK_MEM = f"{AGGREGATE_WORK_MEM_MB}MB"  # a source of a few rows

    seen: list[str] = []
    original_run, original_verify = PostgresAdapter.run, api.verify_output

    def settings(adapter) -> str:
        query = ("SELECT current_setting('work_mem') || ' ' || current_setting('parallel_tuple_cost') || ' ' || "
                 "current_setting('enable_sort')")
        return adapter.execute(query)[0][0]

    def run(self, template, **context):
        if template == "verify_output.sql.j2":
            seen.append(settings(self))
        return original_run(self, template, **context)

    def verify(adapter, **kwargs):
        seen.append(settings(adapter))
        try:
            return original_verify(adapter, **kwargs)
        finally:
            seen.append(settings(adapter))

    monkeypatch.setattr(PostgresAdapter, "run", run)
    monkeypatch.setattr(api, "verify_output", verify)
    result = invoke("anonymize", config_file(tmp_path, base_config(both.url)))
    assert result.exit_code == 0, result.output
    cost, sort = PARALLEL_SETTINGS["parallel_tuple_cost"], PARALLEL_SETTINGS["enable_sort"]
    inside = f"{AGGREGATE_WORK_MEM} {cost} {sort}"
    assert seen[1] == inside and seen[0] == seen[2] and set(seen[0].split()).isdisjoint(inside.split()), seen
    for options, expected in (("-c work_mem=5MB", f"5MB {cost} {sort}"),
                              ("-c parallel_tuple_cost=0.2 -c enable_sort=on", f"{AGGREGATE_WORK_MEM} 0.2 on")):
        seen.clear()
        url = both.url + ("&" if "?" in both.url else "?") + "options=" + quote(options)
        data = base_config(url)
        data["output"]["if_exists"] = "replace"
        result = invoke("anonymize", config_file(tmp_path, data, "url.yaml"))
        assert result.exit_code == 0, result.output
        before = seen[0]
        assert seen[1] == expected and seen[2] == before != expected, (options, seen)


def test_duckdb_node_queries_run_without_compressed_materialization(
    db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search's node queries run with DuckDB's compressed materialization off (faster on small
    frequency sets), k-only ones without the optimizer passes they never use; the session's own setting is
    restored afterwards, after an error too, and a user's ``disabled_optimizers`` is kept."""
    import sqlanon
    from sqlanon.engines import adapter_for_url
    from sqlanon.evaluation import evaluator
    from sqlanon.evaluation.tuning import tuning_for

    def setting(adapter) -> str:
        return str(adapter.execute("SELECT current_setting('disabled_optimizers')")[0][0])

    adapter = adapter_for_url(f"duckdb:///{tmp_path / 'own.duckdb'}")
    tuning = tuning_for(adapter)
    adapter.connect()
    try:
        with tuning.node_query_settings(adapter, 1000, judged=True):
            inside = setting(adapter)
        with tuning.node_query_settings(adapter, 1000, judged=False):
            k_only = setting(adapter).split(",")
        after = setting(adapter)
        adapter.execute("SET disabled_optimizers = 'join_order'")
        with pytest.raises(RuntimeError), tuning.node_query_settings(adapter, 1000, judged=True):
            inside_user = setting(adapter)
            raise RuntimeError("the search failed")
        after_user = setting(adapter)
    finally:
        adapter.close()
    assert (inside, after) == ("compressed_materialization", "")
    # k-only queries also skip the passes they never use (the names this DuckDB knows), but not the pruning
    # of columns and the statistics for the perfect hash aggregate
    assert "compressed_materialization" in k_only and "join_order" in k_only and "filter_pushdown" in k_only
    assert not {"unused_columns", "column_lifetime", "statistics_propagation"} & set(k_only)
    assert (inside_user, after_user) == ("join_order,compressed_materialization", "join_order")

    seen = []
    original = evaluator.NodeEvaluator._run

    def run(self, node, weights):
        seen.append(setting(self.adapter))
        return original(self, node, weights)

    monkeypatch.setattr(evaluator.NodeEvaluator, "_run", run)
    sqlanon.anonymize(config_file(tmp_path, base_config(db.url)))  # k-only
    assert len(set(seen)) == 1 and seen[0] == ",".join(k_only)


def test_duckdb_builds_the_frequency_set_without_ordering_its_joins(
    db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frequency set's joins with the coded hierarchies are 1:1, so DuckDB builds it without ordering them
    and without join filters (LOOKUP_JOIN_IDLE_OPTIMIZERS); a user's own ``disabled_optimizers`` is kept
    inside and restored afterwards, after an error too."""
    import sqlanon
    from sqlanon.engines import adapter_for_url
    from sqlanon.engines.base import EngineAdapter

    def setting(adapter) -> str:
        return str(adapter.execute("SELECT current_setting('disabled_optimizers')")[0][0])

    adapter = adapter_for_url(f"duckdb:///{tmp_path / 'own.duckdb'}")
    adapter.connect()
    try:
        with adapter.aggregate_settings():
            inside = setting(adapter)
        after = setting(adapter)
        adapter.execute("SET disabled_optimizers = 'top_n'")
        with pytest.raises(RuntimeError), adapter.aggregate_settings():
            inside_user = setting(adapter)
            raise RuntimeError("the build failed")
        after_user = setting(adapter)
    finally:
        adapter.close()
    assert (set(inside.split(",")), after) == ({"join_order", "join_filter_pushdown"}, "")
    assert (set(inside_user.split(",")), after_user) == ({"top_n", "join_order", "join_filter_pushdown"}, "top_n")

    seen = {}
    original = EngineAdapter.run

    def run(self, template, **context):
        if template == "build_frequency_set.sql.j2":
            seen[template] = setting(self)
        return original(self, template, **context)

    monkeypatch.setattr(EngineAdapter, "run", run)
    sqlanon.anonymize(config_file(tmp_path, base_config(db.url)))
    assert set(seen["build_frequency_set.sql.j2"].split(",")) == {"join_order", "join_filter_pushdown"}


def test_duckdb_node_queries_over_one_row_group_run_on_one_thread(
    db: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frequency set that fits in one row group is scanned by one thread anyway: the node queries run on
    one thread, and the session's thread count comes back afterwards, after an error too. A larger frequency
    set, or a ``threads`` setting in the URL, keeps the threads."""
    import sqlanon
    from sqlanon.engines import adapter_for_url
    from sqlanon.engines.duckdb import ROW_GROUP_ROWS
    from sqlanon.evaluation import evaluator
    from sqlanon.evaluation.tuning import tuning_for

    def threads(adapter) -> int:
        return int(adapter.execute("SELECT current_setting('threads')")[0][0])

    def inside(url: str, rows: int, fail: bool = False) -> tuple[int, int, int]:
        adapter = adapter_for_url(url)
        adapter.connect()
        try:
            before = threads(adapter)
            with pytest.raises(RuntimeError) if fail else contextlib.nullcontext():
                with tuning_for(adapter).node_query_settings(adapter, rows, judged=False):
                    during = threads(adapter)
                    if fail:
                        raise RuntimeError("the search failed")
            return before, during, threads(adapter)
        finally:
            adapter.close()

    url = f"duckdb:///{tmp_path / 'own.duckdb'}"
    machine = inside(url, ROW_GROUP_ROWS + 1)[0]
    if machine < 2:
        pytest.skip("DuckDB runs on one thread on this machine")
    assert inside(url, ROW_GROUP_ROWS) == (machine, 1, machine)
    assert inside(url, ROW_GROUP_ROWS, fail=True) == (machine, 1, machine)
    assert inside(url, ROW_GROUP_ROWS + 1) == (machine, machine, machine)
    assert inside(url + "?threads=2", 10) == (2, 2, 2)

    seen = []
    original = evaluator.NodeEvaluator._run

    def run(self, node, weights):
        seen.append(threads(self.adapter))
        return original(self, node, weights)

    monkeypatch.setattr(evaluator.NodeEvaluator, "_run", run)
    sqlanon.anonymize(config_file(tmp_path, base_config(db.url)))
    assert seen and set(seen) == {1}
    # a population's frequency set is joined by every query and not counted: the threads stay
    assert inside(url, None) == (machine, machine, machine)
    seen.clear()
    population = {"population_table": "t", "delta_min": 0, "delta_max": 1}
    sqlanon.anonymize(config_file(tmp_path, base_config(db.url, delta_presence=population), "dp.yaml"), dry_run=True)
    assert seen and set(seen) == {machine}


def test_duckdb_runs_over_one_row_group_of_source_on_one_thread(
    duckdb_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A source of at most one row group is counted, coded and searched on one thread, and the caller's
    connection gets its thread count back; a larger source gets the threads back once it is counted, and a
    ``threads`` setting in the URL is left alone."""
    import duckdb

    import sqlanon
    from sqlanon.config import parse_config
    from sqlanon.engines.duckdb import ROW_GROUP_ROWS, DuckDBAdapter

    path = duckdb_engine.extra["path"]
    with duckdb.connect(path) as con:
        for name, rows_ in (("small", ROW_GROUP_ROWS), ("large", ROW_GROUP_ROWS + 1)):
            con.execute(f"CREATE TABLE {name} AS SELECT range % 50 AS age FROM range({rows_})")
    seen: dict[str, int] = {}
    original = DuckDBAdapter.run

    def run(self, template, **context):
        if template in ("count_rows.sql.j2", "build_frequency_set.sql.j2"):
            seen[template.split(".")[0]] = int(self._con.execute("SELECT current_setting('threads')").fetchone()[0])
        return original(self, template, **context)

    monkeypatch.setattr(DuckDBAdapter, "run", run)

    def threads_seen(table: str, db: Any) -> dict[str, int]:
        seen.clear()
        cfg = parse_config({
            "source": {"table": table}, "output": {"table": f"{table}_out"},
            "attributes": {"age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [10]}}}},
            "privacy": {"k": 2, "suppression_limit": 0}, "history": {"enabled": False},
        }, source="<test>")
        sqlanon.anonymize(cfg, db=db, dry_run=True)
        return dict(seen)

    con = duckdb.connect(path)
    try:
        con.execute("SET threads = 2")
        assert threads_seen("small", con) == {"count_rows": 1, "build_frequency_set": 1}
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 2
        assert threads_seen("large", con) == {"count_rows": 1, "build_frequency_set": 2}
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == 2
    finally:
        con.close()
    assert threads_seen("small", f"duckdb:///{path}?threads=2") == {"count_rows": 2, "build_frequency_set": 2}


@ON_POSTGRES
def test_postgres_check_measures_a_published_table_as_the_verification_does(
    both: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sqlanon check`` groups a published table into its classes with the verification's settings (hashing,
    parallel workers), and restores the session's afterwards."""
    from sqlanon import audit
    from sqlanon.engines.postgres import AGGREGATE_WORK_MEM_MB, PARALLEL_SETTINGS, PostgresAdapter
    AGGREGATE_WORK_MEM = f"{AGGREGATE_WORK_MEM_MB}MB"  # a source of a few rows

    seen: list[tuple[str, str]] = []
    original_run, original_measure = PostgresAdapter.run, audit.measure_classes
    query = ("SELECT current_setting('work_mem') || ' ' || current_setting('parallel_tuple_cost') || ' ' || "
             "current_setting('enable_sort')")

    def run(self, template, **context):
        seen.append((template, self.execute(query)[0][0]))
        return original_run(self, template, **context)

    def measured(adapter, *args):
        try:
            return original_measure(adapter, *args)
        finally:
            seen.append(("after", adapter.execute(query)[0][0]))

    monkeypatch.setattr(PostgresAdapter, "run", run)
    monkeypatch.setattr(audit, "measure_classes", measured)
    result = invoke("check", "--db", both.url, "--table", "t", "--qi", "sex,code", "--k", "2")
    assert result.exit_code in (0, 1), result.output
    inside = f"{AGGREGATE_WORK_MEM} {PARALLEL_SETTINGS['parallel_tuple_cost']} {PARALLEL_SETTINGS['enable_sort']}"
    at = [template for template, _ in seen].index("check_table.sql.j2")
    assert seen[at][1] == inside and seen[at + 1] == ("after", seen[0][1]) and seen[0][1] != inside, seen


@ON_POSTGRES
def test_postgres_frequency_set_builds_with_more_work_mem(
    both: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frequency set and its copies (whole-table aggregates and a sort into parts) are built with work_mem
    64 MB, so that they do not spill to disk; the node queries of the search run with the session's value."""
    from sqlanon.engines.postgres import AGGREGATE_WORK_MEM_MB, PostgresAdapter
    AGGREGATE_WORK_MEM = f"{AGGREGATE_WORK_MEM_MB}MB"  # a source of a few rows
    from sqlanon.evaluation.evaluator import NodeEvaluator

    seen: dict[str, set[str]] = {}
    original_run, original_node = PostgresAdapter.run, NodeEvaluator._run

    def run(self, template, **context):
        if template in ("count_rows.sql.j2", "build_frequency_set.sql.j2", "summarize_frequency_set.sql.j2"):
            seen.setdefault(template, set()).add(self.execute("SELECT current_setting('work_mem')")[0][0])
            # Not the parallel plans of the verification: these groups may be as many as the rows.
            query = "SELECT current_setting('parallel_tuple_cost') || ' ' || current_setting('enable_sort')"
            seen.setdefault("planner", set()).add(self.execute(query)[0][0])
        return original_run(self, template, **context)

    def node(self, node, weights):
        seen.setdefault("node", set()).add(self.adapter.execute("SELECT current_setting('work_mem')")[0][0])
        return original_node(self, node, weights)

    monkeypatch.setattr(PostgresAdapter, "run", run)
    monkeypatch.setattr(NodeEvaluator, "_run", node)
    result = invoke("anonymize", config_file(tmp_path, base_config(both.url)), "--dry-run")
    assert result.exit_code == 0, result.output
    default = seen["count_rows.sql.j2"]
    assert seen["build_frequency_set.sql.j2"] == seen["summarize_frequency_set.sql.j2"] == {AGGREGATE_WORK_MEM}
    assert seen["node"] == default != {AGGREGATE_WORK_MEM}, seen
    assert len(seen["planner"]) == 1 and "0.01 off" not in seen["planner"], seen


def test_postgres_aggregate_work_mem_follows_the_source_rows() -> None:
    """work_mem for whole-table aggregates: 64 MB until the source is counted and for small ones, then 16 bytes
    per source row, at most 1 GB."""
    from sqlanon.engines.postgres import PostgresAdapter

    adapter = PostgresAdapter("postgresql://nowhere/db", "postgresql://nowhere/db")
    assert adapter.aggregate_work_mem() == "64MB"
    for rows, expected in ((None, "64MB"), (0, "64MB"), (1_000_000, "64MB"), (4_194_304, "64MB"),
                           (4_259_840, "65MB"), (10_000_000, "152MB"), (16_777_216, "256MB"),
                           (67_108_864, "1024MB"), (100_000_000, "1024MB")):
        adapter.settings_for_data(rows)
        assert adapter.aggregate_work_mem() == expected, rows


@ON_POSTGRES
def test_postgres_aggregates_of_a_large_source_get_more_work_mem(
    both: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run passes the source's row count on (settings_for_data), and the frequency set's build gets
    work_mem sized from it: here a few rows at 100 MB each, so the cap of 1 GB. The source's grouping, which
    counts the rows, gets it sized from the planner's estimate of them, and runs in parallel workers, hashing
    (``PARALLEL_SETTINGS``), without the leader's partial aggregate (``MANY_GROUPS_SETTINGS``); the statements
    after it have the session's planner settings again."""
    from sqlanon.engines import postgres
    from sqlanon.engines.postgres import PostgresAdapter

    monkeypatch.setattr(postgres, "AGGREGATE_WORK_MEM_PER_ROW", 100 * 1024 * 1024)
    seen: dict[str, str] = {}
    original_run = PostgresAdapter.run

    def run(self, template, **context):
        if template in ("group_source_rows.sql.j2", "count_rows.sql.j2", "build_frequency_set.sql.j2"):
            seen[template] = self.execute("SELECT current_setting('work_mem') || ' ' || "
                                          "current_setting('parallel_tuple_cost') || ' ' || "
                                          "current_setting('enable_sort') || ' ' || "
                                          "current_setting('parallel_leader_participation')")[0][0]
        return original_run(self, template, **context)

    monkeypatch.setattr(PostgresAdapter, "run", run)
    result = invoke("anonymize", config_file(tmp_path, base_config(both.url)), "--dry-run")
    assert result.exit_code == 0, result.output
    default = seen.pop("count_rows.sql.j2")
    assert default.endswith(" 0.1 on on"), default
    assert seen == {"group_source_rows.sql.j2": "1GB 0.01 off off",
                    "build_frequency_set.sql.j2": "1GB 0.1 on on"}, seen


@ON_POSTGRES
def test_postgres_estimates_a_source_without_reading_it(both: Engine) -> None:
    """``estimated_rows``: the planner's estimate, exact for an analyzed table, and one for a view too (the
    source's grouping is sized by it before it counts the rows)."""
    from sqlanon.engines import adapter_for_url

    both.create_table("counted", {"id": "INTEGER", "name": "VARCHAR"}, [(i, f"n{i}") for i in range(1234)])
    both.execute('ANALYZE "counted"')
    both.execute('CREATE VIEW "counted view" AS SELECT * FROM "counted" WHERE id > 600')
    with contextlib.closing(adapter_for_url(both.url)) as adapter:
        adapter.connect()
        assert adapter.estimated_rows(("counted",)) == 1234
        assert 0 < adapter.estimated_rows(("counted view",)) <= 1234


@ON_POSTGRES
def test_postgres_release_kinds_are_hashed(both: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The release's kinds are grouped by hashing (enable_sort off, aggregate_settings(hashed=True)): grouped on
    the values of quasi-identifiers at level 0, the planner sorted them. The write after it has the session's
    value again."""
    from sqlanon.engines.postgres import PostgresAdapter

    seen: dict[str, str] = {}
    original_run = PostgresAdapter.run

    def run(self, template, **context):
        if template in ("release_kinds.sql.j2", "write_kinds.sql.j2"):
            seen[template] = self.execute("SELECT current_setting('enable_sort')")[0][0]
        return original_run(self, template, **context)

    monkeypatch.setattr(PostgresAdapter, "run", run)
    result = invoke("anonymize", config_file(tmp_path, base_config(both.url)))
    assert result.exit_code == 0, result.output
    assert seen == {"release_kinds.sql.j2": "off", "write_kinds.sql.j2": "on"}, seen
