"""The (k,p,q,r) heuristic of seed 004 (Domingo-Ferrer, Sebé, Solanas, PSD 2008, section 4), in the database:
groups around the records whose sensitive value is rare are built first, one record at a time, then MDAV groups
the rest (``mdav.py``). Python only drives the loop: every step is one statement that picks the next record, and
what comes back are row ids and a group's figures (size, distinct values, variance), never a value.

For a group C around a rare record x_s (drawn in a seeded order), until its conditions hold:

    (d) while C has fewer than p distinct values: add the nearest record (to x_s) with a new value, preferring
        one that raises Var(C);
    (e) while Var(C) < MinVar: add the nearest record that raises Var(C);
    (f) while |C| < k: add the nearest record that keeps Var(C) >= MinVar;
    (g) if the rare records left cannot form a valid group (their variance below MinVar, or fewer than p
        values), they join C; if C's variance is then below MinVar, its records of common values go back.

MinVar = r * max(Var(rare values), Var(all values)). The paper uses Var(rare values) (the spec notes the
inconsistency): with the larger of the two, every group also meets Definition 7, whose reference is the whole
data set, and both of the paper's experiments are unchanged (there Var(rare) >= Var(all)).

Where a loop finds no record left (the pitfall the spec names), or (g) leaves C short of k, p or MinVar, C is
merged into the group formed before it; the run reports how often. p-sensitive microaggregation (a sensitive
attribute with p_sensitivity or distinct_l_diversity and no kpqr_anonymity) is the same heuristic with every
record rare, r = 0 and no preference for variance; its step (g) differs: when the records left cannot form a
p-sensitive group, each joins the group with the nearest centroid instead of all joining the last group (with
skewed values, the paper's rule made one group of the whole common rest).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...engines.base import EngineAdapter
from ...errors import NoSolutionError

TEMPLATES = "methods/microaggregation/"
#: Group ids of the heuristic start here; MDAV's (part * stride + offset) stay far below.
FIRST_GROUP = 1 << 50


@dataclass(frozen=True)
class Requirement:
    """What every group holding a rare record must meet."""

    k: int
    p: int
    #: Rare: a value held by fewer than q * n records; None: every record counts as rare (p-sensitivity).
    q: Fraction | None
    r: Fraction
    #: (d) prefers records that raise the variance (the (k,p,q,r) heuristic; not p-sensitivity alone).
    prefer_variance: bool


@dataclass
class HeuristicRun:
    """What the heuristic did: groups formed, groups merged into the one before (a step found no record), rare
    records taken in by step (g), and the variance every group had to reach."""

    groups: int = 0
    merged: int = 0
    absorbed_rest: int = 0
    min_var: float = 0.0


def build_groups(adapter: EngineAdapter, table: str, need: Requirement, d: int, seed: int) -> HeuristicRun:
    """Group the rare records of ``table`` (and the records they draw in); the rest stays for MDAV."""
    q = need.q if need.q is not None else Fraction(1)
    adapter.run(TEMPLATES + "mark_rare_values.sql.j2", table=table, num=q.numerator, den=q.denominator,
                all_rare=need.q is None)
    run = HeuristicRun()
    rare_var = _figures(adapter, table, "rare_left")[2] or 0.0
    all_var = _figures(adapter, table, "all")[2] or 0.0
    run.min_var = float(need.r) * max(rare_var, all_var)
    previous: int | None = None
    group = FIRST_GROUP
    while seed_row := adapter.run(TEMPLATES + "next_seed_record.sql.j2", table=table, seed=seed):
        around = int(seed_row[0][0])
        _assign(adapter, table, group, rid=around)
        complete = _grow(adapter, table, group, around, need, d, run.min_var)
        rest_n, rest_distinct, rest_var = _figures(adapter, table, "rare_left")
        rest_cannot = rest_n > 0 and ((rest_var or 0.0) < run.min_var or rest_distinct < need.p)
        if rest_cannot and need.q is not None:  # (g): the rare records left join C
            _assign(adapter, table, group, rest_of_rare=True)
            run.absorbed_rest += rest_n
            if (_figures(adapter, table, group)[2] or 0.0) < run.min_var:
                _assign(adapter, table, None, common_of=group)
            complete = _valid(adapter, table, group, need, run.min_var)
        if complete:
            run.groups += 1
            previous, group = group, group + 1
        elif previous is None:
            raise NoSolutionError(
                f"the (k,p,q,r) heuristic cannot form a first group meeting k={need.k}, p={need.p} and "
                f"r={float(need.r):g} (MinVar {run.min_var:.6g}): the records left do not have the values it "
                f"needs; lower p or r")
        else:
            _assign(adapter, table, previous, merge=group)
            run.merged += 1
        if rest_cannot and need.q is None:  # p-sensitivity: the records left join the nearest groups
            adapter.run(TEMPLATES + "distribute_rare_records.sql.j2", table=table, first_group=FIRST_GROUP, d=d)
            run.absorbed_rest += rest_n
    return run


def _grow(adapter: EngineAdapter, table: str, group: int, around: int, need: Requirement, d: int,
          min_var: float) -> bool:
    """Steps (d), (e), (f) for one group; False when a step finds no record left to add."""
    n, distinct, var = _figures(adapter, table, group)
    now = {"records": n, "distinct": distinct, "variance": var or 0.0}
    steps = (("new_value", lambda: now["distinct"] < need.p), ("raises", lambda: now["variance"] < min_var),
             ("keeps", lambda: now["records"] < need.k))
    for step, unmet in steps:
        while unmet():
            row = adapter.run(TEMPLATES + "nearest_candidate.sql.j2", table=table, group=group, around=around,
                              step=step, prefer_raises=need.prefer_variance, min_var=min_var, d=d)
            if not row:
                return False
            rid, records, distinct, var = row[0]
            now.update(records=int(records), distinct=int(distinct), variance=float(var or 0.0))
            _assign(adapter, table, group, rid=int(rid))
    return True


def _valid(adapter: EngineAdapter, table: str, group: int, need: Requirement, min_var: float) -> bool:
    n, distinct, var = _figures(adapter, table, group)
    return n >= need.k and distinct >= need.p and (var or 0.0) >= min_var


def _figures(adapter: EngineAdapter, table: str, group: int | str) -> tuple[int, int, float | None]:
    """(records, distinct values, variance) of a group (its id), or of 'rare_left' or 'all' records."""
    which = group if isinstance(group, str) else "group"
    n, distinct, var = adapter.run(TEMPLATES + "describe_sensitive_records.sql.j2", table=table, which=which,
                                   group=None if isinstance(group, str) else group)[0]
    return int(n), int(distinct or 0), None if var is None else float(var)


def _assign(adapter: EngineAdapter, table: str, group: int | None, *, rid: int | None = None,
            rest_of_rare: bool = False, merge: int | None = None, common_of: int | None = None) -> None:
    adapter.run(TEMPLATES + "assign_records.sql.j2", table=table, group=group, rid=rid, rest_of_rare=rest_of_rare,
                merge=merge, common_of=common_of)
