"""A hierarchy coded in Python (hierarchy/encoding.py) is checked and coded exactly as the database does it.

Small hierarchy files and inline mappings are checked, described and coded in Python; large files, tables and
builders by survey_hierarchy (validate_hierarchy where the survey finds no plain tree), describe_hierarchy,
add_null_row and encode_hierarchy in SQL. Random hierarchies (trees, and trees with a cell changed: two labels
for a value, two parents for a label, a missing label; duplicate rows; explicit NULL mappings) go through
both, on both engines.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.engines import adapter_for_url
from sqlanon.hierarchy import encoding
from sqlanon.hierarchy.loading import describe_lookup, is_plain_tree
from tests.helpers import Engine, invoke, one_json_object, write_config

#: Byte order differs from linguistic order here ('B' < 'a' < 'b' < 'é'); '' is a label like any other.
LABELS = ["a", "b", "B", "é", "", "*", "x y"]


@st.composite
def hierarchies(draw) -> tuple[int, list[list[str | None]]]:
    height = draw(st.integers(1, 4))
    values = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=7))  # repeats: duplicate rows
    rows: list[list[str | None]] = [[v, v] for v in values]
    for _ in range(1, height):
        parent = {label: draw(st.sampled_from(LABELS)) for label in sorted({row[-1] for row in rows})}
        rows = [[*row, parent[row[-1]]] for row in rows]
    for _ in range(draw(st.integers(0, 2))):  # explicit NULL mappings
        rows.append([None, None, *draw(st.lists(st.sampled_from(LABELS), min_size=height - 1, max_size=height - 1))])
    for _ in range(draw(st.integers(0, 2))):  # a cell changed: the tree may break
        row = draw(st.sampled_from(rows))
        j = draw(st.integers(1, height))
        row[j] = draw(st.sampled_from([*LABELS, None]))
    return height, rows


def _sql_side(adapter, rows: list[list[str | None]], height: int, data: dict | None = None):
    """What the database makes of the rows: problems, description, and the coded rows when it codes them
    (those of the values in ``data``'s source column alone, when given). A hierarchy the survey finds a plain
    tree has no problems, and is coded the same by the survey's shortcut (``unique``) as without it."""
    raw = f"h_{secrets.token_hex(4)}"
    adapter.run("create_lookup_table.sql.j2", table=raw, height=height)
    adapter.bulk_insert(adapter.quote_identifier(raw), height + 1, rows)
    sequences = f"{raw}_sequences"
    plain = height > 1 and is_plain_tree(adapter, raw, height, sequences)  # as _code_in_database asks
    problems = adapter.run("validate_hierarchy.sql.j2", lookup=raw, source=None, column="x", height=height, limit=20)
    assert plain == _plain_tree(rows, height), (plain, rows)
    if problems:
        return problems, None, None
    description = describe_lookup(adapter, raw, height)
    if height > 1:  # the label sequences tell the same, any hierarchy
        assert describe_lookup(adapter, raw, height, sequences) == description
    leaves, null_rows, top_labels, top_label = description
    if leaves == 0 or null_rows > 1 or (null_rows == 0 and top_labels != 1):
        return problems, description, None
    if null_rows == 0:
        adapter.run("add_null_row.sql.j2", lookup=raw, height=height, top_label=top_label)
    codings = []
    for unique in (False, True) if plain else (False,):
        coded = f"c_{secrets.token_hex(4)}"
        adapter.run("encode_hierarchy.sql.j2", lookup=raw, coded=coded, height=height,
                    null_explicit=null_rows == 1, leaves=leaves, unique=unique, data=data,
                    sequences=sequences if unique else None,
                    null_sequence=top_label if unique and null_rows == 0 else None)
        rows_coded = adapter.execute(f"SELECT * FROM {adapter.quote_identifier(coded)}")
        codings.append(sorted((tuple(r) for r in rows_coded), key=_key))
    assert codings[0] == codings[-1]
    return problems, description, codings[0]


def _plain_tree(rows: list[list[str | None]], height: int) -> bool:
    """What is_plain_tree says of the rows (as _code_in_database asks it: above height 1): a tree to
    well_formed, every value on one row, l0 equal to the value, and at most one NULL row."""
    values = [row[0] for row in rows]
    return (height > 1 and encoding.well_formed(rows, height) and all(row[1] == row[0] for row in rows)
            and values.count(None) <= 1 and len(set(values)) == len(values))


def _key(row: tuple) -> list:
    return [(v is None, v if isinstance(v, int) else str(v or "")) for v in row]


# Not marked spark: 60 and 40 examples of a few statements each take minutes on a local Spark (README, Tests).
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=hierarchies())
def test_python_checks_and_codes_a_hierarchy_as_the_database_does(engine: Engine, case) -> None:
    height, rows = case
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        problems, description, coded = _sql_side(adapter, rows, height)
    finally:
        adapter.close()
    assert encoding.well_formed(rows, height) == (not problems), problems
    if description is None:
        return
    ours = encoding.describe(rows)
    assert (ours.leaves, ours.null_rows, ours.top_labels) == tuple(int(v) for v in description[:3])
    if ours.top_labels == 1:
        assert ours.top_label == description[3]
    if coded is None:
        return
    with_null = rows if ours.null_rows else [*rows, [None] * height + [ours.top_label]]
    mine = encoding.encode(with_null, height, null_explicit=ours.null_rows == 1)
    assert sorted(mine, key=_key) == sorted((tuple(r) for r in coded), key=_key)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=hierarchies(), draw=st.data())
def test_coding_the_values_of_the_data_alone_renumbers_the_full_coding(engine: Engine, case, draw) -> None:
    """Rows of the data's values (and the NULL row) as the full coding has them, with Loss weights that count
    every row of the hierarchy, and codes numbered among the labels kept, in the same order."""
    height, rows = case
    values = sorted({row[0] for row in rows if row[0] is not None})
    kept = draw.draw(st.lists(st.sampled_from(values), max_size=8)) if values else []
    table = f"data_{secrets.token_hex(4)}"
    engine.create_table(table, {"v": "VARCHAR"}, [(v,) for v in kept] + [(None,)])
    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        _, _, full = _sql_side(adapter, rows, height)
        _, _, coded = _sql_side(adapter, rows, height, data={"source": (table,), "column": "v"})
    finally:
        adapter.close()
    if full is None:
        return  # not a tree: nothing is coded
    by_value = {row[0]: row for row in full}  # one row per value in a tree (duplicate rows are identical)
    assert sorted((row[0] for row in coded), key=_key_of) == sorted({*kept, None}, key=_key_of)
    codes = [3 + 3 * j for j in range(height)]
    for row in coded:  # value, match key, labels and weights
        assert [v for i, v in enumerate(row) if i not in codes] == \
               [v for i, v in enumerate(by_value[row[0]]) if i not in codes]
    for g in codes:
        ranks = {code: rank for rank, code in enumerate(sorted({by_value[row[0]][g] for row in coded}), start=1)}
        assert all(row[g] == ranks[by_value[row[0]][g]] for row in coded)


def _key_of(value: str | None) -> tuple[bool, str]:
    return value is None, value or ""


def test_codes_follow_byte_order_with_null_last() -> None:
    rows = [["b", "b", "*"], ["B", "B", "*"], ["é", "é", "*"], ["a", "a", "*"], [None, None, "*"]]
    coded = {row[0]: row for row in encoding.encode(rows, 2, null_explicit=True)}
    assert [coded[v][3] for v in ("B", "a", "b", "é", None)] == [1, 2, 3, 4, 5]
    assert coded[None][1] == "N" and coded["a"][1] == "Va"
    assert [coded[v][6] for v in ("B", None)] == [1, 1] and coded["a"][7] == 3  # top: 4 leaves carry '*'
    assert coded[None][4] == 0  # a NULL label costs nothing


def _people(engine: Engine, tmp_path: Path, hierarchy_text: str) -> Path:
    engine.create_table("people", {"code": "VARCHAR"}, [(c,) for c in "aaabbbccccc"])
    (tmp_path / "code.csv").write_text(hierarchy_text, encoding="utf-8")
    return write_config(tmp_path / "c.yaml", {
        "source": {"url": engine.url, "table": "people"},
        "output": {"table": "people_out"},
        "attributes": {"code": {"role": "quasi_identifier", "hierarchy": {"csv": "code.csv"}}},
        "privacy": {"k": 5, "suppression_limit": 0},
    })


@pytest.mark.spark
@pytest.mark.parametrize("large", [False, True], ids=["coded in Python", "coded by the database"])
def test_a_broken_hierarchy_is_worded_the_same_either_way(
    engine: Engine, tmp_path: Path, monkeypatch, large: bool
) -> None:
    """Python finds that the file is no tree; the database words the problems, as for a large file."""
    if large:
        monkeypatch.setattr("sqlanon.hierarchy.loading.PYTHON_FILE_BYTES", 0)
    config = _people(engine, tmp_path, "a;ab;*\nb;ab;*\nb;bc;*\nc;bc;+\n")
    result = invoke("anonymize", config)
    assert result.exit_code == 2, result.output
    assert "attributes.code.hierarchy (file code.csv): 1 value(s) map to more than one value at a level: " \
           "'b' (level 1)" in result.output
    assert "inconsistent levels, 2 label(s) have more than one parent at the next level: 'b' (level 0 -> 1), " \
           "'bc' (level 1 -> 2)" in result.output


@pytest.mark.spark
@pytest.mark.parametrize("large", [False, True], ids=["coded in Python", "coded by the database"])
def test_the_same_optimum_either_way(engine: Engine, tmp_path: Path, monkeypatch, large: bool) -> None:
    if large:
        monkeypatch.setattr("sqlanon.hierarchy.loading.PYTHON_FILE_BYTES", 0)
    config = _people(engine, tmp_path, "a;ab;*\nb;ab;*\nc;c;*\n")
    templates: list[str] = []
    cls = type(adapter_for_url(engine.url))
    original = cls.run

    def spy(self, template: str, **context):
        templates.append(template)
        return original(self, template, **context)

    monkeypatch.setattr(cls, "run", spy)
    result = invoke("anonymize", config, "--json")
    assert result.exit_code == 0, result.output
    report = one_json_object(result.stdout)
    assert report["transformation"] == {"code": 1} and report["verified"] is True
    sql_coding = {"load_csv_hierarchy.sql.j2", "survey_hierarchy.sql.j2", "encode_hierarchy.sql.j2"}
    assert sql_coding <= set(templates) if large else not sql_coding & set(templates)
    assert "validate_hierarchy.sql.j2" not in templates  # a plain tree: Python's checks, or the survey's
    assert ("create_coded_table.sql.j2" in templates) is not large


@pytest.mark.spark
def _encodings(monkeypatch, engine: Engine) -> list[dict | None]:
    """The ``data`` of every encode_hierarchy.sql.j2 the runs render (None: every hierarchy row coded)."""
    seen: list[dict | None] = []
    cls = type(adapter_for_url(engine.url))
    original = cls.run

    def spy(self, template: str, **context):
        if template == "encode_hierarchy.sql.j2":
            seen.append(context["data"])
        return original(self, template, **context)

    monkeypatch.setattr(cls, "run", spy)
    return seen


@pytest.mark.spark
def test_a_small_source_has_its_values_coded_alone_with_the_same_result(
    engine: Engine, tmp_path: Path, monkeypatch
) -> None:
    """11 rows, a hierarchy of 5 rows and height 3: the database codes the values of the data alone. 'cd'
    covers c and d, so c weighs 1 at level 1 though d is not in the data; e is not in the data either, and
    the report's examples, taken from the hierarchy, still show it."""
    hierarchy = "a;ab;*\nb;ab;*\nc;cd;*\nd;cd;*\ne;e;*\n"
    config = _people(engine, tmp_path, hierarchy)
    outcomes = []
    for large in (False, True):
        if large:
            monkeypatch.setattr("sqlanon.hierarchy.loading.PYTHON_FILE_BYTES", 0)
        seen = _encodings(monkeypatch, engine)
        report = tmp_path / f"report-{large}.json"
        result = sqlanon.anonymize(config, dry_run=True, report=[report])
        outcomes.append((result.transformation, result.metrics, result.suppressed_rows))
        exact = ("public", "people") if engine.name == "postgres" else (engine.catalog, engine.schema, "people")
        assert seen == ([{"source": exact, "column": "code"}] if large else [])
        examples = json.loads(report.read_text(encoding="utf-8"))["attributes"][0]["examples"]
        assert ["e", "e"] in examples, examples
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == {"code": 1} and outcomes[0][1]["loss"] > 0


@pytest.mark.spark
def test_a_larger_source_has_every_hierarchy_row_coded(engine: Engine, tmp_path: Path, monkeypatch) -> None:
    """11 rows against 2 levels of 4 rows (the NULL row added): scanning the source would cost more."""
    monkeypatch.setattr("sqlanon.hierarchy.loading.PYTHON_FILE_BYTES", 0)
    config = _people(engine, tmp_path, "a;*\nb;*\nc;*\n")
    seen = _encodings(monkeypatch, engine)
    result = invoke("anonymize", config, "--json")
    assert result.exit_code == 0, result.output
    assert one_json_object(result.stdout)["verified"] is True
    assert seen == [None]


@pytest.mark.spark
def test_a_population_has_every_hierarchy_row_coded(engine: Engine, tmp_path: Path, monkeypatch) -> None:
    """delta-presence codes the population's values through the same table: d is in the population only."""
    monkeypatch.setattr("sqlanon.hierarchy.loading.PYTHON_FILE_BYTES", 0)
    config = _people(engine, tmp_path, "a;ab;*\nb;ab;*\nc;cd;*\nd;cd;*\n")
    engine.create_table("population", {"code": "VARCHAR"}, [(c,) for c in "aaaabbbbccccccdd"])
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["privacy"]["delta_presence"] = {"population_table": "population", "delta_min": 0, "delta_max": 1}
    write_config(config, data)
    seen = _encodings(monkeypatch, engine)
    result = invoke("anonymize", config, "--json")
    assert result.exit_code == 0, result.output
    assert one_json_object(result.stdout)["verified"] is True
    assert seen == [None]


def test_coded_tables_created_together_hold_what_each_alone_holds(engine: Engine) -> None:
    """Hierarchies coded in Python have their tables created together (DuckDB: one CSV read into a staging
    table, then a statement per table): the same rows and column types as one by one, NULLs and empty labels
    included, of different heights; the staging table is gone."""
    from sqlanon.hierarchy.loading import CodedRows

    trees = [
        (3, [["a", "a", "ab", "*"], ["b", "b", "ab", "*"], ["", "", "", "*"], [None, None, None, "*"]]),
        (1, [["x", "x"], [None, None]]),
        (2, [["é", "é", "*"], ["B", "B", "*"], [None, None, "*"]]),
    ]
    batches = {}
    adapter = adapter_for_url(engine.url)
    typeof = "CAST(pg_typeof({}) AS VARCHAR)" if engine.name == "postgres" else "typeof({})"
    adapter.connect()
    try:
        for together in (False, True):
            names = [f"c_{secrets.token_hex(4)}" for _ in trees]
            batch = [CodedRows(name, height, encoding.encode(rows, height, null_explicit=True))
                     for name, (height, rows) in zip(names, trees, strict=True)]
            staging = f"s_{secrets.token_hex(4)}"
            if together:
                adapter.create_coded_tables(batch, staging)
                assert not adapter.table_exists([staging])
            else:
                for coded in batch:
                    adapter.create_coded_tables([coded])
            types = ", ".join(typeof.format(column) for column in ("value", "match_key", "l0", "g0", "w0"))
            batches[together] = [
                (adapter.column_names([name]),
                 sorted((tuple(r) for r in adapter.execute(f"SELECT * FROM {adapter.quote_identifier(name)}")),
                        key=_key),
                 adapter.execute(f"SELECT {types} FROM {adapter.quote_identifier(name)} LIMIT 1"))
                for name in names
            ]
    finally:
        adapter.close()
    assert batches[True] == batches[False]
    assert [rows for _, rows, _ in batches[True]] == [sorted(coded, key=_key) for coded in (
        encoding.encode(rows, height, null_explicit=True) for height, rows in trees)]
