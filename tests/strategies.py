"""Hypothesis strategies of the property tests: small random tables with small random but consistent hierarchies.

Two families of cases, each checked against a plain-Python oracle on DuckDB and PostgreSQL:

- ``Case`` / ``cases``: generalization of 2-5 quasi-identifiers with NULLs, declared level losses, priorities
  and level limits (``tests/oracle.py``); tests/unit/evaluation/test_node_evaluation.py, the searches and the
  written table draw them.
- ``ModelCase`` / ``model_cases``: privacy models on 1-2 sensitive attributes, sometimes with delta-presence
  against a population (``tests/oracle_models.py``). Their tests import them as ``Case`` / ``cases``, their
  names when the tests were one module, so that the test functions stay as they were written.

Both draw their hierarchies with ``grouped_paths`` and name their tables with ``fresh``: the engine fixture is
function-scoped while hypothesis runs many examples per call, so every example creates its own tables.

Over 400 lines: the two families share the hierarchy strategy and the helpers, and each is one dataclass with its
strategy; apart, each half would import the other's pieces.
"""

from __future__ import annotations

import itertools
import math
import secrets
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck
from hypothesis import strategies as st

from sqlanon.config import parse_config
from tests.oracle import Oracle
from tests.oracle_models import Model, ModelOracle, Presence, Sensitive

#: The property tests' hypothesis settings besides max_examples (the rest is conftest's profile).
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

_names = itertools.count()


def fresh(prefix: str) -> str:
    return f"{prefix}_{next(_names)}_{secrets.token_hex(3)}"


def close(actual: float, expected: float) -> bool:
    return math.isclose(actual, expected, rel_tol=1e-12, abs_tol=1e-15)


# -- hierarchies ---------------------------------------------------------------------------------------------


def leaf_values(name: str, count: int, numeric: bool) -> list[Any]:
    return [7 * i - 5 for i in range(count)] if numeric else [f"{name}{i}" for i in range(count)]


def grouped_paths(draw: st.DrawFn, name: str, leaves: list[Any], height: int) -> dict[Any, list[str]]:
    """Each leaf's labels at levels 1 to ``height - 1`` of a random tree: the labels of each level grouped into
    parents at the next, a single '*' on top. (Called with the strategy's ``draw``: its draws are the caller's.)"""
    paths: dict[Any, list[str]] = {leaf: [] for leaf in leaves}
    current = {leaf: leaf for leaf in leaves}  # leaf -> its label at the level built last
    for level in range(1, height - 1):
        labels = sorted(set(current.values()), key=str)
        groups = draw(st.lists(st.integers(0, len(labels) - 1), min_size=len(labels), max_size=len(labels)))
        parent = {lab: f"{name}L{level}g{g}" for lab, g in zip(labels, groups, strict=True)}
        for leaf in leaves:
            current[leaf] = parent[current[leaf]]
            paths[leaf].append(current[leaf])
    for leaf in leaves:
        paths[leaf].append("*")
    return paths


def null_path(name: str, like: list[str], join: int, height: int) -> list[str]:
    """An explicit NULL mapping: labels of its own below level ``join``, from there the path ``like`` of a leaf
    (``join`` = ``height``: never, a top label of its own)."""
    return [f"{name}N{lvl}" if lvl < join else like[lvl - 1] for lvl in range(1, height)]


# -- generalization (tests/oracle.py) ------------------------------------------------------------------------

QI_NAMES = ("qa", "qb", "qc", "qd", "qe")
STRATEGY_NAMES = ("flash", "best_first", "top_down", "lightning")


@st.composite
def hierarchies(draw: st.DrawFn, name: str, numeric: bool) -> tuple[dict[Any, list[str]], list[float] | None]:
    """A consistent random tree: leaves grouped into parents level by level, a single '*' on top.

    Leaves are text, or integers for an INTEGER column (the hierarchy's keys are then YAML integers).
    Sometimes NULL is mapped explicitly: own labels up to some level, then the path of some leaf.
    Sometimes a declared WIL loss per level is attached.
    """
    n_leaves = draw(st.integers(1, 6))  # 1 included: a NULL generalized to the top still costs 1 (Loss)
    height = draw(st.integers(2, 4))
    leaves = leaf_values(name, n_leaves, numeric)
    paths = grouped_paths(draw, name, leaves, height)
    mapping: dict[Any, list[str]] = dict(paths)
    if draw(st.booleans()) and draw(st.booleans()):
        join = draw(st.integers(1, height - 1))  # first level at which NULL joins a leaf's path
        like = draw(st.sampled_from(leaves))
        mapping[None] = null_path(name, paths[like], join, height)
    loss = None
    if draw(st.integers(0, 4)) == 0:
        loss = sorted(draw(st.lists(st.sampled_from([0, 0.25, 0.5, 0.75, 1]), min_size=height, max_size=height)))
    return mapping, loss


@dataclass
class Case:
    qis: list[str]
    hierarchies: dict[str, dict[Any, list[str]]]
    types: dict[str, str]
    level_loss: dict[str, list[float] | None]
    rows: list[dict[str, Any]]
    k: int
    suppression_limit: float | int
    null_handling: str
    priorities: dict[str, float]
    max_levels: dict[str, int | None] = field(default_factory=dict)

    def max_suppressed(self, n: int) -> int:
        if isinstance(self.suppression_limit, int):
            return self.suppression_limit
        return math.floor(Fraction(str(self.suppression_limit)) * n)

    def oracle(self) -> Oracle:
        considered = (
            len(self.rows) if self.null_handling == "extended"
            else sum(1 for r in self.rows if all(r[q] is not None for q in self.qis))
        )
        return Oracle(
            self.rows, self.qis, self.hierarchies, null_handling=self.null_handling, k=self.k,
            max_suppressed=self.max_suppressed(considered), priorities=self.priorities,
            level_loss=self.level_loss, max_levels=self.max_levels,
        )

    def input_error_expected(self, oracle: Oracle) -> bool:
        """sqlanon refuses empty inputs and k larger than the number of records considered."""
        return oracle.total_rows == 0 or oracle.n == 0 or self.k > oracle.n

    def create_table(self, engine, table: str) -> None:
        columns = {"id": "INTEGER", **{q: self.types[q] for q in self.qis}, "note": "VARCHAR"}
        engine.create_table(
            table, columns, [(i, *(r[q] for q in self.qis), r["note"]) for i, r in enumerate(self.rows)]
        )

    def config(self, engine, table: str, *, metric: str = "loss", strategy: str = "flash",
               output: str | None = None, suppressed_rows: str = "remove"):
        attributes: dict[str, Any] = {"id": {"role": "identifier"}}
        for q in self.qis:
            hierarchy: dict[str, Any] = {"inline": self.hierarchies[q]}
            if self.level_loss.get(q) is not None:
                hierarchy["loss"] = self.level_loss[q]
            attributes[q] = {
                "role": "quasi_identifier", "hierarchy": hierarchy, "priority": self.priorities[q],
                "max_level": self.max_levels.get(q),
            }
        attributes["note"] = {"role": "insensitive"}
        return parse_config({
            "source": {"url": engine.url, "table": table},
            "output": {"table": output or f"{table}_out", "if_exists": "replace", "suppressed_rows": suppressed_rows},
            "attributes": attributes,
            "privacy": {"k": self.k, "suppression_limit": self.suppression_limit, "null_handling": self.null_handling},
            "search": {"metric": metric, "strategy": strategy},
        })


@st.composite
def cases(draw: st.DrawFn, with_limits: bool = False, qi_counts: tuple[int, int] = (2, 3)) -> Case:
    qis = list(QI_NAMES[: draw(st.integers(*qi_counts))])
    hier, loss, types = {}, {}, {}
    for q in qis:
        types[q] = draw(st.sampled_from(["VARCHAR", "VARCHAR", "INTEGER"]))
        hier[q], loss[q] = draw(hierarchies(q, types[q] == "INTEGER"))
    null_rate = draw(st.sampled_from([0, 0, 1, 2]))  # NULL weight against 3 per leaf (0: no NULLs)
    columns = {}
    for q in qis:
        leaves = [v for v in hier[q] if v is not None]
        choices = leaves * 3 + [None] * null_rate
        columns[q] = st.sampled_from(choices)
    n_rows = draw(st.integers(0, 40) | st.integers(8, 40) | st.integers(8, 40))  # 0-40, mostly not tiny
    rows = draw(st.lists(st.fixed_dictionaries({**columns, "note": st.sampled_from(["x", "y", None])}),
                         min_size=n_rows, max_size=n_rows))
    limit = draw(st.one_of(st.sampled_from([0.0, 0.1, 0.3]), st.integers(0, 5)))
    max_levels: dict[str, int | None] = {}
    if with_limits and draw(st.booleans()):
        for q in qis:
            h = len(next(iter(hier[q].values()))) + 1
            max_levels[q] = draw(st.one_of(st.none(), st.integers(0, h - 1)))
    return Case(
        qis=qis,
        hierarchies=hier,
        types=types,
        level_loss=loss,
        rows=rows,
        k=draw(st.integers(1, 4)),
        suppression_limit=limit,
        null_handling=draw(st.sampled_from(["extended", "basic"])),
        priorities={q: draw(st.sampled_from([1.0, 1.0, 0.5, 2.0, 0.0, 3.0])) for q in qis},
        max_levels=max_levels,
    )


def text_case(qis: list[str], hierarchies: dict[str, dict[Any, list[str]]], rows: list[dict[str, Any]], *,
              k: int, suppression_limit: int) -> Case:
    """A hand-written case: text QIs, no declared level loss, extended NULL matching, equal priorities."""
    return Case(qis=qis, hierarchies=hierarchies, types=dict.fromkeys(qis, "VARCHAR"),
                level_loss=dict.fromkeys(qis), rows=rows, k=k, suppression_limit=suppression_limit,
                null_handling="extended", priorities=dict.fromkeys(qis, 1.0))


# -- privacy models on sensitive attributes (tests/oracle_models.py) --------------------------------------------

QIS = ("qa", "qb")
SENSITIVE_NAMES = ("sa", "sb")
STRATEGIES = ("exhaustive", "flash", "best_first", "top_down", "lightning")
SEARCH_METRICS = ("loss", "dm_star")
#: Model kinds of test 2 (t-closeness once per distance; delta-presence is a privacy-level model).
KINDS = (
    "distinct_l_diversity", "entropy_l_diversity", "recursive_cl_diversity", "t_equal", "t_ordered",
    "t_hierarchical", "p_sensitivity", "alpha_k_anonymity", "k_e_anonymity", "kpqr_anonymity", "delta_presence",
)
SENSITIVE_KINDS = KINDS[:-1]
NUMERIC_ONLY = {"t_ordered", "k_e_anonymity", "kpqr_anonymity"}


@st.composite
def tree(draw: st.DrawFn, name: str, leaves: list[Any], max_height: int) -> dict[Any, list[str]]:
    """A consistent random hierarchy over ``leaves``: groups level by level, a single '*' on top.
    Sometimes NULL is mapped explicitly: own labels up to some level, then the path of some leaf, or up to
    a top label of its own (a second root)."""
    height = draw(st.integers(2, max_height))
    paths = grouped_paths(draw, name, leaves, height)
    mapping: dict[Any, list[str]] = dict(paths)
    if draw(st.integers(0, 3)) == 0:
        join = draw(st.integers(1, height))  # first level at which NULL joins a leaf's path (height: never)
        like = draw(st.sampled_from(leaves))
        mapping[None] = null_path(name, paths[like], join, height)
    return mapping


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
class ModelCase:
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
def model_cases(draw: st.DrawFn, kind: str | None = None, max_height: int = 3, min_rows: int = 0) -> ModelCase:
    """A random case; ``kind`` fixes one model kind (the searches' test), otherwise 1-3 random models per
    attribute."""
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
    return ModelCase(
        hierarchies=hier, types=types, rows=rows, sensitive=sensitive,
        k=draw(st.integers(1, 3)),
        suppression_limit=draw(st.one_of(st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0]), st.integers(0, 6))),
        null_handling=null_handling, population=population, delta=delta,
    )


