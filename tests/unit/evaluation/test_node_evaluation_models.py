"""Privacy models on sensitive attributes (issue 3) against the plain-Python oracle (tests/oracle_models.py).

Small random tables (2 quasi-identifiers, 0-30 rows, NULLs in quasi-identifiers and sensitive attributes,
1-2 sensitive attributes with random models and parameters, sometimes delta-presence against a population
table with extra rows), on DuckDB and PostgreSQL:

1. node evaluation in SQL gives the oracle's classes and suppressed records, per random node;
2. per model kind, flash and best_first find the exhaustive optimum (Loss and DM*), or all fail together;
3. the written table (remove and mask) passes a plain check of k and the class-local models;
4. config errors exit with code 2 and name what is wrong.

The engine fixture is function-scoped while hypothesis runs many examples per call, so every example
creates its own uniquely named tables.
"""

from __future__ import annotations

import itertools
import math
import secrets
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import sqlanon
from sqlanon.cli import main
from sqlanon.config import parse_config
from sqlanon.criteria import criteria_from_config
from sqlanon.errors import InputError, NoSolutionError
from sqlanon.evaluation import NodeEvaluator
from sqlanon.evaluation.tuning import tuning_for
from sqlanon.session import Session
from tests.helpers import prepare, write_config
from tests.oracle_models import Model, ModelOracle, Presence, Sensitive

QIS = ("qa", "qb")
SENSITIVE_NAMES = ("sa", "sb")
STRATEGIES = ("exhaustive", "flash", "best_first")
SEARCH_METRICS = ("loss", "dm_star")
#: Model kinds of test 2 (t-closeness once per distance; delta-presence is a privacy-level model).
KINDS = (
    "distinct_l_diversity", "entropy_l_diversity", "recursive_cl_diversity", "t_equal", "t_ordered",
    "t_hierarchical", "p_sensitivity", "alpha_k_anonymity", "k_e_anonymity", "kpqr_anonymity", "delta_presence",
)
SENSITIVE_KINDS = KINDS[:-1]
NUMERIC_ONLY = {"t_ordered", "k_e_anonymity", "kpqr_anonymity"}

_names = itertools.count()


def fresh(prefix: str) -> str:
    return f"{prefix}_{next(_names)}_{secrets.token_hex(3)}"


def close(actual: float, expected: float) -> bool:
    return math.isclose(actual, expected, rel_tol=1e-12, abs_tol=1e-15)


# -- random cases ------------------------------------------------------------------------------------


@st.composite
def tree(draw: st.DrawFn, name: str, leaves: list[Any], max_height: int) -> dict[Any, list[str]]:
    """A consistent random hierarchy over ``leaves``: groups level by level, a single '*' on top.
    Sometimes NULL is mapped explicitly: own labels up to some level, then the path of some leaf, or up to
    a top label of its own (a second root)."""
    height = draw(st.integers(2, max_height))
    paths: dict[Any, list[str]] = {leaf: [] for leaf in leaves}
    current = {leaf: str(leaf) for leaf in leaves}
    for level in range(1, height - 1):
        labels = sorted(set(current.values()))
        groups = draw(st.lists(st.integers(0, len(labels) - 1), min_size=len(labels), max_size=len(labels)))
        parent = {lab: f"{name}L{level}g{g}" for lab, g in zip(labels, groups, strict=True)}
        for leaf in leaves:
            current[leaf] = parent[current[leaf]]
            paths[leaf].append(current[leaf])
    for leaf in leaves:
        paths[leaf].append("*")
    mapping: dict[Any, list[str]] = dict(paths)
    if draw(st.integers(0, 3)) == 0:
        join = draw(st.integers(1, height))  # first level at which NULL joins a leaf's path (height: never)
        like = draw(st.sampled_from(leaves))
        mapping[None] = [f"{name}N{lvl}" if lvl < join else paths[like][lvl - 1] for lvl in range(1, height)]
    return mapping


def leaf_values(name: str, count: int, numeric: bool) -> list[Any]:
    return [7 * i - 5 for i in range(count)] if numeric else [f"{name}{i}" for i in range(count)]


@st.composite
def model_for(draw: st.DrawFn, kind: str, distinct: int) -> Model:
    """Random parameters, with edge values (l = number of distinct values, t = 0, alpha = 1, e = 0)."""
    nd = max(distinct, 1)
    if kind == "distinct_l_diversity":
        return Model(kind, {"l": draw(st.just(nd) | st.integers(1, nd + 1))})
    if kind == "p_sensitivity":
        return Model(kind, {"p": draw(st.just(nd) | st.integers(1, nd + 1))})
    if kind == "entropy_l_diversity":
        return Model(kind, {"l": draw(st.sampled_from([1, 1.5, 2, 2.5, 3, nd, nd]))})
    if kind == "recursive_cl_diversity":
        c = draw(st.sampled_from([0.5, 1, 1.5, 2, 3, 4]))
        return Model(kind, {"c": c, "l": draw(st.just(nd) | st.integers(1, 4))})
    if kind.startswith("t_"):
        t = draw(st.sampled_from([0, 0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.75, 1]))
        return Model("t_closeness", {"t": t, "distance": kind[2:]})
    if kind == "alpha_k_anonymity":
        return Model(kind, {"alpha": draw(st.sampled_from([0.25, 0.4, 0.5, 0.6, 0.75, 1, 1]))})
    if kind == "kpqr_anonymity":
        return Model(kind, {"p": draw(st.integers(1, nd + 1)), "q": draw(st.sampled_from([0.1, 0.2, 0.5, 1])),
                            "r": draw(st.sampled_from([0, 0.1, 0.3, 0.5, 1]))})
    assert kind == "k_e_anonymity"
    return Model(kind, {"e": draw(st.sampled_from([0, 0, 1, 2.5, 7, 10, 14, 30]))})


@dataclass
class SensitiveColumn:
    name: str
    numeric: bool
    leaves: list[Any]
    models: list[Model]
    hierarchy: dict[Any, list[str]] | None


@dataclass
class Case:
    hierarchies: dict[str, dict[Any, list[str]]]
    types: dict[str, str]
    rows: list[dict[str, Any]]
    sensitive: list[SensitiveColumn]
    k: int
    suppression_limit: float | int
    null_handling: str
    population: list[dict[str, Any]] | None = None
    delta: tuple[float, float] | None = None
    tables: dict[str, str] = field(default_factory=dict)

    def considered(self) -> int:
        return sum(1 for r in self.rows if self.null_handling == "extended" or all(r[q] is not None for q in QIS))

    def max_suppressed(self) -> int:
        if isinstance(self.suppression_limit, int):
            return self.suppression_limit
        return math.floor(Fraction(str(self.suppression_limit)) * self.considered())

    def input_error_expected(self) -> bool:
        n = self.considered()
        return n == 0 or self.k > n

    def oracle(self) -> ModelOracle:
        presence = None
        if self.delta is not None:
            assert self.population is not None
            presence = Presence(self.population, *self.delta)
        return ModelOracle(
            self.rows, list(QIS), self.hierarchies, null_handling=self.null_handling, k=self.k,
            max_suppressed=self.max_suppressed(),
            sensitive=[Sensitive(s.name, s.models, s.hierarchy) for s in self.sensitive], presence=presence,
        )

    def create_tables(self, engine) -> str:
        """The source (id, qa, qb, sensitive columns, note) and the population, if any; returns the source."""
        table = fresh("src")
        columns = {"id": "INTEGER", **{q: self.types[q] for q in QIS}}
        columns.update({s.name: "INTEGER" if s.numeric else "VARCHAR" for s in self.sensitive})
        columns["note"] = "VARCHAR"
        names = [c for c in columns if c != "id"]
        engine.create_table(table, columns, [(i, *(r[c] for c in names)) for i, r in enumerate(self.rows)])
        self.tables["source"] = table
        if self.population is not None:
            pop = fresh("pop")
            engine.create_table(pop, {"pid": "INTEGER", **{q: self.types[q] for q in QIS}},
                                [(i, *(r[q] for q in QIS)) for i, r in enumerate(self.population)])
            self.tables["population"] = pop
        return table

    def config(self, engine, *, metric: str = "loss", strategy: str = "exhaustive", output: str | None = None,
               suppressed_rows: str = "remove"):
        table = self.tables["source"]
        attributes: dict[str, Any] = {"id": {"role": "identifier"}}
        for q in QIS:
            attributes[q] = {"role": "quasi_identifier", "hierarchy": {"inline": self.hierarchies[q]}}
        for s in self.sensitive:
            attr: dict[str, Any] = {"role": "sensitive", "models": [m.config() for m in s.models]}
            if s.hierarchy is not None:
                attr["hierarchy"] = {"inline": s.hierarchy}
            attributes[s.name] = attr
        attributes["note"] = {"role": "sensitive"}  # a sensitive attribute without models: no effect
        privacy: dict[str, Any] = {
            "k": self.k, "suppression_limit": self.suppression_limit, "null_handling": self.null_handling,
        }
        if self.delta is not None:
            privacy["delta_presence"] = {
                "population_table": self.tables["population"], "delta_min": self.delta[0],
                "delta_max": self.delta[1],
            }
        return parse_config({
            "source": {"url": engine.url, "table": table},
            "output": {"table": output or f"{table}_out", "if_exists": "replace", "suppressed_rows": suppressed_rows},
            "attributes": attributes,
            "privacy": privacy,
            "search": {"metric": metric, "strategy": strategy},
        })

    def describe(self) -> str:
        models = {s.name: [m.config() for m in s.models] for s in self.sensitive}
        return f"models={models} delta={self.delta} k={self.k} null_handling={self.null_handling}"


@st.composite
def cases(draw: st.DrawFn, kind: str | None = None, max_height: int = 3, min_rows: int = 0) -> Case:
    """A random case; ``kind`` fixes one model kind (test 2), otherwise 1-3 random models per attribute."""
    hier, types = {}, {}
    for q in QIS:
        types[q] = draw(st.sampled_from(["VARCHAR", "VARCHAR", "INTEGER"]))
        n_leaves = draw(st.integers(1, 5))
        hier[q] = draw(tree(q, leaf_values(q, n_leaves, types[q] == "INTEGER"), max_height))
    qi_null = draw(st.sampled_from([0, 0, 1, 2]))  # NULL weight against 3 per leaf
    mostly = st.integers(max(min_rows, 6), 30)
    n_rows = draw(st.integers(min_rows, 30) | mostly | mostly)
    n_sensitive = 0 if kind == "delta_presence" else (1 if kind else draw(st.integers(1, 2)))
    specs = []
    for name in SENSITIVE_NAMES[:n_sensitive]:
        numeric = kind in NUMERIC_ONLY or draw(st.booleans())
        leaves = leaf_values(name, draw(st.integers(1, 5)), numeric)
        if numeric:  # irregular gaps, so that (k,e) and ordered distances differ between classes
            leaves = sorted(draw(st.lists(st.integers(-20, 40), min_size=len(leaves), max_size=len(leaves),
                                          unique=True)))
        null_rate = draw(st.sampled_from([0, 0, 1, 3]))
        specs.append((name, numeric, leaves, null_rate))
    columns: dict[str, Any] = {}
    for q in QIS:
        leaves = [v for v in hier[q] if v is not None]
        columns[q] = st.sampled_from(leaves * 3 + [None] * qi_null)
    for name, _, leaves, null_rate in specs:
        # skewed: the first value is frequent, so that classes differ in diversity
        columns[name] = st.sampled_from(leaves * 2 + leaves[:1] * 3 + [None] * null_rate)
    columns["note"] = st.sampled_from(["x", "y", None])
    rows = draw(st.lists(st.fixed_dictionaries(columns), min_size=n_rows, max_size=n_rows))
    null_handling = draw(st.sampled_from(["extended", "extended", "extended", "basic"]))

    sensitive = []
    for name, numeric, leaves, _ in specs:
        distinct = len({r[name] for r in rows})
        if kind is not None:
            kinds = [kind]
        else:
            allowed = [x for x in SENSITIVE_KINDS if numeric or x not in NUMERIC_ONLY]
            kinds = draw(st.lists(st.sampled_from(allowed), min_size=1, max_size=3))
        models = [draw(model_for(x, distinct)) for x in kinds]
        hierarchical = any(m.params.get("distance") == "hierarchical" for m in models)
        hierarchy = draw(tree(name, leaves, 4)) if hierarchical else None
        sensitive.append(SensitiveColumn(name, numeric, leaves, models, hierarchy))

    population, delta = None, None
    if kind == "delta_presence" or (kind is None and draw(st.integers(0, 3)) == 0):
        extra_cols = {q: columns[q] for q in QIS}
        extra = draw(st.lists(st.fixed_dictionaries(extra_cols), max_size=25))
        population = [{q: r[q] for q in QIS} for r in rows] + extra
        dmin = draw(st.sampled_from([0, 0, 0.1, 0.25, 0.4, 0.5]))
        dmax = max(dmin, draw(st.sampled_from([0.25, 0.5, 0.6, 0.75, 1, 1])))
        delta = (dmin, dmax)
    return Case(
        hierarchies=hier, types=types, rows=rows, sensitive=sensitive,
        k=draw(st.integers(1, 3)),
        suppression_limit=draw(st.one_of(st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0]), st.integers(0, 6))),
        null_handling=null_handling, population=population, delta=delta,
    )


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


# -- 1. node evaluation --------------------------------------------------------------------------------


def closeness_boundary(distance: str, first: tuple, second: tuple) -> Case:
    """Pinned boundary: classes qa=a0 and qa=a1 of five records each whose EMD is exactly t = 0.2 (a decimal
    a double cannot hold); both must pass (<= t) at node (0, 0)."""
    numeric = distance == "ordered"
    leaves = [1, 2, 3] if numeric else ["x", "y", "z"]
    hierarchy = {"x": ["A", "*"], "y": ["A", "*"], "z": ["B", "*"]} if distance == "hierarchical" else None
    rows = [{"qa": qa, "qb": "b", "sa": v, "note": None} for qa, values in (("a0", first), ("a1", second))
            for v in values]
    model = Model("t_closeness", {"t": 0.2, "distance": distance})
    return Case(hierarchies={"qa": {"a0": ["*"], "a1": ["*"]}, "qb": {"b": ["*"]}},
                types={"qa": "VARCHAR", "qb": "VARCHAR"}, rows=rows,
                sensitive=[SensitiveColumn("sa", numeric, leaves, [model], hierarchy)],
                k=2, suppression_limit=0, null_handling="extended")


@settings(max_examples=20, **SETTINGS)
@given(case=cases())
@example(case=closeness_boundary("equal", ("x",) * 5, ("x", "x", "x", "y", "z")))
@example(case=closeness_boundary("ordered", (1,) * 5, (1, 1, 2, 2, 3)))
@example(case=closeness_boundary("hierarchical", ("x",) * 5, ("x", "x", "y", "y", "z")))
def test_node_evaluation_matches_oracle(engine, case: Case) -> None:
    case.create_tables(engine)
    cfg = case.config(engine)
    with Session(cfg) as session:
        if case.input_error_expected():
            event("input error")
            with pytest.raises(InputError):
                prepare(session)
            return
        prepared = prepare(session)
        oracle = case.oracle()
        assert prepared.ctx.records == oracle.n
        evaluator = NodeEvaluator(session.adapter, prepared.fset, cfg.privacy.k, True, criteria_from_config(cfg))
        for node in oracle.nodes():  # every node of the (small) lattice
            expected = oracle.evaluate(node)
            if expected.unsure:
                event("entropy within 1e-6 of the threshold: not compared")
                continue
            for name in expected.failed_models:
                event(f"a class fails {name}")
            stats = evaluator.evaluate(node)
            where = f"node {node}, {case.describe()}"
            assert stats.classes == len(expected.classes) == len(expected.members), where
            assert stats.suppressed_records == expected.suppressed, where
            assert stats.suppressed_classes == expected.suppressed_classes, where
            assert stats.dm_star == expected.values["dm_star"], where


@pytest.mark.parametrize("models", ([], [{"distinct_l_diversity": {"l": 2}}]))
def test_node_queries_run_without_the_templates_comments(engine, models: list[dict[str, Any]]) -> None:
    """A run sends each node query without the template's comment lines (parsing them cost DuckDB ~7% of a
    k-only query); ``explain`` shows them. Both forms are the same statement and give the same row."""
    table = fresh("people")
    engine.create_table(table, {"age": "INTEGER", "sex": "VARCHAR", "diag": "VARCHAR"},
                        [(20 + i % 9, "FM"[i % 2], "abc"[i % 3]) for i in range(40)])
    cfg = parse_config({
        "source": {"url": engine.url, "table": table}, "output": {"table": f"{table}_out"},
        "attributes": {
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5]}}},
            "sex": {"role": "quasi_identifier", "hierarchy": {"inline": {"F": ["*"], "M": ["*"]}}},
            "diag": {"role": "sensitive", "models": models} if models else {"role": "insensitive"},
        },
        "privacy": {"k": 2, "suppression_limit": 0.1}, "history": {"enabled": False},
    }, source="<test>")
    with Session(cfg) as session:
        prepared = prepare(session)
        for weights in (False, True):
            evaluator = NodeEvaluator(session.adapter, prepared.fset, 2, weights, criteria_from_config(cfg))
            for node in ((0, 0), (1, 0), (1, 1)):
                shown, shown_params = evaluator.sql(node)
                sent, sent_params = evaluator.sql(node, comments=False)
                assert shown.startswith("-- evaluate_node:") and sent_params == shown_params
                assert sent == "".join(line for line in shown.splitlines(keepends=True)
                                       if not line.lstrip().startswith("--"))
                assert session.adapter.execute(sent, sent_params) == session.adapter.execute(shown, shown_params)
                # (a k-anonymity query sums over no suppressed class to NULL)
                assert evaluator.evaluate(node, for_metric=weights).suppressed_records == \
                    (session.adapter.execute(shown, shown_params)[0][0] or 0)


@pytest.mark.parametrize("kind", ("t_equal", "t_ordered", "t_hierarchical", "entropy_l_diversity", None))
@settings(max_examples=12, **SETTINGS)
@given(data=st.data())
def test_certain_suppression_bounds_every_specialization(engine, kind: str | None, data: st.DataObject) -> None:
    """``NodeStats.certain`` of a node, which lets Flash tag a whole down-set infeasible without checking
    it, is at most the oracle's suppressed records of the node and of each of its specializations."""
    case = data.draw(cases(kind=kind, max_height=4, min_rows=6), label="case")
    case.create_tables(engine)
    if case.input_error_expected():
        return
    cfg = case.config(engine)
    oracle = case.oracle()
    nodes = oracle.nodes()
    expected = {node: oracle.evaluate(node) for node in nodes}
    with Session(cfg) as session:
        prepared = prepare(session)
        evaluator = NodeEvaluator(session.adapter, prepared.fset, cfg.privacy.k, False, criteria_from_config(cfg))
        k_alone = NodeEvaluator(session.adapter, prepared.fset, cfg.privacy.k, False)
        for node in nodes:
            certain = evaluator.evaluate(node).certain
            below = [s for s in nodes if all(a <= b for a, b in zip(s, node, strict=True))]
            unsure = [s for s in below if expected[s].unsure]
            if unsure:
                event("entropy within 1e-6 of the threshold: not compared")
                continue
            least = min(expected[s].suppressed for s in below)
            assert certain <= least + 1e-9, f"node {node}: certain {certain} > {least}, {case.describe()}"
            assert certain <= expected[node].suppressed + 1e-9
            below_k = k_alone.evaluate(node).suppressed_records
            assert certain >= below_k - 1e-9  # classes below k stay below k in every specialization
            if certain > below_k + 1e-9:
                event("a model share adds to the classes below k")


# -- 2. the searches stay exact with every model --------------------------------------------------------


@pytest.mark.parametrize("metric", SEARCH_METRICS)
@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=4, **SETTINGS)
@given(data=st.data())
def test_searches_agree_with_exhaustive_and_oracle(engine, kind: str, metric: str, data: st.DataObject) -> None:
    case = data.draw(cases(kind=kind, max_height=4, min_rows=6), label="case")
    case.create_tables(engine)
    if case.input_error_expected():
        event("input error")
        with pytest.raises(InputError):
            sqlanon.anonymize(case.config(engine), dry_run=True)
        return
    oracle = case.oracle()
    if oracle.lattice_unsure():
        event("entropy within 1e-6 of the threshold: not compared")
        return
    event(f"lattice size {len(oracle.nodes())}")
    optimum = oracle.optimum(metric)
    results = {}
    for strategy in STRATEGIES:
        cfg = case.config(engine, metric=metric, strategy=strategy)
        where = f"metric={metric} strategy={strategy} {case.describe()}"
        if optimum is None:
            event("no solution")
            with pytest.raises(NoSolutionError):
                sqlanon.anonymize(cfg, dry_run=True)
            continue
        results[strategy] = result = sqlanon.anonymize(cfg, dry_run=True)
        node, value = optimum
        assert result.transformation == dict(zip(QIS, node, strict=True)), where
        assert close(result.metrics[metric], oracle.display(metric, value)), where
        at_node = oracle.evaluate(node)
        assert result.suppressed_rows == at_node.suppressed, where
        assert close(result.metrics["dm_star"], float(at_node.values["dm_star"])), where
        assert close(result.metrics["loss"], oracle.display("loss", at_node.values["loss"])), where
    if results:
        event("suppression at the optimum" if results["exhaustive"].suppressed_rows else "no suppression")
        for strategy in ("flash", "best_first"):
            assert results[strategy].transformation == results["exhaustive"].transformation, strategy
            assert results[strategy].metrics[metric] == results["exhaustive"].metrics[metric], strategy


def test_certain_suppression_settles_down_sets_without_checks(engine, tmp_path: Path) -> None:
    """The sensitive value follows qa, so every node below qa's top fails 0.1-closeness in classes that no
    specialization can save: Flash tags those down-sets infeasible from a few checks (the report's
    ``inferred_infeasible``, which nothing else sets with a non-monotone model) and keeps the optimum."""
    table = fresh("tc")
    rows = [(i, f"a{i % 8}", f"b{(i // 8) % 6}", "x" if i % 8 < 4 else "y") for i in range(480)]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR", "sa": "VARCHAR"}, rows)
    qa = {f"a{i}": [f"a{i // 2}x", f"a{i // 4}y", "*"] for i in range(8)}
    qb = {f"b{i}": [f"b{i // 2}x", f"b{i // 4}y", "*"] for i in range(6)}

    def config(strategy: str):
        return parse_config({
            "source": {"url": engine.url, "table": table},
            "output": {"table": f"{table}_out", "if_exists": "replace"},
            "attributes": {
                "id": {"role": "identifier"},
                "qa": {"role": "quasi_identifier", "hierarchy": {"inline": qa}},
                "qb": {"role": "quasi_identifier", "hierarchy": {"inline": qb}},
                "sa": {"role": "sensitive", "models": [{"t_closeness": {"t": 0.1, "distance": "equal"}}]},
            },
            "privacy": {"k": 2, "suppression_limit": 0.02},
            "search": {"metric": "loss", "strategy": strategy},
        })

    exhaustive = sqlanon.anonymize(config("exhaustive"), dry_run=True)
    flash = sqlanon.anonymize(config("flash"), dry_run=True, report=tmp_path / "flash.json")
    assert flash.transformation == exhaustive.transformation == {"qa": 3, "qb": 0}
    assert flash.metrics == exhaustive.metrics
    counts = flash.report["search"]["counts"]
    assert counts.get("inferred_infeasible", 0) > 0, counts
    assert flash.nodes_evaluated < exhaustive.nodes_evaluated


def test_equal_closeness_share_uses_the_over_represented_values(engine) -> None:
    """Table distribution x 0.6, y 0.2, z 0.2. Class a0 = (0.2, 0.4, 0.4) has EMD 0.4 and over-represents
    {y, z} (table share 0.4): its failing parts hold at least (0.4 - 0.1) / (1 - 0.4 - 0.1) = 0.6 of it.
    Class a1 is all x (EMD 0.4, over-represents {x}, share 0.6): (0.4 - 0.1) / (1 - 0.6 - 0.1) = 1, and
    indeed every part of it fails. The looser (EMD - t) / (1 - t) would give 1/3 for both."""
    table = fresh("share")
    values = ["x", "y", "y", "z", "z"] + ["x"] * 5
    rows = [(i, "a0" if i < 5 else "a1", v) for i, v in enumerate(values)]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "sa": "VARCHAR"}, rows)
    cfg = parse_config({
        "source": {"url": engine.url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace"},
        "attributes": {
            "id": {"role": "identifier"},
            "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {"a0": ["*"], "a1": ["*"]}}},
            "sa": {"role": "sensitive", "models": [{"t_closeness": {"t": 0.1, "distance": "equal"}}]},
        },
        "privacy": {"k": 2, "suppression_limit": 0.5},
    })
    with Session(cfg) as session:
        prepared = prepare(session)
        evaluator = NodeEvaluator(session.adapter, prepared.fset, 2, False, criteria_from_config(cfg))
        stats = evaluator.evaluate((0,))
    assert stats.suppressed_records == 10
    assert stats.certain == pytest.approx(5 * 0.6 + 5 * 1.0, abs=1e-9)


def test_hierarchical_closeness_share_needs_a_single_root(engine) -> None:
    """With two top labels (an explicit NULL mapping allows them), the hierarchical EMD is not convex: qa = x1
    (c, c) and x2 (a, b) pass 0.1-closeness while their union X fails it (EMD 3/20), so X proves no share of
    records failed in every specialization, and Flash must still find the node below X at 0% suppression."""
    table = fresh("roots")
    values = [("x1", "c"), ("x1", "c"), ("x2", "a"), ("x2", "b")] + [("y", "b")] * 3 + [("y", "c")] * 3
    rows = [(i, qa, sa) for i, (qa, sa) in enumerate(values)]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "sa": "VARCHAR"}, rows)

    def config(strategy: str):
        return parse_config({
            "source": {"url": engine.url, "table": table},
            "output": {"table": f"{table}_out", "if_exists": "replace"},
            "attributes": {
                "id": {"role": "identifier"},
                "qa": {"role": "quasi_identifier",
                       "hierarchy": {"inline": {"x1": ["X", "*"], "x2": ["X", "*"], "y": ["Y", "*"]}}},
                "sa": {"role": "sensitive",
                       "hierarchy": {"inline": {"a": ["T1"], "b": ["T1"], "c": ["T2"], None: ["T2"]}},
                       "models": [{"t_closeness": {"t": 0.1, "distance": "hierarchical"}}]},
            },
            "privacy": {"k": 2, "suppression_limit": 0},
            "search": {"metric": "loss", "strategy": strategy},
        })

    cfg = config("flash")
    with Session(cfg) as session:
        prepared = prepare(session)
        evaluator = NodeEvaluator(session.adapter, prepared.fset, 2, False, criteria_from_config(cfg))
        assert evaluator.evaluate((0,)).suppressed_records == 0
        above = evaluator.evaluate((1,))
    assert above.suppressed_records == 4  # X fails
    assert above.certain == 0
    exhaustive = sqlanon.anonymize(config("exhaustive"), dry_run=True)
    flash = sqlanon.anonymize(cfg, dry_run=True)
    assert flash.transformation == exhaustive.transformation == {"qa": 0}


def test_prepared_model_queries_match_unprepared(engine) -> None:
    """DuckDB runs model node queries as one prepared statement with the levels as parameters (PREPARE once,
    then one EXECUTE per node); every node's statistics equal those of the query rendered for the node."""
    table = fresh("prep")
    rows = [(i, f"a{i % 6}", f"b{(i // 6) % 4}", f"s{(i * 7) % 5}" if i % 3 else "s0") for i in range(120)]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "qb": "VARCHAR", "sa": "VARCHAR"}, rows)
    cfg = parse_config({
        "source": {"url": engine.url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace"},
        "attributes": {
            "id": {"role": "identifier"},
            "qa": {"role": "quasi_identifier",
                   "hierarchy": {"inline": {f"a{i}": [f"a{i // 2}x", "*"] for i in range(6)}}},
            "qb": {"role": "quasi_identifier",
                   "hierarchy": {"inline": {f"b{i}": [f"b{i // 2}x", "*"] for i in range(4)}}},
            "sa": {"role": "sensitive", "models": [{"entropy_l_diversity": {"l": 2.5}},
                                                    {"t_closeness": {"t": 0.15, "distance": "equal"}}]},
        },
        "privacy": {"k": 2, "suppression_limit": 0.1},
        "search": {"metric": "loss"},
    })
    with Session(cfg) as session:
        fset = prepare(session).fset
        adapter = session.adapter
        tuning = tuning_for(adapter)
        prepared = NodeEvaluator(adapter, fset, 2, True, criteria_from_config(cfg))
        plain = NodeEvaluator(adapter, fset, 2, True, criteria_from_config(cfg))
        plain.prepared = False
        assert prepared.prepared == tuning.PREPARED_NODE_QUERIES
        nodes = list(itertools.product(range(3), range(3)))
        before = adapter.statements
        ours = [prepared.evaluate(node) for node in nodes]
        issued = adapter.statements - before
        theirs = [plain.evaluate(node) for node in nodes]
    assert [replace(s, certain=0.0) for s in ours] == [replace(s, certain=0.0) for s in theirs]
    assert all(math.isclose(a.certain, b.certain, rel_tol=1e-12) for a, b in zip(ours, theirs, strict=True))
    assert tuning.PREPARED_NODE_QUERIES == (engine.name == "duckdb")  # PostgreSQL: planning is a small share
    assert issued == len(nodes) + (1 if tuning.PREPARED_NODE_QUERIES else 0)
    assert any(stats.suppressed_records for stats in ours) and any(stats.certain for stats in ours)


def test_prepared_statements_keep_every_value(engine) -> None:
    """``execute_prepared`` passes DuckDB's EXECUTE literals: floats keep their exact double, one PREPARE per
    text; other values (text) run as an ordinary statement with bind parameters."""
    from sqlanon.engines import adapter_for_url

    adapter = adapter_for_url(engine.url)
    adapter.connect()
    try:
        assert adapter.execute_prepared("SELECT 1", []) == [(1,)]
        placeholder = adapter.PLACEHOLDER
        query = f"SELECT CAST({placeholder} AS DOUBLE PRECISION), CAST({placeholder} AS BIGINT) + 1"
        values = [0.1, 1 / 3, 1e-300, 2.5e300, 5e-324, -7.25, 2.0**60]
        before = adapter.statements
        got = [adapter.execute_prepared(query, [v, 2**40])[0] for v in values]
        issued = adapter.statements - before
        assert got == [(v, 2**40 + 1) for v in values]
        assert issued == len(values) + (1 if tuning_for(adapter).PREPARED_NODE_QUERIES else 0)
        assert adapter.execute_prepared(f"SELECT {placeholder}", ["it's"]) == [("it's",)]
    finally:
        adapter.close()


def test_largest_emd_of_a_sensitive_attribute(engine) -> None:
    """The bound M of failing_share's (EMD - t) / (M - t): the EMD of a single value, in the node queries'
    scale. Ordered over 1, 2, 3 with counts 1, 1, 2: from the first value 0 + 1 + 2*2 = 5 (the last gives 3),
    i.e. 5 / (n (m - 1)) = 5/8. Hierarchical with a, b under T1 and c under T2: from a, b at distance 1/2 and
    c, c at 1 give (0.5 + 2) / 4 = 0.625, twice n (height - 1) = 16 times that is 10 (from c: 8)."""
    table = fresh("emdmax")
    rows = [(i, "x", v, n) for i, (v, n) in enumerate([("a", 1), ("b", 2), ("c", 3), ("c", 3)])]
    engine.create_table(table, {"id": "INTEGER", "qa": "VARCHAR", "sh": "VARCHAR", "so": "INTEGER"}, rows)
    cfg = parse_config({
        "source": {"url": engine.url, "table": table},
        "output": {"table": f"{table}_out", "if_exists": "replace"},
        "attributes": {
            "id": {"role": "identifier"},
            "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {"x": ["*"]}}},
            "sh": {"role": "sensitive", "hierarchy": {"inline": {"a": ["T1", "*"], "b": ["T1", "*"], "c": ["T2", "*"]}},
                   "models": [{"t_closeness": {"t": 0.1, "distance": "hierarchical"}}]},
            "so": {"role": "sensitive", "models": [{"t_closeness": {"t": 0.1, "distance": "ordered"}}]},
        },
        "privacy": {"k": 1},
    })
    with Session(cfg) as session:
        sensitive = {s["column"]: s for s in prepare(session).fset.sensitive}
    assert sensitive["so"]["ordered_max"] == 5
    assert sensitive["sh"]["hierarchical_max"] == 10 and sensitive["sh"]["single_root"]


# -- 3. the written table ------------------------------------------------------------------------------


def class_passes(kind: str, params: dict[str, Any], values: list[Any]) -> bool:
    """The class-local models, written again from the issue text (independent of the oracle's code)."""
    counts = Counter(values)
    if kind in ("distinct_l_diversity", "p_sensitivity"):
        return len(counts) >= params["l" if kind == "distinct_l_diversity" else "p"]
    if kind == "alpha_k_anonymity":
        return Fraction(max(counts.values()), len(values)) <= Fraction(str(params["alpha"]))
    if kind == "k_e_anonymity":
        numbers = [v for v in values if v is not None]
        return bool(numbers) and max(numbers) - min(numbers) >= Fraction(str(params["e"]))
    if kind == "recursive_cl_diversity":
        r = sorted(counts.values(), reverse=True)
        return r[0] < Fraction(str(params["c"])) * sum(r[params["l"] - 1:])
    raise AssertionError(kind)


@settings(max_examples=15, **SETTINGS)
@given(
    case=cases(),
    metric=st.sampled_from(SEARCH_METRICS),
    strategy=st.sampled_from(("flash", "best_first")),
    mode=st.sampled_from(["remove", "mask"]),
)
def test_written_table_satisfies_the_models(engine, case: Case, metric: str, strategy: str, mode: str) -> None:
    case.create_tables(engine)
    out = fresh("out")
    cfg = case.config(engine, metric=metric, strategy=strategy, output=out, suppressed_rows=mode)
    if case.input_error_expected():
        event("input error")
        with pytest.raises(InputError):
            sqlanon.anonymize(cfg)
        return
    oracle = case.oracle()
    if oracle.lattice_unsure():
        event("entropy within 1e-6 of the threshold: not compared")
        return
    optimum = oracle.optimum(metric)
    if optimum is None:
        event("no solution")
        with pytest.raises(NoSolutionError):
            sqlanon.anonymize(cfg)
        return
    result = sqlanon.anonymize(cfg)
    node = optimum[0]
    expected = oracle.evaluate(node)
    where = f"node {node}, mode {mode}, {case.describe()}"
    assert result.transformation == dict(zip(QIS, node, strict=True)), where
    assert result.verified is True, where
    assert result.suppressed_rows == expected.suppressed, where
    event(f"{mode}: suppressed rows {'> 0' if expected.suppressed else '= 0'}")

    # Independent check over the written table, in plain SQL and Python.
    names = [s.name for s in case.sensitive]
    header = [r[0] for r in engine.execute(
        f"SELECT column_name FROM information_schema.columns WHERE table_name = '{out}' ORDER BY ordinal_position"
    )]
    assert header == [*QIS, *names, "note"], where
    cols = ", ".join(f'"{c}"' for c in (*QIS, *names))
    rows = engine.execute(f'SELECT {cols} FROM "{out}"')
    star = ("*",) * len(QIS)
    classes: dict[tuple, list[tuple]] = {}
    for row in rows:
        classes.setdefault(tuple(row[: len(QIS)]), []).append(tuple(row[len(QIS):]))
    keys = ", ".join(f'"{q}"' for q in QIS)
    sizes = engine.execute(f'SELECT {keys}, count(*) FROM "{out}" GROUP BY {keys}')  # GROUP BY: NULLs together
    assert {tuple(r[:-1]): int(r[-1]) for r in sizes} == {key: len(m) for key, m in classes.items()}, where
    for key, members in classes.items():
        if mode == "mask" and key == star:
            continue  # the masked suppressed records (and a kept all-'*' class) are not a released class
        assert len(members) >= case.k, f"class {key} has {len(members)} < k={case.k} rows; {where}"
        for a, s in enumerate(case.sensitive):
            values = [m[a] for m in members]
            for model in s.models:
                if model.kind in ("distinct_l_diversity", "p_sensitivity", "alpha_k_anonymity",
                                  "k_e_anonymity", "recursive_cl_diversity"):
                    assert class_passes(model.kind, dict(model.params), values), (
                        f"class {key} fails {model.config()} on {s.name}: {values}; {where}")
    assert expected.suppressed <= oracle.max_suppressed, where
    assert len(rows) == oracle.n - (expected.suppressed if mode == "remove" else 0), where

    # The released rows are exactly the oracle's: generalized keys with their sensitive values.
    want: Counter = Counter()
    for key, indices in expected.members.items():
        failed = key in expected.failing
        if failed and mode == "remove":
            continue
        for i in indices:
            want[(star if failed else key) + tuple(oracle.kept[i][n] for n in names)] += 1
    assert Counter(tuple(r) for r in rows) == want, where


# -- 4. config errors ----------------------------------------------------------------------------------


def _error_configs(source: str, population: str, url: str) -> list[tuple[str, dict[str, Any], list[str]]]:
    """(label, config, substrings the error message must contain)."""
    qa = {"inline": {"a": ["*"], "b": ["*"]}}

    def config(diag: dict[str, Any], income: dict[str, Any] | None = None,
               privacy: dict[str, Any] | None = None, qb: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "source": {"url": url, "table": source},
            "output": {"table": f"{source}_out", "if_exists": "replace"},
            "attributes": {
                "qa": {"role": "quasi_identifier", "hierarchy": qa},
                "qb": qb or {"role": "insensitive"},
                "diag": diag,
                "income": income or {"role": "sensitive"},
            },
            "privacy": {"k": 2, "suppression_limit": 0.5, **(privacy or {})},
        }

    sens = {"role": "sensitive"}
    return [
        ("unknown model", config({**sens, "models": [{"l_closeness": {"l": 2}}]}),
         ["attributes.diag.models.0", "l_closeness"]),
        ("two keys", config({**sens, "models": [{"distinct_l_diversity": {"l": 2}, "p_sensitivity": {"p": 2}}]}),
         ["attributes.diag.models.0", "exactly one"]),
        ("l < 1", config({**sens, "models": [{"distinct_l_diversity": {"l": 0}}]}),
         ["attributes.diag.models.0.distinct_l_diversity.l"]),
        ("entropy l < 1", config({**sens, "models": [{"entropy_l_diversity": {"l": 0.5}}]}),
         ["attributes.diag.models.0.entropy_l_diversity.l"]),
        ("t > 1", config({**sens, "models": [{"t_closeness": {"t": 1.5}}]}),
         ["attributes.diag.models.0.t_closeness.t"]),
        ("hierarchical without hierarchy",
         config({**sens, "models": [{"t_closeness": {"t": 0.2, "distance": "hierarchical"}}]}),
         ["attributes.diag", "hierarchy"]),
        ("models on a quasi-identifier",
         config(sens, qb={"role": "quasi_identifier", "hierarchy": qa, "models": [{"p_sensitivity": {"p": 2}}]}),
         ["attributes.qb", "sensitive attributes only"]),
        ("models on an insensitive attribute",
         config(sens, qb={"role": "insensitive", "models": [{"p_sensitivity": {"p": 2}}]}),
         ["attributes.qb", "sensitive attributes only"]),
        ("k_e on a text column", config({**sens, "models": [{"k_e_anonymity": {"e": 5}}]}),
         ["attributes.diag", "numeric"]),
        ("ordered t on a text column", config({**sens, "models": [{"t_closeness": {"t": 0.5, "distance": "ordered"}}]}),
         ["attributes.diag", "numeric"]),
        ("delta_min > delta_max",
         config(sens, privacy={"delta_presence": {"population_table": population, "delta_min": 0.6,
                                                  "delta_max": 0.1}}),
         ["privacy.delta_presence", "delta_min", "delta_max"]),
        ("missing population table",
         config(sens, privacy={"delta_presence": {"population_table": "no_such_population", "delta_min": 0,
                                                  "delta_max": 0.5}}),
         ["population_table", "no_such_population"]),
    ]


def test_config_errors_exit_2_and_name_the_problem(engine, tmp_path: Path) -> None:
    source, population = fresh("src"), fresh("pop")
    rows = [("a", "x", "flu", 10), ("a", "y", "cold", 20), ("b", "x", "flu", 30), ("b", "y", None, None)]
    engine.create_table(source, {"qa": "VARCHAR", "qb": "VARCHAR", "diag": "VARCHAR", "income": "INTEGER"}, rows)
    engine.create_table(population, {"qa": "VARCHAR", "qb": "VARCHAR"}, [(r[0], r[1]) for r in rows] * 2)
    runner = CliRunner()
    for label, data, needles in _error_configs(source, population, engine.url):
        path = write_config(tmp_path / f"{label.replace(' ', '_')}.yaml", data)
        for command in (["validate", str(path)], ["anonymize", str(path), "--dry-run", "--quiet"]):
            result = runner.invoke(main, command)
            text = result.output  # stdout and stderr, as the user sees them
            assert result.exit_code == 2, f"{label} ({command[0]}): exit {result.exit_code}\n{text}"
            assert "error" in text, f"{label}: {text}"
            for needle in needles:
                assert needle in text, f"{label}: {needle!r} not in {text!r}"

    # The same configs are fine once the mistake is fixed: the numeric column takes (k,e) and ordered t.
    good = _error_configs(source, population, engine.url)[0][1]
    good["attributes"]["income"] = {"role": "sensitive", "models": [
        {"k_e_anonymity": {"e": 5}}, {"t_closeness": {"t": 1, "distance": "ordered"}}]}
    good["attributes"]["diag"] = {"role": "sensitive", "models": [{"distinct_l_diversity": {"l": 1}}]}
    good["privacy"]["delta_presence"] = {"population_table": population, "delta_min": 0, "delta_max": 1}
    path = write_config(tmp_path / "good.yaml", good)
    result = runner.invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("model", [{"k_e_anonymity": {"e": 5}}, {"t_closeness": {"t": 0.1, "distance": "ordered"}}])
def test_numeric_models_refuse_a_text_column_of_digits(engine, tmp_path: Path, model: dict[str, Any]) -> None:
    """A VARCHAR column is a text column even when every value happens to look like a number: the models
    "for a numeric sensitive attribute" must not depend on whether today's values cast (text order would
    rank '10' < '100' < '9' for the ordered distance)."""
    source = fresh("src")
    rows = [("a", "9"), ("a", "10"), ("b", "100"), ("b", "9"), ("a", "100"), ("b", "10")]
    engine.create_table(source, {"qa": "VARCHAR", "amount": "VARCHAR"}, rows)
    data = {
        "source": {"url": engine.url, "table": source},
        "output": {"table": f"{source}_out", "if_exists": "replace"},
        "attributes": {
            "qa": {"role": "quasi_identifier", "hierarchy": {"inline": {"a": ["*"], "b": ["*"]}}},
            "amount": {"role": "sensitive", "models": [model]},
        },
        "privacy": {"k": 1},
    }
    path = write_config(tmp_path / "digits.yaml", data)
    result = CliRunner().invoke(main, ["anonymize", str(path), "--dry-run", "--quiet"])
    assert result.exit_code == 2, result.output
    assert "attributes.amount" in result.output and "numeric" in result.output, result.output
