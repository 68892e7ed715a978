"""Related tables (``method: related_tables``, seed 003): every error path, and the checks that must fail.

- Config errors: exit 2, the message naming the config file and the key.
- Data errors: missing tables and columns, repeated keys, values missing from a hierarchy, a hierarchy that is
  no tree, k above the records: exit 2 naming where.
- No solution: exit 3 when even the most general cut fails (DuckDB and PostgreSQL).
- The verifier: a written node table tampered with (a label made rare, a parent link broken, a cycle, a repeated
  node id) is reported by ``audit_trees``, by ``sqlanon check --trees`` (exit 3) and by a run's own verification;
  the untampered table passes, its largest k equal to the oracle's (``tests/oracle_related.py``). ``check --trees``
  on what is no table of trees, or with options that do not apply: exit 2.
- ``output.json`` (DuckDB): one JSON document per record, giving back the node table's trees; PostgreSQL
  refuses it.
- The SQL templates with the paper's worked values, on both engines: RPD of Example 1 (``measure_rpd.sql.j2``),
  structural disassociation (``disassociate.sql.j2``) and the projection of paths (``project_paths.sql.j2``).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import sqlanon
from sqlanon.audit.trees import audit_trees
from sqlanon.config import parse_config
from sqlanon.engines import adapter_for_url
from sqlanon.errors import NoSolutionError
from sqlanon.methods.related_tables.loss import ml2_counts
from tests import oracle_related as oracle
from tests.bad_input import config_file, expect_error
from tests.helpers import Engine, invoke, one_json_object, quote
from tests.unit.methods.related_tables.test_related_tables import (
    CLASSES,
    HIERARCHIES,
    TABLES,
    Data,
    config,
    disassociated_paths,
    load,
    released,
)
from tests.unit.output.test_verification import tampering

T = "methods/related_tables/"


def varied() -> Data:
    """12 customers of four groups with 0..2 orders (one day of five NULL) of 0..2 items each: at k=2, m=2, n=1
    the release keeps the groups' and the kinds' labels apart (several labels, held by different records)."""
    groups = ["a1", "a2", "b1", "b2"]
    days = ["d1", "d2", "d3", "d5", None]
    cust = [(c, groups[c % 4]) for c in range(12)]
    orders: list[tuple] = []
    for c in range(12):
        for j in range(c % 3):
            orders.append((len(orders), c, days[(c + j) % 5]))
    items: list[tuple] = []
    for o in range(len(orders)):
        for j in range(o % 3):
            items.append((len(items), o, ["x", "y", "z"][(o + j) % 3]))
    return Data(cust, orders, items, None, None)


def plain() -> Data:
    """6 customers, each with two orders of day d1 and one item x per order: small and quick."""
    return Data(cust=[(c, "a1" if c % 2 else "b1") for c in range(6)], ord=[(o, o % 6, "d1") for o in range(12)],
                item=[(i, i, "x") for i in range(12)], orders=None, items=None)


def child(cfg: dict[str, Any], *path: int) -> dict[str, Any]:
    """The table spec at records.children[i].children[j]..."""
    spec = cfg["records"]
    for i in path:
        spec = spec["children"][i]
    return spec


def attr(name: str) -> dict[str, Any]:
    return {"column": name, "hierarchy": {"inline": HIERARCHIES[name]}}


# -- 1. config errors ---------------------------------------------------------------------------------------------
Change = Callable[[dict[str, Any]], Any]

CONFIG_ERRORS: list[Any] = [
    pytest.param(lambda c: c["records"]["attributes"].update(record_id=c["records"]["attributes"].pop("grp")),
                 ["records.attributes.record_id", "taken by a column of the path table"], id="reserved-name"),
    pytest.param(lambda c: c.update(attributes={"grp": {"role": "quasi_identifier"}}),
                 ["attributes: method related_tables declares its attributes under records"],
                 id="top-level-attributes"),
    pytest.param(lambda c: child(c, 0).pop("foreign_key"),
                 ["records.children[0].foreign_key", "refers to its parent's key"], id="child-without-foreign-key"),
    pytest.param(lambda c: child(c, 0, 0).pop("foreign_key"),
                 ["records.children[0].children[0].foreign_key"], id="grandchild-without-foreign-key"),
    pytest.param(lambda c: c["records"].update(foreign_key="grp"),
                 ["records.foreign_key", "the root table has no parent"], id="root-with-foreign-key"),
    pytest.param(lambda c: c["records"].update(limit=2),
                 ["records.limit", "no parent to limit"], id="root-with-limit"),
    pytest.param(lambda c: c["records"].pop("key"),
                 ["records.key", "the root table's key is needed"], id="root-without-key"),
    pytest.param(lambda c: child(c, 0).pop("key"),
                 ["records.children[0].key", "needed by a table with children"], id="child-with-children-without-key"),
    pytest.param(lambda c: child(c, 0, 0).update(key=None, limit=2),
                 ["records.children[0].children[0].key", "or a limit"], id="limit-without-key"),
    pytest.param(lambda c: child(c, 0)["attributes"].update(grp=attr("day")),
                 ["records.children[0].attributes.grp", "also used in records"], id="attribute-name-twice"),
    pytest.param(lambda c: [child(c, *p)["attributes"].clear() for p in ((), (0,), (0, 0))],
                 ["records.attributes", "at least one attribute"], id="no-attribute"),
    pytest.param(lambda c: c.update(source={"url": c["source"]["url"], "table": "ord"}),
                 ["source.table", "leave source.table out"], id="source-table"),
    pytest.param(lambda c: c["privacy"].update(suppression_limit=0.1),
                 ["privacy.suppression_limit", "suppresses no record"], id="suppression-limit"),
    pytest.param(lambda c: c["privacy"].update(null_handling="basic"),
                 ["privacy.null_handling", "basic is not available"], id="null-handling-basic"),
    pytest.param(lambda c: c["privacy"].update(k=1), ["privacy.k", "at least 2"], id="k-1"),
    pytest.param(lambda c: c["privacy"].update(m=0), ["privacy.m", "greater than or equal to 1"], id="m-0"),
    pytest.param(lambda c: c["privacy"].update(m=7), ["privacy.m", "less than or equal to 6"], id="m-7"),
    pytest.param(lambda c: c["privacy"].update(n=4), ["privacy.n", "less than or equal to 3"], id="n-4"),
    pytest.param(lambda c: c["privacy"].update(n=-1), ["privacy.n"], id="n-negative"),
    pytest.param(lambda c: c["search"].update(strategy="best_cut"), ["search.strategy", "greedy_cut"],
                 id="unknown-strategy"),
    pytest.param(lambda c: c["search"].update(beam=0), ["search.beam"], id="beam-0"),
    pytest.param(lambda c: c["search"].update(max_cuts=-1), ["search.max_cuts"], id="max-cuts-negative"),
    pytest.param(lambda c: c["search"].update(bound="yes"), ["search.bound", "valid boolean"], id="bound-not-a-bool"),
    pytest.param(lambda c: child(c, 0).update(limit=0), ["limit", "greater than or equal to 1"], id="limit-0"),
    pytest.param(lambda c: c["records"].update(colour="red"), ["records.colour", "unknown key"],
                 id="unknown-key-in-records"),
    pytest.param(lambda c: child(c, 0, 0).update(limt=3), ["limt", "unknown key"], id="unknown-key-in-a-child"),
    pytest.param(lambda c: c["records"]["attributes"]["grp"].update(role="quasi_identifier"),
                 ["records.attributes.grp.role", "unknown key"], id="unknown-key-in-an-attribute"),
    pytest.param(lambda c: c["records"]["attributes"]["grp"].update(lookup={"table": "cust", "column": "grp"}),
                 ["records.attributes.grp.lookup.key", "Field required"], id="lookup-without-key"),
    pytest.param(lambda c: c["records"]["attributes"]["grp"].pop("hierarchy"),
                 ["records.attributes.grp.hierarchy", "Field required"], id="hierarchy-missing"),
    pytest.param(lambda c: c["output"].update(csv="out.csv"), ["output.csv"], id="output-csv"),
    pytest.param(lambda c: c["output"].update(suppressed_rows="mask"), ["output.suppressed_rows"],
                 id="suppressed-rows-mask"),
]


@pytest.mark.parametrize(("change", "fragments"), CONFIG_ERRORS)
def test_config_errors_name_the_file_and_the_key(tmp_path: Path, change: Change, fragments: list[str]) -> None:
    database = tmp_path / "never.duckdb"
    cfg = config(plain(), f"duckdb:///{database}", k=2, m=2, n=1)
    change(cfg)
    path = config_file(tmp_path, cfg)
    expect_error(["anonymize", str(path)], 2, str(path), *fragments)
    assert not database.exists(), "a config error is found before the database is opened"


def test_a_child_key_is_named_without_a_top_level_prefix(tmp_path: Path) -> None:
    cfg = config(plain(), f"duckdb:///{tmp_path / 'never.duckdb'}", k=2, m=2, n=1)
    child(cfg, 0).pop("foreign_key")
    path = config_file(tmp_path, cfg)
    message = expect_error(["anonymize", str(path)], 2, "records.children[0].foreign_key")
    assert "<top level>" not in message


@pytest.mark.spark
def test_output_json_needs_an_engine_that_writes_client_files(engine: Engine, tmp_path: Path) -> None:
    """PostgreSQL and Spark cannot write a file on the client: output.json is refused before any work (exit 2);
    DuckDB writes it."""
    data = plain()
    load(engine, data)
    out = tmp_path / "trees.jsonl"
    path = config_file(tmp_path, config(data, engine.url, k=2, m=2, n=1, json=str(out)))
    if engine.name != "duckdb":
        expect_error(["anonymize", str(path)], 2, str(path), "output.json", "cannot write client files",
                     "output.documents")
        assert not out.exists()
        assert "trees" not in engine.tables()
    else:
        result = invoke("anonymize", path)
        assert result.exit_code == 0, result.output
        assert len(out.read_text().splitlines()) == len(data.cust)


# -- 2. data errors -----------------------------------------------------------------------------------------------
def _extra_tables(engine: Engine, tmp_path: Path, data: Data) -> None:
    engine.create_table("dupcust", TABLES["cust"], [*data.cust, (0, "a2")])
    engine.create_table("nullcust", TABLES["cust"], [*data.cust, (None, "a2")])
    engine.create_table("duporders", TABLES["ord"], [*data.ord, (0, 5, "d2")])
    engine.create_table("nocust", TABLES["cust"], [])
    engine.create_table("cust2", {"id": "INTEGER", "g": "INTEGER"}, [(c, c % 2) for c, _ in data.cust])
    engine.create_table("grps", {"g": "INTEGER", "label": "VARCHAR"}, [(0, "a1"), (1, "b1"), (1, "b2")])
    (tmp_path / "day.csv").write_text("d2;D12;W1;*\nd3;D34;W1;*\n", encoding="utf-8")


def _lookup_grp(c: dict[str, Any]) -> None:
    c["records"].update(table="cust2", attributes={"grp": {
        "column": "g", "lookup": {"table": "grps", "key": "g", "column": "label"},
        "hierarchy": {"inline": HIERARCHIES["grp"]}}})


DATA_ERRORS: list[Any] = [
    pytest.param(lambda c, _: c["output"].update(paths="trees"), ["output.paths", "output.table names"],
                 id="paths-is-the-node-table"),
    pytest.param(lambda c, _: c["output"].update(paths="ord"), ["output.paths", "the run reads it"],
                 id="paths-is-a-table-read"),
    pytest.param(lambda c, _: c["output"].update(documents="trees"), ["output.documents", "output.table names"],
                 id="documents-is-the-node-table"),
    pytest.param(lambda c, _: c["output"].update(documents="item"), ["output.documents", "the run reads it"],
                 id="documents-is-a-table-read"),
    pytest.param(lambda c, _: c["output"].update(paths="both", documents="both"),
                 ["output.paths", "output.documents names"], id="documents-is-the-path-table"),

    pytest.param(lambda c, _: child(c, 0).update(table="nosuch"), ["records.children[0]", "nosuch"],
                 id="missing-child-table"),
    pytest.param(lambda c, _: child(c, 0, 0).update(table="nosuch"),
                 ["records.children[0].children[0].table", "table nosuch not found"], id="missing-leaf-table"),
    pytest.param(lambda c, _: child(c, 0)["attributes"]["day"].update(column="nosuch"),
                 ["records.children[0].attributes.day.column", "no column 'nosuch' in table ord"],
                 id="missing-column"),
    pytest.param(lambda c, _: child(c, 0).update(foreign_key="nosuch"),
                 ["records.children[0].foreign_key", "no column 'nosuch' in table ord"],
                 id="missing-foreign-key-column"),
    pytest.param(lambda c, _: child(c, 0).update(key="nosuch"),
                 ["records.children[0].key", "no column 'nosuch' in table ord"], id="missing-key-column"),
    pytest.param(lambda c, _: c["records"]["attributes"]["grp"].update(
        lookup={"table": "nosuch", "key": "id", "column": "grp"}),
                 ["records.attributes.grp.lookup", "nosuch"], id="missing-lookup-table"),
    pytest.param(lambda c, _: c["records"].update(table="dupcust"), ["records.key", "repeat", "dupcust"],
                 id="duplicate-root-key"),
    pytest.param(lambda c, _: c["records"].update(table="nullcust"), ["records.key", "repeat", "(or have none)"],
                 id="null-root-key"),
    pytest.param(lambda c, _: child(c, 0).update(table="duporders"),
                 ["records.children[0].key", "repeat", "duporders"], id="duplicate-parent-key"),
    pytest.param(lambda c, _: _lookup_grp(c), ["records.attributes.grp.lookup.key", "repeat", "grps"],
                 id="duplicate-lookup-key"),
    pytest.param(lambda c, _: child(c, 0)["attributes"]["day"].update(hierarchy={"inline": {
        k: v for k, v in HIERARCHIES["day"].items() if k != "d1"}}),
                 ["records.children[0].attributes.day.hierarchy", "'d1'", "missing"], id="value-missing-inline"),
    pytest.param(lambda c, tmp: child(c, 0)["attributes"]["day"].update(hierarchy={"csv": str(tmp / "day.csv")}),
                 ["records.children[0].attributes.day.hierarchy", "day.csv", "'d1'", "missing"],
                 id="value-missing-csv"),
    pytest.param(lambda c, _: child(c, 0)["attributes"]["day"].update(hierarchy={"inline": {
        "d1": ["D12", "W1", "*"], "d2": ["D12", "W2", "*"]}}),
                 ["records.children[0].attributes.day.hierarchy", "more than one parent", "'D12'"],
                 id="hierarchy-not-a-tree"),
    pytest.param(lambda c, _: c["privacy"].update(k=7), ["privacy.k", "k=7", "larger than the number of records (6)"],
                 id="k-above-records"),
    # The config lets a root without children leave its key out; the data step then asks for it.
    pytest.param(lambda c, _: [c["records"].pop(key) for key in ("key", "children")],
                 ["records.key", "needed"], id="root-without-key-or-children"),
    pytest.param(lambda c, tmp: c["output"].update(json=str(tmp)), ["output.json", "is a folder"],
                 id="output-json-a-folder"),
]


@pytest.mark.parametrize(("change", "fragments"), DATA_ERRORS)
def test_data_errors_name_where(duckdb_engine: Engine, tmp_path: Path, change: Callable[[dict, Path], Any],
                                fragments: list[str]) -> None:
    data = plain()
    load(duckdb_engine, data)
    _extra_tables(duckdb_engine, tmp_path, data)
    cfg = config(data, duckdb_engine.url, k=2, m=2, n=1)
    change(cfg, tmp_path)
    path = config_file(tmp_path, cfg)
    expect_error(["anonymize", str(path)], 2, str(path), *fragments)
    assert "trees" not in duckdb_engine.tables()


def test_an_empty_root_table_has_no_records(duckdb_engine: Engine, tmp_path: Path) -> None:
    data = plain()
    load(duckdb_engine, data)
    _extra_tables(duckdb_engine, tmp_path, data)
    cfg = config(data, duckdb_engine.url, k=2, m=2, n=1)
    cfg["records"]["table"] = "nocust"
    path = config_file(tmp_path, cfg)
    expect_error(["anonymize", str(path)], 2, str(path), "records: table nocust has no records")


def test_a_missing_root_table_is_named_by_records_table(duckdb_engine: Engine, tmp_path: Path) -> None:
    data = plain()
    load(duckdb_engine, data)
    cfg = config(data, duckdb_engine.url, k=2, m=2, n=1)
    cfg["records"]["table"] = "nosuch"
    path = config_file(tmp_path, cfg)
    expect_error(["anonymize", str(path)], 2, str(path), "nosuch", "records.table")


# -- 3. no solution -----------------------------------------------------------------------------------------------
def test_no_cut_when_the_most_general_cut_fails(engine: Engine, tmp_path: Path) -> None:
    """k=3, 4 customers of which one has orders: {orderdate: '*'} is held by that one record alone, under every
    cut (generalization keeps which tables a record reaches): exit 3, nothing written."""
    data = Data(cust=[(c, "a1") for c in range(4)], ord=[(0, 0, "d1"), (1, 0, "d2")], item=[(0, 0, "x")],
                orders=None, items=None)
    load(engine, data)
    cfg = config(data, engine.url, k=3, m=1, n=0)
    with pytest.raises(NoSolutionError, match="most general cut"):
        sqlanon.anonymize(parse_config(cfg))
    path = config_file(tmp_path, cfg)
    expect_error(["anonymize", str(path)], 3, "most general cut", "k=3", "m=1", "n=0")
    assert "trees" not in engine.tables()
    # k=1 would do, but is refused (2); at k=2 the top cut still fails: one record reaches orders.
    cfg["privacy"]["k"] = 2
    expect_error(["anonymize", str(config_file(tmp_path, cfg))], 3, "most general cut")


# -- 4. the verifier ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """A DuckDB file holding the k=2, m=2, n=1 release of ``varied()`` as ``trees`` (each test copies it)."""
    engine = Engine.duckdb(tmp_path_factory.mktemp("release") / "release.duckdb")
    load(engine, varied())
    result = sqlanon.anonymize(parse_config(config(varied(), engine.url, k=2, m=2, n=1)))
    assert result.verified is True and result.verification["largest_k"] >= 2
    yield engine
    engine.assert_sources_unchanged()


def _copy(engine: Engine, name: str) -> str:
    engine.execute(f"DROP TABLE IF EXISTS {quote(name)}")
    engine.execute(f"CREATE TABLE {quote(name)} AS SELECT * FROM trees")
    return name


def _trees(engine: Engine, table: str) -> dict[Any, frozenset]:
    return released(engine, quote(table))


def _check(engine: Engine, table: str, *args: Any) -> Any:
    return invoke("check", "--db", engine.url, "--table", table, "--trees", *args)


def _rare_label(engine: Engine, table: str) -> None:
    """All records holding a label held by several, but one, deleted: that label is held by one record."""
    attribute, value = engine.execute(
        f"SELECT attribute, value FROM {quote(table)} GROUP BY attribute, value "
        f"HAVING count(DISTINCT record_id) >= 2 ORDER BY count(DISTINCT record_id), attribute, value LIMIT 1")[0]
    holders = sorted(r[0] for r in engine.execute(
        f"SELECT DISTINCT record_id FROM {quote(table)} WHERE attribute = ? AND value IS NOT DISTINCT FROM ?",
        [attribute, value]))
    engine.execute(f"DELETE FROM {quote(table)} WHERE record_id IN ({', '.join(map(str, holders[1:]))})")


def _unique_value(engine: Engine, table: str) -> None:
    record, node = engine.execute(f"SELECT min(record_id), min(node_id) FROM {quote(table)} WHERE record_id = "
                                  f"(SELECT min(record_id) FROM {quote(table)})")[0]
    engine.execute(f"UPDATE {quote(table)} SET value = 'nobody else' WHERE record_id = ? AND node_id = ?",
                   [record, node])


def _missing_parent(engine: Engine, table: str) -> None:
    record, node = engine.execute(f"SELECT record_id, node_id FROM {quote(table)} WHERE parent_id IS NOT NULL "
                                  f"ORDER BY record_id, node_id LIMIT 1")[0]
    engine.execute(f"UPDATE {quote(table)} SET parent_id = 9999 WHERE record_id = ? AND node_id = ?", [record, node])


def _cycle(engine: Engine, table: str) -> None:
    """A node and its parent made each other's parent."""
    record, node, parent = engine.execute(
        f"SELECT record_id, node_id, parent_id FROM {quote(table)} WHERE parent_id IS NOT NULL "
        f"ORDER BY record_id, node_id LIMIT 1")[0]
    engine.execute(f"UPDATE {quote(table)} SET parent_id = ? WHERE record_id = ? AND node_id = ?",
                   [node, record, parent])


def _parent_in_another_record(engine: Engine, table: str) -> None:
    """A node's parent set to an id that only a larger record has."""
    largest = engine.execute(f"SELECT max(node_id) FROM {quote(table)}")[0][0]
    record, node = engine.execute(
        f"SELECT record_id, min(node_id) FROM {quote(table)} GROUP BY record_id HAVING max(node_id) < ? "
        f"ORDER BY record_id LIMIT 1", [largest])[0]
    engine.execute(f"UPDATE {quote(table)} SET parent_id = ? WHERE record_id = ? AND node_id = ?",
                   [largest, record, node])


def _repeated_id(engine: Engine, table: str) -> None:
    """A node written twice (same record, id, parent and label: the labels held stay the same)."""
    engine.execute(f"INSERT INTO {quote(table)} SELECT * FROM {quote(table)} WHERE record_id = "
                   f"(SELECT min(record_id) FROM {quote(table)}) AND parent_id IS NULL")


LABEL_TAMPERS = {"rare_label": _rare_label, "unique_value": _unique_value}
LINK_TAMPERS = {"missing_parent": _missing_parent, "parent_in_another_record": _parent_in_another_record,
                "cycle": _cycle, "repeated_id": _repeated_id}


def test_the_untampered_release_passes_and_agrees_with_the_oracle(release: Engine) -> None:
    table = _copy(release, "honest")
    trees = _trees(release, table)
    assert len(trees) == 12
    result = _check(release, table, "--m", 2, "--n", 1, "--k", 2)
    assert result.exit_code == 0, result.output
    assert "-> k^(m,n)-anonymous" in result.stdout and "NOT" not in result.stdout
    for m, n in [(1, 0), (2, 0), (2, 1), (3, 1), (3, 2), (4, 3)]:
        report = one_json_object(_check(release, table, "--m", m, "--n", n, "--json").stdout)
        assert report["largest_k"] == oracle.largest_k(trees, m, n), (m, n)
        assert report["records"] == 12 and report["broken_nodes"] == 0 and report["anonymous"] is True
    adapter = adapter_for_url(release.url)
    adapter.connect()
    try:
        audit = audit_trees(adapter, (table,), 2, 1, 2)
    finally:
        adapter.close()
    assert audit.anonymous and audit.combinations_below_k == 0
    assert audit.largest_k == oracle.largest_k(trees, 2, 1) >= 2
    assert audit.nodes == len(release.execute(f"SELECT * FROM {quote(table)}"))


@pytest.mark.parametrize("tamper", sorted(LABEL_TAMPERS))
def test_a_label_made_rare_is_reported(release: Engine, tamper: str) -> None:
    table = _copy(release, f"t_{tamper}")
    LABEL_TAMPERS[tamper](release, table)
    trees = _trees(release, table)
    assert oracle.largest_k(trees, 2, 1) == 1
    result = _check(release, table, "--m", 2, "--n", 1, "--k", 2)
    assert result.exit_code == 3, result.output
    assert "NOT k^(m,n)-anonymous" in result.stdout
    for m, n in [(1, 0), (2, 1), (3, 2)]:
        report = one_json_object(_check(release, table, "--m", m, "--n", n, "--k", 2, "--json").stdout)
        assert report["largest_k"] == oracle.largest_k(trees, m, n) == 1
        assert report["anonymous"] is False and report["broken_nodes"] == 0
        assert report["combinations_below_k"] == len(oracle.violations(trees, 2, m, n)) > 0
    # Without --k nothing is judged: exit 0, the largest k shown.
    loose = _check(release, table, "--m", 2, "--n", 1)
    assert loose.exit_code == 0 and "held by 0 or >= 1 records" in loose.stdout


@pytest.mark.parametrize("tamper", sorted(LINK_TAMPERS))
def test_broken_parent_links_are_reported(release: Engine, tamper: str) -> None:
    table = _copy(release, f"t_{tamper}")
    LINK_TAMPERS[tamper](release, table)
    with pytest.raises(ValueError):  # the oracle refuses such rows too
        _trees(release, table)
    result = _check(release, table, "--m", 2, "--n", 1, "--k", 2)
    assert result.exit_code == 3, result.output
    assert "NOT a table of trees" in result.stdout
    # Even without --k: a table of broken trees fails.
    report = one_json_object(_check(release, table, "--m", 2, "--n", 1, "--json").stdout)
    assert report["broken_nodes"] >= 1 and report["anonymous"] is False
    adapter = adapter_for_url(release.url)
    adapter.connect()
    try:
        audit = audit_trees(adapter, (table,), 2, 1, 2)
    finally:
        adapter.close()
    assert audit.broken_nodes >= 1 and not audit.anonymous


@pytest.mark.parametrize(("statement", "reason"), [
    ("UPDATE {out} SET value = 'tampered' WHERE record_id = 1 AND parent_id IS NULL",
     "held by fewer than k=2 records"),
    ("UPDATE {out} SET parent_id = 9999 WHERE record_id = 1 AND parent_id IS NULL", "nodes without a parent"),
    ("DELETE FROM {out} WHERE record_id = 1", "11 records written, 12 expected"),
])
def test_a_run_verifies_its_written_trees(duckdb_engine: Engine, monkeypatch: pytest.MonkeyPatch, statement: str,
                                          reason: str) -> None:
    """The run's own verification reads the written table: handed one that the search did not produce, it says
    so (status unverified)."""
    load(duckdb_engine, varied())
    with tampering(monkeypatch, statement):
        result = sqlanon.anonymize(parse_config(config(varied(), duckdb_engine.url, k=2, m=2, n=1)))
    assert result.verified is False and result.status == "unverified"
    assert result.verification["models_verified"] is False
    assert reason in result.verification["reason"], result.verification


@pytest.mark.spark  # check --trees runs there (Spark's array_position is 0 for an absent value, not NULL)
@pytest.mark.parametrize("part_nodes", [300_000, 7], ids=["one-slice", "slices"])
def test_audit_agrees_with_the_oracle_on_random_forests(engine: Engine, part_nodes: int, monkeypatch) -> None:
    """``audit_trees`` on random node tables (``oracle.random_forest``: repeated labels in a record, NULL values,
    classes skipped) against the oracle: the largest k and the combinations below k, for several m, n and k,
    in one statement per size or in slices of a few nodes; then one parent link broken."""
    monkeypatch.setattr("sqlanon.audit.trees.PART_NODES", part_nodes)
    classes = ["A", "B", "C", "D"]
    columns = {"record_id": "BIGINT", "node_id": "INTEGER", "parent_id": "INTEGER", "attribute": "VARCHAR",
               "value": "VARCHAR"}
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        for seed in range(12 if engine.name == "duckdb" else 3):
            rng = random.Random(seed)
            rows = oracle.random_forest(rng, rng.randint(1, 12), classes, values_per_class=rng.randint(1, 3),
                                        max_children=rng.randint(1, 3))
            table = f"forest{seed}_{part_nodes}"
            engine.create_table(table, columns, rows)
            trees = oracle.trees_from_nodes(rows, classes)
            for m, n in [(1, 0), (2, 0), (2, 1), (3, 2), (3, 3)]:
                k = rng.randint(2, 4)
                audit = audit_trees(adapter, (table,), m, n, k)
                assert (audit.records, audit.nodes, audit.broken_nodes) == (len(trees), len(rows), 0)
                assert audit.largest_k == oracle.largest_k(trees, m, n), (seed, m, n)
                assert audit.combinations_below_k == len(oracle.violations(trees, k, m, n)), (seed, m, n, k)
                assert audit.anonymous is ((audit.largest_k or 0) >= k)
        broken = list(rows)
        child = next(i for i, row in enumerate(broken) if row[2] is not None)
        broken[child] = (*broken[child][:2], 10**6, *broken[child][3:])
        engine.create_table(f"forest_broken_{part_nodes}", columns, broken)
        audit = audit_trees(adapter, (f"forest_broken_{part_nodes}",), 2, 1)
        assert audit.broken_nodes >= 1 and not audit.anonymous
    finally:
        adapter.close()


def test_check_trees_input_errors(duckdb_engine: Engine) -> None:
    engine = duckdb_engine
    engine.create_table("plain", {"id": "INTEGER", "value": "VARCHAR"}, [(1, "x")])
    engine.create_table("empty_trees", {"record_id": "BIGINT", "node_id": "INTEGER", "parent_id": "INTEGER",
                                        "attribute": "VARCHAR", "value": "VARCHAR"}, [])
    engine.create_table("one_tree", {"record_id": "BIGINT", "node_id": "INTEGER", "parent_id": "INTEGER",
                                     "attribute": "VARCHAR", "value": "VARCHAR"}, [(1, 1, None, "grp", "A")])
    base = ["check", "--db", engine.url, "--trees"]
    expect_error([*base, "--table", "plain"], 2, "--table", "not a table of trees", "record_id")
    expect_error([*base, "--table", "nosuch"], 2, "--table", "nosuch", "not found")
    expect_error([*base, "--table", "empty_trees"], 2, "has no rows")
    expect_error([*base, "--table", "one_tree", "--qi", "attribute"], 2, "--trees", "do not apply")
    expect_error([*base, "--table", "one_tree", "--sensitive", "value"], 2, "do not apply")
    expect_error([*base, "--table", "one_tree", "--m", 0], 2, "--m", "between 1 and 6")
    expect_error([*base, "--table", "one_tree", "--m", 7], 2, "--m")
    expect_error([*base, "--table", "one_tree", "--n", 4], 2, "--n", "between 0 and 3")
    expect_error([*base, "--table", "one_tree", "--n", -1], 2, "--n")
    expect_error([*base, "--table", "one_tree", "--k", 0], 2, "--k")
    # The one-record table: fine as a table of trees, and 1-anonymous only.
    assert _check(engine, "one_tree", "--k", 1).exit_code == 0
    assert _check(engine, "one_tree", "--k", 2).exit_code == 3


# -- 5. output.json -----------------------------------------------------------------------------------------------
def _rows_from_json(documents: list[dict[str, Any]]) -> list[tuple]:
    """Node rows (record_id, node_id, parent_id, attribute, value) of the JSON documents, ids made up."""
    rows: list[tuple] = []

    def walk(record: Any, parent: int | None, children: list[dict[str, Any]]) -> None:
        for node in children:
            assert set(node) <= {"attribute", "value", "children"} and {"attribute", "value"} <= set(node), node
            rows.append((record, len(rows) + 1, parent, node["attribute"], node["value"]))
            # The deepest class's nodes carry no "children" key (see the report): read as none.
            walk(record, len(rows), node.get("children", []))

    for doc in documents:
        walk(doc["record_id"], None, doc["children"])
    return rows


@pytest.mark.parametrize(("data", "null_kept"), [
    pytest.param(varied(), False, id="varied"),
    # NULL values in every class: some stay NULL in the release (a label of its own).
    pytest.param(Data(cust=[(c, [None, "a1", "b2"][c % 3]) for c in range(6)],
                      ord=[(o, o % 6, [None, "d1", "d4", "d6"][o % 4]) for o in range(12)],
                      item=[(i, i % 12, [None, "x", "z"][i % 3]) for i in range(24)], orders=None, items=None),
                 True, id="values-and-null"),
])
def test_output_json_gives_back_the_node_tables_trees(duckdb_engine: Engine, tmp_path: Path, data: Data,
                                                     null_kept: bool) -> None:
    load(duckdb_engine, data)
    out = tmp_path / "nested" / "trees.jsonl"
    result = sqlanon.anonymize(parse_config(config(data, duckdb_engine.url, k=2, m=2, n=1, json=str(out))))
    assert result.verified is True
    lines = out.read_text(encoding="utf-8").splitlines()
    documents = [json.loads(line) for line in lines]
    assert all(isinstance(d, dict) and set(d) == {"record_id", "children"} for d in documents)
    ids = [d["record_id"] for d in documents]
    assert ids == sorted(ids) and len(set(ids)) == len(ids) == len(data.cust)
    from_json = oracle.trees_from_nodes(_rows_from_json(documents), CLASSES)
    assert from_json == released(duckdb_engine)
    assert not list(out.parent.glob(".sqlanon-*")), "the temporary file is renamed, never left behind"
    if null_kept:  # NULL is a value of its own, released as JSON null
        values = {node[4] for node in _rows_from_json(documents)}
        assert None in values


# Not on Spark in the README's test command (SQLANON_TEST_SPARK=all runs them): a local Spark takes 112 s over
# the varied forest and ten minutes over the other (1,700 statements), too much for CI's time limit.
@pytest.mark.parametrize("data", [pytest.param(varied(), id="varied"), pytest.param(Data(
    cust=[(c, [None, "a1", "b2"][c % 3]) for c in range(6)],
    ord=[(o, o % 6, [None, "d1", "d4", "d6"][o % 4]) for o in range(12)],
    item=[(i, i % 12, [None, "x", "z"][i % 3]) for i in range(24)], orders=None, items=None), id="values-and-null")])
def test_output_documents_give_back_the_node_tables_trees(engine: Engine, data: Data) -> None:
    """output.documents on every engine: a table of one JSON document per record (DuckDB's JSON, PostgreSQL's
    jsonb), the same documents as output.json, from which the node table's trees come back."""
    load(engine, data)
    result = sqlanon.anonymize(parse_config(config(data, engine.url, k=2, m=2, n=1, documents="tree_docs")))
    assert result.verified is True
    rows = engine.execute("SELECT record_id, document FROM tree_docs ORDER BY record_id")
    documents = [d if isinstance(d, dict) else json.loads(d) for _, d in rows]
    assert [d["record_id"] for d in documents] == [r for r, _ in rows]
    assert len(documents) == len(data.cust)
    assert all(set(d) == {"record_id", "children"} for d in documents)
    assert oracle.trees_from_nodes(_rows_from_json(documents), CLASSES) == released(engine)


def test_output_json_escapes_labels_and_takes_any_file_name(duckdb_engine: Engine, tmp_path: Path) -> None:
    """Labels with quotes, a backslash, a line break and non-ASCII letters, a file name with quotes (COPY takes
    no bound file name); classes that no record reaches (empty child tables)."""
    odd = ['a "q"', "b\\s", "c\nnl", "ü€"]
    data = Data(cust=[(c, odd[c % 4]) for c in range(8)], ord=[], item=[], orders=None, items=None)
    load(duckdb_engine, data)
    out = tmp_path / "it's \"odd\".jsonl"
    cfg = config(data, duckdb_engine.url, k=2, m=2, n=1, json=str(out))
    cfg["records"]["attributes"]["grp"]["hierarchy"] = {"inline": {v: [f"{v}!", "*"] for v in odd}}
    assert sqlanon.anonymize(parse_config(cfg)).verified is True
    documents = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(documents) == 8
    assert oracle.trees_from_nodes(_rows_from_json(documents), CLASSES) == released(duckdb_engine)
    assert {d["children"][0]["value"] for d in documents} <= {*odd, *(f"{v}!" for v in odd), "*"}


# -- 6. the SQL templates with the paper's values ------------------------------------------------------------------
@pytest.fixture
def adapter(engine: Engine) -> Iterator[Any]:
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        yield adapter
    finally:
        adapter.close()


def _array(adapter: Any, path: list[int]) -> str:
    items = ", ".join(str(int(x)) for x in path)
    return f"array({items})" if adapter.name == "spark" else f"ARRAY[{items}]"


def _dgh_table(adapter: Any) -> str:
    text = "STRING" if adapter.name == "spark" else "VARCHAR"
    return f"CREATE TABLE dgh (id INTEGER, cls INTEGER, lvl INTEGER, label {text}, parent INTEGER, width INTEGER)"


def _paths_table(adapter: Any, name: str, records: dict[int, list[list[int]]]) -> None:
    array_type = "ARRAY<INT>" if adapter.name == "spark" else "INTEGER[]"
    adapter.execute(f"CREATE TABLE {adapter.quote_identifier(name)} (rid BIGINT, path {array_type})")
    values = [f"({rid}, {_array(adapter, p)})" for rid, paths in records.items() for p in paths]
    adapter.execute(f"INSERT INTO {adapter.quote_identifier(name)} VALUES " + ", ".join(values))


def _read_paths(adapter: Any, name: str) -> dict[int, list[tuple[int, ...]]]:
    out: dict[int, list[tuple[int, ...]]] = {}
    for rid, path in adapter.execute(f"SELECT rid, path FROM {adapter.quote_identifier(name)}"):
        out.setdefault(int(rid), []).append(tuple(int(x) for x in path))
    return {rid: sorted(paths) for rid, paths in out.items()}


#: Example 1's labels: A has 12 values, B and C 6 (|C(u)| of the values); ids as create_dgh numbers them (class
#: first). The DGH's inner nodes play no part in RPD.
EXAMPLE_NODES = {"a1": (1, 0, 12), "a2": (2, 0, 12), "a3": (3, 0, 12), "b1": (4, 1, 6), "b2": (5, 1, 6),
                 "c1": (6, 2, 6), "c2": (7, 2, 6)}
#: Example 1's records as leaf paths (the spec's factor lists: r1 = 1/3 * (1/(12*2*6) + 1/12 + 1/(12*2*6*3*6)).
EXAMPLE_RECORDS = {1: [["a1", "b1"], ["a2"], ["a1", "b2", "c1"]],
                   2: [["a1", "b1", "c1"], ["a1", "b1", "c2"], ["a2", "b2"], ["a3"]]}


def _rpd_a(records: dict[int, list[list[str]]], weights: dict[int, int]) -> tuple[float, int, int]:
    """Eq. 6-7's sum over the synopsis tree's leaf paths (supports over the product), its nodes and leaves."""
    support: Counter[tuple[str, ...]] = Counter()
    for rid, paths in records.items():
        if rid in weights:
            for prefix in {tuple(p[:i]) for p in paths for i in range(1, len(p) + 1)}:
                support[prefix] += weights[rid]
    leaves = [p for p in support if not any(len(q) > len(p) and q[:len(p)] == p for q in support)]
    total = sum(sum(support[leaf[:i]] for i in range(1, len(leaf) + 1))
                / math.prod(d * EXAMPLE_NODES[x][2] for d, x in enumerate(leaf, start=1)) for leaf in leaves)
    return total, len(support), len(leaves)


@pytest.mark.spark
def test_measure_rpd_gives_example_1(adapter: Any) -> None:
    r1 = 1 / 3 * (1 / (1 * 12 * 2 * 6) + 1 / (1 * 12) + 1 / (1 * 12 * 2 * 6 * 3 * 6))
    r2 = 1 / 4 * (2 / (1 * 12 * 2 * 6 * 3 * 6) + 1 / (1 * 12 * 2 * 6) + 1 / (1 * 12))
    assert (round(r1, 4), round(r2, 4)) == (0.0302, 0.0228)
    adapter.execute(_dgh_table(adapter))
    adapter.execute("INSERT INTO dgh VALUES " + ", ".join(
        f"({i}, {cls}, 0, '{label}', 0, {width})" for label, (i, cls, width) in EXAMPLE_NODES.items()))
    _paths_table(adapter, "paths", {rid: [[EXAMPLE_NODES[x][0] for x in p] for p in paths]
                                    for rid, paths in EXAMPLE_RECORDS.items()})
    for weights, expected in [({1: 1}, r1), ({2: 1}, r2), ({1: 1, 2: 1}, (r1 + r2) / 2),
                              ({1: 3, 2: 1}, (3 * r1 + r2) / 4)]:
        adapter.drop_tables(["weights"])  # (Spark's tables take no DELETE)
        adapter.execute("CREATE TABLE weights (rid BIGINT, weight BIGINT)")
        adapter.execute("INSERT INTO weights VALUES " + ", ".join(f"({r}, {w})" for r, w in weights.items()))
        depth = max(len(p) for paths in EXAMPLE_RECORDS.values() for p in paths)
        rpd, rpd_a, records, nodes, leaves = adapter.run(T + "measure_rpd.sql.j2", paths="paths", dgh="dgh",
                                                         weights="weights", depth=depth)[0]
        assert math.isclose(float(rpd), expected, rel_tol=1e-12), weights
        assert int(records) == sum(weights.values())
        total, synopsis_nodes, synopsis_leaves = _rpd_a(EXAMPLE_RECORDS, weights)
        assert (int(nodes), int(leaves)) == (synopsis_nodes, synopsis_leaves), weights
        assert math.isclose(float(rpd_a), total, rel_tol=1e-12), weights
    # The oracle agrees on both records.
    size = {"a": 12, "b": 6, "c": 6}
    for rid, expected in ((1, r1), (2, r2)):
        paths = [tuple((x[0], x) for x in p) for p in EXAMPLE_RECORDS[rid]]
        assert math.isclose(oracle.rpd_record(paths, lambda label: size[label[0]]), expected, rel_tol=1e-12)


@pytest.mark.spark
def test_the_rpd_bound_counts_the_leaves_a_disassociation_lifts(adapter: Any) -> None:
    """``rpd_bound.sql.j2`` with ``lifted`` (cuts that may disassociate, every record's paths equally long): one
    record with a path through two wide labels, g -> D -> x (|C| 100 each), and one through narrow ones,
    g -> d -> z. The leaf-path bound alone, (1/6 + 1/60,000) / 2, is above the record's RPD once D ~> x is
    disassociated: the leaves g -> D and g -> x are each 1/200, and (1/200 + 1/200 + 1/6) / 3 = 0.0589. With the
    lifted leaves counted (at least 1 / (1 * 2 * 100), the path less its last node), the bound is below it."""
    g, wide_d, narrow_d, wide_x, narrow_z = 1, 2, 3, 4, 5
    adapter.execute(_dgh_table(adapter))
    adapter.execute("INSERT INTO dgh VALUES (1, 0, 0, 'g', 0, 1), (2, 1, 0, 'D', 0, 100), (3, 1, 0, 'd', 0, 1), "
                    "(4, 2, 0, 'x', 0, 100), (5, 2, 0, 'z', 0, 1)")
    adapter.execute("CREATE TABLE cutmap (leaf INTEGER, gen INTEGER)")
    adapter.execute("INSERT INTO cutmap VALUES " + ", ".join(f"({i}, {i})" for i in range(1, 6)))
    _paths_table(adapter, "source", {1: [[g, wide_d, wide_x], [g, narrow_d, narrow_z]]})
    _paths_table(adapter, "lifted", {1: [[g, wide_d], [g, wide_x], [g, narrow_d, narrow_z]]})
    expected = {1: sorted([(g, wide_d), (g, wide_x), (g, narrow_d, narrow_z)])}
    assert {1: sorted(disassociated_paths({(g, wide_d, wide_x), (g, narrow_d, narrow_z)}, wide_d, wide_x))} == expected
    rpd = float(adapter.run(T + "measure_rpd.sql.j2", paths="lifted", dgh="dgh", weights=None, depth=3)[0][0])
    assert math.isclose(rpd, (1 / 200 + 1 / 200 + 1 / 6) / 3, rel_tol=1e-12)

    def bound(**kwargs: Any) -> float:
        return float(adapter.run(T + "rpd_bound.sql.j2", paths="source", map="cutmap", dgh="dgh", depth=3, open=[],
                                 **kwargs)[0][0])

    leaves_only = bound(leaves=True)
    assert math.isclose(leaves_only, (1 / 6 + 1 / 60000) / 2, rel_tol=1e-12)
    assert leaves_only > rpd  # the bound of cuts without disassociations does not hold for this one
    assert math.isclose(bound(leaves=True, lifted=True), 1 / 200, rel_tol=1e-12)
    assert bound(leaves=True, lifted=True) <= rpd
    assert math.isclose(bound(leaves=False), 1 / 60000, rel_tol=1e-12)  # the least general path's


@pytest.mark.spark
def test_disassociate_and_project_paths(adapter: Any) -> None:
    """Definition 2 on p -> a -> x -> b -> y with a ~> b: b's children move up to b's parent ([p, a, x, y]) and
    b becomes a sibling of a ([p, b]); paths without both are kept; copies and proper prefixes then merge."""
    p, a, x, b, y, z, w = 1, 2, 3, 4, 5, 6, 7
    _paths_table(adapter, "src", {
        1: [[p, a, x, b, y]],                     # the definition's case
        2: [[p, a, x]],                           # no b: unchanged
        3: [[a, x, b]],                           # a at the root, b a leaf: b becomes a root's child
        4: [[p, a, b, y], [p, a, z]],             # b right under a; a's other subtree untouched
        5: [[p, a, x, b], [p, a, w, b]],          # two b under a: one copy of [p, b] survives
        6: [[p, x, b, y], [p, b, y]],             # b without a: unchanged
        7: [[p, a, b, y], [p, b, y]],             # [p, b] made is a prefix of [p, b, y]: dropped
        8: [[p, a, b]],                           # not in ``only``: neither rewritten nor written
    })
    # Only the records of ``only`` are rewritten (and written): all but record 8 here.
    adapter.execute("CREATE TABLE holders (rid BIGINT)")
    adapter.execute("INSERT INTO holders VALUES (1), (2), (3), (4), (5), (6), (7)")
    adapter.run(T + "disassociate.sql.j2", table="moved", paths="src", rules=[(a, b)], depth=5, only="holders")
    adapter.run(T + "project_paths.sql.j2", table="merged", paths="moved", map=None, depth=5)
    assert _read_paths(adapter, "merged") == {
        1: [(p, a, x, y), (p, b)],
        2: [(p, a, x)],
        3: [(a, x), (b,)],
        4: [(p, a, y), (p, a, z), (p, b)],
        5: [(p, a, x), (p, a, w), (p, b)],
        6: [(p, x, b, y), (p, b, y)],
        7: [(p, a, y), (p, b, y)],
    }


def test_a_round_of_disassociations_at_once_is_them_one_after_the_other(adapter: Any) -> None:
    """disassociate.sql.j2 applies a round's relations in one statement; on random trees and random rounds (as
    ``_round`` takes them: distinct lower labels, no lower label another's upper one) that is the same as
    applying them one at a time in Python, in any order."""
    rng = random.Random(3)
    depth, labels = 5, list(range(1, 13))
    for trial in range(30):
        records = {}
        for rid in range(1, 9):
            paths = {tuple(sorted(rng.sample(labels, rng.randint(1, depth)))) for _ in range(rng.randint(1, 4))}
            records[rid] = sorted(q for q in paths if not any(len(r) > len(q) and r[:len(q)] == q for r in paths))
        rules: list[tuple[int, int]] = []
        for _ in range(rng.randint(1, 5)):
            a, b = sorted(rng.sample(labels, 2))
            if b not in {x for r in rules for x in r} and a not in {r[1] for r in rules}:
                rules.append((a, b))
        expected = {}
        for rid, paths in records.items():
            trees = set(paths)
            for a, b in (rules if trial % 2 else reversed(rules)):
                trees = disassociated_paths(trees, a, b)
            expected[rid] = sorted(trees)
        names = [f"src{trial}", f"who{trial}", f"moved{trial}", f"merged{trial}"]
        _paths_table(adapter, names[0], {rid: [list(q) for q in qs] for rid, qs in records.items()})
        adapter.execute(f"CREATE TABLE {adapter.quote_identifier(names[1])} AS SELECT DISTINCT rid "
                        f"FROM {adapter.quote_identifier(names[0])}")
        adapter.run(T + "disassociate.sql.j2", table=names[2], paths=names[0], rules=rules, depth=depth,
                    only=names[1])
        adapter.run(T + "project_paths.sql.j2", table=names[3], paths=names[2], map=None, depth=depth)
        assert _read_paths(adapter, names[3]) == expected, (rules, records)


@pytest.mark.spark
def test_project_paths_drops_proper_prefixes_and_copies(adapter: Any) -> None:
    _paths_table(adapter, "raw", {
        1: [[1, 2], [1, 2, 3], [1, 2, 3], [1, 4]],
        2: [[1, 2]],                               # a prefix of another record's path is kept
        3: [[5], [5, 6], [5, 6, 7], [5, 8]],
    })
    adapter.run(T + "project_paths.sql.j2", table="projected", paths="raw", map=None, depth=3)
    assert _read_paths(adapter, "projected") == {1: [(1, 2, 3), (1, 4)], 2: [(1, 2)], 3: [(5, 6, 7), (5, 8)]}
    # Through a cut's map: siblings that become equal merge, and a leaf that became internal is no path (the
    # spec's pitfall: [H1, Flu] and [H1, Bronchitis, Antibiotics] under Flu, Bronchitis -> LD give one path).
    h1, flu, bronchitis, antibiotics, ld = 1, 2, 3, 4, 10
    _paths_table(adapter, "records", {1: [[h1, flu], [h1, bronchitis, antibiotics]], 2: [[h1, flu]]})
    adapter.execute("CREATE TABLE cutmap (leaf INTEGER, gen INTEGER)")
    adapter.execute(f"INSERT INTO cutmap VALUES ({h1}, {h1}), ({flu}, {ld}), ({bronchitis}, {ld}), "
                    f"({antibiotics}, {antibiotics})")
    adapter.run(T + "project_paths.sql.j2", table="cut", paths="records", map="cutmap", depth=3)
    assert _read_paths(adapter, "cut") == {1: [(h1, ld, antibiotics)], 2: [(h1, ld)]}


#: Example 3's shape: class A with values a0 under a1 under a2 under its top a* (3 levels above its values), class B
#: with the value b0 under its top b*. Ids as create_dgh numbers them: class first, top first.
ML2_DGH = [  # id, cls, lvl, label, parent, width
    (1, 0, 3, "*", 0, 1), (2, 0, 2, "a2", 1, 1), (3, 0, 1, "a1", 2, 1), (4, 0, 0, "a0", 3, 1),
    (5, 1, 1, "*", 0, 1), (6, 1, 0, "b0", 5, 1),
]


def _ml2(adapter: Any, released: dict[int, list[list[int]]]) -> tuple[int, int, float]:
    adapter.execute(_dgh_table(adapter))
    adapter.execute("INSERT INTO dgh VALUES " + ", ".join(
        f"({i}, {c}, {lvl}, '{label}', {p}, {w})" for i, c, lvl, label, p, w in ML2_DGH))
    adapter.run(T + "create_ancestors.sql.j2", table="anc", dgh="dgh", max_height=4)
    # The cut: A's top and a2 expanded (a0 released as a1, one level of three up), B's top expanded (b0 kept).
    adapter.run(T + "create_cut_map.sql.j2", table="cutmap", ancestors="anc", dgh="dgh", expanded=[0, 1, 2, 5])
    _paths_table(adapter, "source", {1: [[4, 6]]})
    _paths_table(adapter, "released", released)
    context = {"lifted": "lifted", "frequent": "frequent", "source": "source", "released": "released",
               "ancestors": "anc", "dgh": "dgh",
               "map": "cutmap", "heights": {0: 4, 1: 2}, "levels": 4, "support": 1,
               "depth": 2}  # the longest path: the source's
    adapter.drop_tables(["lifted", "frequent"])
    total, kept, dtree = ml2_counts(adapter, context)
    return total, kept, float(dtree or 0.0)


@pytest.mark.spark
def test_measure_ml2_gives_example_3(adapter: Any) -> None:
    """One record, a0 ~> b0. The source's frequent rooted paths, one per level i = 0..3 and length: [a0], [a0, b0];
    [a1], [a1, b*]; [a2], [a2, b*]; [a*], [a*, b*] (8). The release shows a0 as a1: dtree([a0]) = 1/2 * (1/3) / 1
    = 0.1667 and Example 3's dtree([a0, b0]) = 1/2 * (1/3) / 2 + 0 = 0.083; the paths at levels 1-3 lose nothing.
    With b0 disassociated from a1, [a0, b0] costs Example 3's 0.583, and each [x, b*] above loses its relation: 0.5
    three times."""
    total, kept, dtree = _ml2(adapter, {1: [[3, 6]]})
    assert total == 8
    assert kept == 6  # [a0] and [a0, b0] are not in the release; the six above are
    assert math.isclose(dtree, 0.5 * (1 / 3) + 0.5 * (1 / 3) / 2, rel_tol=1e-9)
    assert math.isclose(0.5 * (1 / 3) / 2, 0.083, abs_tol=5e-4)
    adapter.execute("DROP TABLE dgh")
    adapter.execute("DROP TABLE anc")
    adapter.execute("DROP TABLE cutmap")
    adapter.execute("DROP TABLE source")
    adapter.execute("DROP TABLE released")
    total, kept, dtree = _ml2(adapter, {1: [[3], [6]]})
    assert total == 8
    example = 0.5 * (1 / 3) / 2 + 0.5 * 1 / 1
    assert math.isclose(example, 0.583, abs_tol=5e-4)
    assert math.isclose(dtree, 0.5 * (1 / 3) + example + 3 * 0.5, rel_tol=1e-9)


@pytest.mark.parametrize("key", ["paths", "documents"])
def test_an_existing_path_table_is_replaced_only_when_asked(duckdb_engine: Engine, tmp_path: Path, key: str) -> None:
    data = plain()
    load(duckdb_engine, data)
    duckdb_engine.execute("CREATE TABLE kept_paths (x INTEGER)")
    cfg = config(data, duckdb_engine.url, k=2, m=2, n=1, **{key: "kept_paths"})
    cfg["output"]["if_exists"] = "fail"
    path = config_file(tmp_path, cfg)
    expect_error(["anonymize", str(path)], 2, str(path), f"output.{key}", "kept_paths")
    assert duckdb_engine.execute("SELECT count(*) FROM kept_paths") == [(0,)]
    assert "trees" not in duckdb_engine.tables()
