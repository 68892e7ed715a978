"""The generalization method's sections of a run report: each quasi-identifier's level, loss and examples,
and every lattice node's outcome in the search (the lattice picture)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...engines.base import EngineAdapter
from ...evaluation.evaluator import NodeStats
from ...lattice import Node
from ...lattice.search.base import SearchProblem
from ...metrics.loss import unit_weight
from .config import GeneralizationConfig
from .preparation import PreparedData

#: Above this many nodes the report keeps only the counts per state (the picture shows bars).
MAX_NODES_IN_REPORT = 20_000
EXAMPLES = 5


def attribute_losses(data: PreparedData, node: Node, stats: NodeStats) -> list[float]:
    """Loss per quasi-identifier, v_i of SEMANTICS.md: mean over records of 1 (suppressed) or (c-1)/(N-1)."""
    ctx = data.ctx
    out = []
    for i, level in enumerate(node):
        unit = unit_weight(ctx.leaves[i])
        kept = ctx.weight_sums[i][level] - (stats.suppressed_weights[i] if stats.suppressed_weights else 0)
        out.append(float(Fraction(stats.suppressed_records * unit + kept, ctx.records * unit)))
    return out


def attributes(
    adapter: EngineAdapter, cfg: GeneralizationConfig, data: PreparedData, node: Node, stats: NodeStats
) -> list[dict[str, Any]]:
    losses = attribute_losses(data, node, stats)
    basic = cfg.privacy.null_handling == "basic"
    examples_of = [
        adapter.run("report_hierarchy_examples.sql.j2", table=h.values_table, level=level, limit=EXAMPLES + 1)
        for h, level in zip(data.hierarchies, node, strict=True)
    ]
    # Every hierarchy has a NULL row (extended match), but "NULL -> NULL" only says something about a column
    # that holds NULLs: asked of the source only then (one count of every such column; basic match removed
    # them all).
    asked = [h.attribute for h, examples in zip(data.hierarchies, examples_of, strict=True)
             if not basic and any(v is None for v, _ in examples)]
    with_nulls = _columns_with_nulls(adapter, data, asked)
    out = []
    for i, (h, level) in enumerate(zip(data.hierarchies, node, strict=True)):
        examples = examples_of[i]
        if any(v is None for v, _ in examples) and h.attribute not in with_nulls:
            examples = [(v, g) for v, g in examples if v is not None]
        examples = examples[:EXAMPLES]
        out.append(
            {
                "name": h.attribute,
                "level": level,
                "height": h.height,
                "max_level": data.lattice.max_levels[i],
                "loss": losses[i],
                "priority": cfg.attributes[h.attribute].priority,
                "examples": [[None if v is None else str(v), None if g is None else str(g)] for v, g in examples],
            }
        )
    return out


def _columns_with_nulls(adapter: EngineAdapter, data: PreparedData, columns: list[str]) -> set[str]:
    """Which of ``columns`` hold a NULL in the source, in one pass (over its grouped rows where there are:
    fewer to read)."""
    if not columns:
        return set()
    source = (data.grouped.table,) if data.grouped else data.source
    counts = adapter.run("count_nulls.sql.j2", source=source, columns=columns)[0]
    return {c for c, n in zip(columns, counts, strict=True) if int(n) > 0}


def search(problem: SearchProblem, data: PreparedData, node: Node, qis: list[str]) -> dict[str, Any]:
    """Every lattice node's outcome: evaluated in SQL, inferred by predictive tagging, or pruned by a bound."""
    lattice = data.lattice
    evaluated = problem.evaluator.cache
    # With non-monotone models some nodes were only checked for k-anonymity alone (a necessary condition):
    # failing it is infeasible; passing it says nothing about the models, so such a node counts as pruned.
    k_only = {n: s for n, s in problem.core.evaluator.cache.items() if n not in evaluated} if problem.core else {}
    limit = data.ctx.max_suppressed
    counts = dict.fromkeys(
        ("optimum", "feasible", "infeasible", "inferred_feasible", "inferred_infeasible", "pruned"), 0
    )
    nodes: list[dict[str, Any]] | None = [] if lattice.size <= MAX_NODES_IN_REPORT else None
    # A search of the implicit lattice (top_down, lightning) tags nothing: its unchecked nodes count as pruned,
    # and only its checked nodes are listed (the lattice may have trillions).
    listed = lattice.nodes() if not problem.implicit else sorted({node, *evaluated, *k_only})
    if problem.implicit:
        counts["pruned"] = lattice.size - len(listed)
    for candidate in listed:
        stats = evaluated.get(candidate)
        if candidate == node:
            state = "optimum"
        elif stats is not None:
            state = "feasible" if stats.suppressed_records <= limit else "infeasible"
        elif candidate in k_only:
            state = "pruned" if k_only[candidate].suppressed_records <= limit else "infeasible"
        else:
            tag = problem.space.tag(candidate)
            state = "pruned" if tag is None else ("inferred_feasible" if tag else "inferred_infeasible")
        counts[state] += 1
        if nodes is not None:
            value = None
            if (
                stats is not None
                and stats.suppressed_records <= limit
                and (stats.suppressed_weights is not None or not problem.metric.needs_loss_weights)
            ):
                value = problem.metric.display(problem.metric.value(candidate, stats, data.ctx), data.ctx)
            nodes.append({"levels": list(candidate), "state": state, "metric": value})
    return {
        "strategy": None,
        "nodes_evaluated": problem.nodes_evaluated,
        # Checked in SQL for k-anonymity alone, passed it, and pruned before their models were evaluated.
        "nodes_k_only_pruned": sum(1 for s in k_only.values() if s.suppressed_records <= limit),
        "lattice_size": lattice.size,
        "full_lattice_size": lattice.full_size,
        "quasi_identifiers": qis,
        "heights": list(lattice.heights),
        "counts": counts,
        "nodes": nodes,
    }
