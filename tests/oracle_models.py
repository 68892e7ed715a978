"""A plain-Python reference for the privacy models on sensitive attributes (issue 3).

Written from the module docstrings of ``sqlanon/criteria/*.py`` and SEMANTICS.md only; it imports
nothing from sqlanon. It extends the k-anonymity oracle of ``tests/oracle.py`` (generalization, NULL
rules, metrics): a class is suppressed as a whole when it is smaller than k or fails any model on any
sensitive attribute, or delta-presence (SEMANTICS.md, seed 000 Algorithm 3). Everything is exact
(Fractions, integers) except entropy, which uses ``math.log`` like the docstring says.

Definitions implemented (NULL is a value of its own everywhere except in (k,e)-anonymity):

- distinct l-diversity / p-sensitivity: number of distinct values (NULL included) >= l / p.
- entropy l-diversity: -sum p ln p >= ln(l) - 1e-9. Within 1e-6 of the threshold the verdict is only
  given when it is exactly decidable as "passes" (s^s * den^s >= num^s * prod c^c for l = num/den, e.g. a
  uniform class over exactly l values); otherwise the class is reported as *unsure*.
- recursive (c,l)-diversity: r_1 < c * (r_l + ... + r_m), 1-based ranks, empty tail fails.
- (alpha,k)-anonymity: max count <= alpha * class size.
- (k,e)-anonymity: max - min of the non-NULL values >= e; all NULL fails.
- t-closeness (EMD between class distribution p and table distribution q over the records considered) <= t:
  equal 1/2 sum |p - q|; ordered 1/(m-1) sum_i |sum_{j<=i} (p_j - q_j)| over values ascending, NULL last
  (m = 1 passes); hierarchical sum over internal nodes N of level(N)/(h-1) * min(pos_extra, neg_extra) of
  N's children (Li, Li, Venkatasubramanian 2007), tree from the sensitive attribute's hierarchy with
  SEMANTICS.md's NULL rule (an unmapped NULL is its own chain up to the top).
- delta-presence: delta_min <= s / (population records in the class) <= delta_max, population generalized
  through the same hierarchies (and filtered the same way under basic match).

>>> h = {"a": ["*"], "b": ["*"]}
>>> rows = [{"x": "a", "d": "flu"}, {"x": "a", "d": "flu"}, {"x": "b", "d": "flu"}, {"x": "b", "d": None}]
>>> o = ModelOracle(rows, ["x"], {"x": h}, k=1, max_suppressed=4,
...                 sensitive=[Sensitive("d", [Model("distinct_l_diversity", {"l": 2})])])
>>> r = o.evaluate((0,))
>>> r.suppressed, sorted(r.failing, key=repr)
(2, [('a',)])
>>> o.evaluate((1,)).suppressed
0
>>> o.emd_equal([None], 0), o.emd_equal(["flu"], 0)
(Fraction(3, 4), Fraction(1, 4))

Ordered distance, the paper's salary example (3k..11k once each; the class {3k, 4k, 5k}: 0.375):

>>> o = ModelOracle([{"x": "a", "w": w} for w in range(3, 12)], ["x"], {"x": h}, k=1, max_suppressed=0,
...                 sensitive=[Sensitive("w", [])])
>>> o.emd_ordered([3, 4, 5], 0), o.emd_ordered([6, 8, 11], 0)
(Fraction(3, 8), Fraction(1, 6))

Hierarchical distance: moving mass between siblings costs 1/2, across the root 1:

>>> d = {"a": ["ab", "*"], "b": ["ab", "*"], "c": ["cd", "*"], "d": ["cd", "*"]}
>>> o = ModelOracle([{"x": "a", "v": v} for v in "abcd"], ["x"], {"x": h}, k=1, max_suppressed=0,
...                 sensitive=[Sensitive("v", [], d)])
>>> o.emd_hierarchical(["a", "b"], 0), o.emd_hierarchical(["a", "c"], 0), o.emd_hierarchical(["a"], 0)
(Fraction(1, 2), Fraction(1, 4), Fraction(5, 8))
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tests.oracle import NodeResult, Oracle, OracleHierarchy

ENTROPY_TOLERANCE = 1e-9
ENTROPY_BAND = 1e-6

#: Models decided on the class alone (no table-wide distribution, no population).
CLASS_LOCAL = frozenset({
    "distinct_l_diversity", "entropy_l_diversity", "recursive_cl_diversity", "p_sensitivity",
    "alpha_k_anonymity", "k_e_anonymity",
})


def exact(value: Any) -> Fraction:
    """The decimal as written in the config (0.2 -> 1/5)."""
    return Fraction(str(value))


@dataclass(frozen=True)
class Model:
    """One model of a sensitive attribute, as in the config: ``Model("t_closeness", {"t": 0.2})``."""

    kind: str
    params: Mapping[str, Any]

    def config(self) -> dict[str, Any]:
        return {self.kind: dict(self.params)}


@dataclass
class Sensitive:
    name: str
    models: list[Model]
    #: ``{value: [label_1, ..., label_h-1]}`` for hierarchical t-closeness (a None key maps NULL).
    hierarchy: Mapping[Any, Sequence[Any]] | None = None


@dataclass
class Presence:
    """delta-presence: the population's rows (the QI columns are read from them)."""

    rows: Sequence[Mapping[str, Any]]
    delta_min: float
    delta_max: float


@dataclass(frozen=True)
class ModelNodeResult(NodeResult):
    #: Keys of the classes suppressed (smaller than k or failing a model).
    failing: frozenset = frozenset()
    #: Some class's entropy is too close to the threshold to be decided (the counts are then unreliable).
    unsure: bool = False
    #: Generalized key -> indices (into ``ModelOracle.kept``) of its records.
    members: dict = field(default_factory=dict)
    #: The models (and k-anonymity) that some class fails.
    failed_models: frozenset = frozenset()


class ModelOracle(Oracle):
    def __init__(
        self,
        rows: Sequence[Mapping[str, Any]],
        qis: Sequence[str],
        hierarchies: Mapping[str, Mapping[Any, Sequence[str]]],
        *,
        sensitive: Sequence[Sensitive] = (),
        presence: Presence | None = None,
        null_handling: str = "extended",
        k: int,
        max_suppressed: int,
        **kwargs: Any,
    ) -> None:
        super().__init__(rows, qis, hierarchies, null_handling=null_handling, k=k, max_suppressed=max_suppressed,
                         **kwargs)

        def considered(r: Mapping[str, Any]) -> bool:
            return null_handling == "extended" or all(r[q] is not None for q in self.qis)

        #: The records considered, in the order of ``self.records`` (same filter as the base oracle).
        self.kept = [dict(r) for r in rows if considered(r)]
        assert len(self.kept) == self.n
        self.sensitive = list(sensitive)
        self.columns = [[r[s.name] for r in self.kept] for s in self.sensitive]
        #: Table-wide counts q of every sensitive attribute (the t-closeness reference distribution).
        self.table_counts = [Counter(col) for col in self.columns]
        self.sensitive_hier = [
            None if s.hierarchy is None else OracleHierarchy(s.hierarchy) for s in self.sensitive
        ]
        self.presence = presence
        self.population: Counter = Counter()
        if presence is not None:
            self.pop_records = [
                tuple(None if r[q] is None else str(r[q]) for q in self.qis) for r in presence.rows if considered(r)
            ]

    # -- distributions -----------------------------------------------------------------------------
    def emd_equal(self, values: Sequence[Any], a: int) -> Fraction:
        s, n = len(values), self.n
        p, q = Counter(values), self.table_counts[a]
        return sum((abs(Fraction(p[v], s) - Fraction(q[v], n)) for v in q), Fraction(0)) / 2

    def emd_ordered(self, values: Sequence[Any], a: int) -> Fraction | None:
        """None when the table has a single value (m - 1 = 0: nothing to compare, the class passes)."""
        s, n = len(values), self.n
        p, q = Counter(values), self.table_counts[a]
        domain = sorted(v for v in q if v is not None) + ([None] if None in q else [])
        m = len(domain)
        if m == 1:
            return None
        total, cumulative = Fraction(0), Fraction(0)
        for v in domain:
            cumulative += Fraction(p[v], s) - Fraction(q[v], n)
            total += abs(cumulative)
        return total / (m - 1)

    def emd_hierarchical(self, values: Sequence[Any], a: int) -> Fraction | None:
        """None for a hierarchy of height 1 (no internal nodes)."""
        hier = self.sensitive_hier[a]
        assert hier is not None
        h = hier.height
        if h == 1:
            return None
        s, n = len(values), self.n
        p, q = Counter(values), self.table_counts[a]

        def text(v: Any) -> str | None:
            return None if v is None else str(v)

        # extra of each node (level, label); the children of a level-j node are level-(j-1) nodes.
        extra: dict[tuple[int, Any], Fraction] = {}
        parent: dict[tuple[int, Any], tuple[int, Any]] = {}
        for v in q:
            leaf = (0, text(v))
            extra[leaf] = extra.get(leaf, Fraction(0)) + Fraction(p[v], s) - Fraction(q[v], n)
            node = leaf
            for level in range(1, h):
                up = (level, hier.label(text(v), level))
                assert parent.setdefault(node, up) == up, "inconsistent hierarchy"
                node = up
        for level in range(1, h):
            for child, up in parent.items():
                if child[0] == level - 1:
                    extra[up] = extra.get(up, Fraction(0)) + extra[child]
        pos: dict[tuple[int, Any], Fraction] = {}
        neg: dict[tuple[int, Any], Fraction] = {}
        for child, up in parent.items():
            e = extra[child]
            if e > 0:
                pos[up] = pos.get(up, Fraction(0)) + e
            elif e < 0:
                neg[up] = neg.get(up, Fraction(0)) - e
        internal = {up for up in parent.values()}
        return sum(
            (Fraction(node[0], h - 1) * min(pos.get(node, Fraction(0)), neg.get(node, Fraction(0)))
             for node in internal),
            Fraction(0),
        )

    # -- one class ---------------------------------------------------------------------------------
    @staticmethod
    def entropy_verdict(values: Sequence[Any], l_value: Any) -> bool | None:
        counts = list(Counter(values).values())
        s = len(values)
        entropy = math.log(s) - sum(c * math.log(c) for c in counts) / s
        margin = entropy - math.log(float(l_value))
        if margin >= ENTROPY_BAND:
            return True
        if margin <= -ENTROPY_BAND:
            return False
        # Near the threshold: decide exactly. H >= ln(num/den) <=> s^s * den^s >= num^s * prod c^c.
        lf = exact(l_value)
        product = 1
        for c in counts:
            product *= c**c
        if s**s * lf.denominator**s >= lf.numerator**s * product:
            return True  # mathematically >=: passes with the tolerance (a uniform class over exactly l values)
        return None  # mathematically below, but within the band: the 1e-9 tolerance may or may not accept it

    def model_verdict(self, model: Model, values: Sequence[Any], a: int) -> bool | None:
        kind, prm = model.kind, model.params
        counts = Counter(values)
        s = len(values)
        if kind == "distinct_l_diversity":
            return len(counts) >= prm["l"]
        if kind == "p_sensitivity":
            return len(counts) >= prm["p"]
        if kind == "entropy_l_diversity":
            return self.entropy_verdict(values, prm["l"])
        if kind == "recursive_cl_diversity":
            ranked = sorted(counts.values(), reverse=True)
            tail = sum(ranked[prm["l"] - 1:])
            return ranked[0] < exact(prm["c"]) * tail
        if kind == "alpha_k_anonymity":
            return max(counts.values()) <= exact(prm["alpha"]) * s
        if kind == "k_e_anonymity":
            numbers = [v for v in values if v is not None]
            if not numbers:
                return False
            return Fraction(max(numbers) - min(numbers)) >= exact(prm["e"])
        if kind == "kpqr_anonymity":
            return self.kpqr_verdict(values, a, prm)
        if kind == "t_closeness":
            distance = prm.get("distance", "equal")
            emd = {"equal": self.emd_equal, "ordered": self.emd_ordered,
                   "hierarchical": self.emd_hierarchical}[distance](values, a)
            return emd is None or emd <= exact(prm["t"])
        raise AssertionError(f"unknown model {kind}")

    def kpqr_verdict(self, values: Sequence[Any], a: int, prm: Mapping[str, Any]) -> bool:
        """(k,p,q,r), exactly: a class holding a value fewer than q n records of the table hold needs p distinct
        values (NULL counts) and a population variance of at least r times the whole column's (NULLs left out)."""
        column = self.columns[a]
        table = Counter(column)
        n = len(column)
        if not any(table[v] < exact(prm["q"]) * n for v in set(values)):
            return True

        def variance(xs: Sequence[Any]) -> Fraction:
            numbers = [Fraction(x) for x in xs if x is not None]
            if not numbers:
                return Fraction(0)
            mean = sum(numbers) / len(numbers)
            return sum((x - mean) ** 2 for x in numbers) / len(numbers)

        return len(set(values)) >= prm["p"] and variance(values) >= exact(prm["r"]) * variance(column)

    def class_verdict(self, key: tuple, indices: Sequence[int], why: set[str] | None = None) -> bool | None:
        """True (kept), False (suppressed) or None (undecidable entropy); ``why`` collects what failed."""
        failed: set[str] = set()
        unsure = False
        if len(indices) < self.k:
            failed.add("k_anonymity")
        for a, sens in enumerate(self.sensitive):
            values = [self.columns[a][i] for i in indices]
            for model in sens.models:
                verdict = self.model_verdict(model, values, a)
                if verdict is False:
                    failed.add(model.kind + (f"/{model.params.get('distance', 'equal')}"
                                             if model.kind == "t_closeness" else ""))
                unsure |= verdict is None
        if self.presence is not None:
            ps = self.population[key]
            s = len(indices)
            if ps == 0 or not (exact(self.presence.delta_min) * ps <= s <= exact(self.presence.delta_max) * ps):
                failed.add("delta_presence")
        if why is not None:
            why |= failed
        if failed:
            return False
        return None if unsure else True

    # -- one node ----------------------------------------------------------------------------------
    def evaluate(self, node: Sequence[int]) -> ModelNodeResult:
        node = tuple(node)
        base = super().evaluate(node)  # classes, dm_star, wil, precision, height (independent of suppression)
        keys = [self.generalize(r, node) for r in self.records]
        members: dict[tuple, list[int]] = {}
        for i, key in enumerate(keys):
            members.setdefault(key, []).append(i)
        if self.presence is not None:
            self.population = Counter(self.generalize(r, node) for r in self.pop_records)
        why: set[str] = set()
        verdicts = {key: self.class_verdict(key, idx, why) for key, idx in members.items()}
        failing = frozenset(key for key, v in verdicts.items() if v is False)
        flags = [key in failing for key in keys]
        suppressed = sum(flags)
        product = Fraction(1)
        for i, (h, level) in enumerate(zip(self.hier, node, strict=True)):
            if self.n:
                total = sum((Fraction(1) if sup else h.cell_cost(rec[i], level))
                            for rec, sup in zip(self.records, flags, strict=True))
                product *= 1 + total / self.n
        kept_classes = len(members) - len(failing)
        values = dict(base.values)
        values["loss"] = product
        values["aecs"] = Fraction(self.n - suppressed, kept_classes) if kept_classes else Fraction(0)
        values["whd"] = self.whd(node, suppressed)
        return ModelNodeResult(
            node=node, classes=base.classes, suppressed=suppressed, suppressed_classes=len(failing),
            feasible=suppressed <= self.max_suppressed, values=values, failing=failing,
            unsure=any(v is None for v in verdicts.values()), members=members, failed_models=frozenset(why),
        )

    def lattice_unsure(self) -> bool:
        return any(self.evaluate(node).unsure for node in self.nodes())
