"""Configs as real users type them, fuzzed: keys dropped, duplicated, retyped, misspelled, hostile names.

Whatever the mutation, a run ends with exit 0 (the mutation left a valid config), 3 (valid, but no
transformation fits), or 2 with a message naming the config file: never a traceback or exit 1, never a
changed source, never a leftover table.
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.helpers import Engine, invoke

pytestmark = pytest.mark.spark

ROWS = [(i, 20 + i % 30, "F" if i % 3 else "M", f"{10000 + i % 7}", f"n{i}") for i in range(60)]
COLUMNS = {"id": "INTEGER", "age": "INTEGER", "sex": "VARCHAR", "zip": "VARCHAR", "name": "VARCHAR"}

HOSTILE = ["Robert'); DROP TABLE src;--", 'a"b', "%s", "?", "$1", "x.y.z.w", "", " ", "ünï", "src", "SRC",
           "main.src", '"src"', "\\", "${NOPE_NOT_SET}", "sqlanon.runs"]
VALUES: list[Any] = [None, 0, -1, 1, 2.5, "5", "", "text", [], {}, [1, 2], {"a": 1}, True, 10**20, "nan", *HOSTILE]


def base_config(url: str) -> dict[str, Any]:
    return {
        "source": {"url": url, "table": "src"},
        "output": {"table": "out", "if_exists": "fail", "suppressed_rows": "remove", "seed": 0.5},
        "attributes": {
            "id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10]}}, "max_level": 2},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "zip": {"role": "quasi_identifier", "hierarchy": {"mask": {"length": 5}}},
            "name": {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 2}}]},
        },
        "privacy": {"k": 3, "suppression_limit": 0.1, "null_handling": "extended"},
        "search": {"strategy": "flash", "metric": "loss"},
        "history": {"enabled": True, "schema": "sqlanon"},
    }


def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every key path of a nested dict/list config."""
    out = []
    if isinstance(data, dict):
        for key, value in data.items():
            out.append((*prefix, key))
            out.extend(paths(value, (*prefix, key)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out.append((*prefix, i))
            out.extend(paths(value, (*prefix, i)))
    return out


def parent_of(data: Any, path: tuple) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


@st.composite
def mutated_texts(draw: st.DrawFn, url: str) -> str:
    """A config's YAML text after one to three mutations."""
    data = base_config(url)
    for _ in range(draw(st.integers(1, 3))):
        every = paths(data)
        if not every:
            break
        path = draw(st.sampled_from(every))
        holder, last = parent_of(data, path), path[-1]
        action = draw(st.sampled_from(["drop", "retype", "misspell", "hostile"]))
        if action == "drop":
            del holder[last]
        elif action == "retype":
            holder[last] = copy.deepcopy(draw(st.sampled_from(VALUES)))
        elif action == "misspell" and isinstance(holder, dict):
            holder[str(last) + draw(st.sampled_from(["s", "_", "X", " "]))] = holder.pop(last)
        elif action == "hostile":
            holder[last] = draw(st.sampled_from(HOSTILE))
    text = yaml.safe_dump(data, sort_keys=False)
    if draw(st.booleans()):  # duplicate one `key: value` line in place: the YAML parser keeps the last
        lines = text.splitlines()
        candidates = [i for i, line in enumerate(lines) if ":" in line and not line.strip().startswith("-")]
        if candidates:
            i = draw(st.sampled_from(candidates))
            lines.insert(i + 1, lines[i])
            text = "\n".join(lines) + "\n"
    return text


def checksum(engine: Engine, table: str) -> str:
    rows = sorted(map(repr, engine.execute(f'SELECT * FROM "{table}"')))
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


@pytest.fixture
def fuzz_db(engine: Engine) -> Engine:
    engine.create_table("src", COLUMNS, ROWS)
    return engine


def run_one(engine: Engine, folder: Path, text: str, original: str) -> None:
    path = folder / "fuzzed.yaml"
    path.write_text(text, encoding="utf-8")
    result = invoke("anonymize", path, "--quiet")
    assert result.exit_code in (0, 2, 3), f"exit {result.exit_code} for\n{text}\n{result.output}"
    if result.exit_code == 2:
        assert str(path) in result.stderr, f"the message does not name the file:\n{result.stderr}\n{text}"
    assert checksum(engine, "src") == original, f"the source changed:\n{text}"
    leftovers = engine.tables() - {"src", "out"}
    assert not leftovers, f"left behind {leftovers}:\n{text}"
    if "out" in engine.tables():
        engine.execute('DROP TABLE "out"')


FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(data=st.data())
@example(data=None)  # the base config itself runs
def test_fuzzed_configs_fail_cleanly(fuzz_db: Engine, tmp_path: Path, data: st.DataObject | None) -> None:
    original = checksum(fuzz_db, "src")
    if data is None:
        text = yaml.safe_dump(base_config(fuzz_db.url), sort_keys=False)
        path = tmp_path / "base.yaml"
        path.write_text(text, encoding="utf-8")
        result = invoke("anonymize", path, "--quiet")
        assert result.exit_code == 0, result.output
        fuzz_db.execute('DROP TABLE "out"')
        return
    run_one(fuzz_db, tmp_path, data.draw(mutated_texts(fuzz_db.url)), original)


@pytest.mark.parametrize("line", ["  k: 3", "  age:\n    role: insensitive"])
def test_duplicated_keys_never_run(fuzz_db: Engine, tmp_path: Path, line: str) -> None:
    """The two silent misreadings the hardening trial found: k twice, and an attribute twice."""
    text = yaml.safe_dump(base_config(fuzz_db.url), sort_keys=False)
    anchor = "privacy:\n" if "k:" in line else "attributes:\n"
    text = text.replace(anchor, anchor + line + "\n", 1)
    path = tmp_path / "dup.yaml"
    path.write_text(text, encoding="utf-8")
    result = invoke("anonymize", path)
    assert result.exit_code == 2, result.output
    assert str(path) in result.stderr and "duplicate" in result.stderr.lower()
    assert "out" not in fuzz_db.tables()
