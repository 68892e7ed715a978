"""``sqlanon explain``: the SQL that builds the frequency set and evaluates one lattice node, runnable as
printed (bind parameters written in as literals, the run's scratch tables named and described)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...criteria import criteria_from_config
from ...errors import ConfigError
from ...evaluation import FrequencySet, NodeEvaluator
from ...metrics import metric_by_name
from .preparation import PreparedData

if TYPE_CHECKING:
    from ...session import Session


def explain(session: Session, data: PreparedData, node: dict[str, int]) -> str:
    cfg = session.config
    qis = cfg.quasi_identifiers
    unknown = [a for a in node if a not in qis]
    if unknown:
        raise ConfigError(f"--node: {', '.join(unknown)} is not a quasi-identifier (they are: {', '.join(qis)})")
    levels = tuple(node.get(q, 0) for q in qis)
    if not data.lattice.contains(levels):
        limits = ", ".join(f"{q}<={m}" for q, m in zip(qis, data.lattice.max_levels, strict=True))
        raise ConfigError(f"--node: {levels} is outside the lattice ({limits})")
    adapter = session.adapter
    evaluator = NodeEvaluator(adapter, data.fset, cfg.privacy.k, metric_by_name(cfg.search.metric).needs_loss_weights,
                              criteria_from_config(cfg))
    fs_sql, fs_params = adapter.render(
        "build_frequency_set.sql.j2", table=data.fset.table, source=data.source,
        qis=FrequencySet.qi_context(data.hierarchies),
        basic=cfg.privacy.null_handling == "basic", sensitive=list(data.fset.sensitive),
    )
    # Run the node's query once: it makes any table a run makes on first use (the code table), so every
    # table the printed query names was there, and the query is known to run.
    evaluator.evaluate(levels)
    sql, params = evaluator.sql(levels)
    shown = ", ".join(f"{q}={lvl}" for q, lvl in zip(qis, levels, strict=True))
    # Bind parameters are written in as literals, so the statements run as printed once the run's
    # temporary tables exist; the header names each of them (they were dropped when the session ended).
    statements = [adapter.display_sql(fs_sql, fs_params).rstrip() + ";",
                  adapter.display_sql(sql, params).rstrip() + ";"]
    fset = data.fset
    known = {
        session.prefix + "src": f"the source, {data.source_display}, read into a temporary table",
        fset.table: "the frequency set: the first statement below creates it",
        fset.codes_table: "the frequency set's counts and codes alone (a copy without the Loss weights)",
        fset.code_weights: "each code's Loss weight",
        **{h.coded_table: f"the hierarchy of {h.attribute}, integer-coded: value, g<level> (codes), "
                          f"w<level> (Loss weights)" for h in data.hierarchies},
        **{h.values_table: f"the hierarchy of {h.attribute} as written: value, l<level> (labels)"
           for h in data.hierarchies if h.values_table != h.coded_table},
    }
    names = sorted(set(re.findall(re.escape(session.prefix) + r"\w+", "\n".join(statements))))
    width = max((len(n) for n in names), default=0) + 2
    header = [
        f"-- sqlanon explain {cfg.source_file}: node {shown}",
        f"-- engine: {adapter.name}",
        "-- Bind parameters are written in place as SQL literals.",
    ]
    if names:
        header += [
            f"-- The tables named {session.prefix}* are the run's TEMPORARY tables: they existed only in",
            "-- sqlanon's session while it ran: explain built them, ran the node query, then dropped them.",
            "-- To run the statements below, create them first in one session, or put your own tables in",
            "-- their place:",
            *(f"--   {name.ljust(width)}{known.get(name) or 'a temporary table derived from the frequency set'}"
              for name in names),
        ]
    return "\n".join([
        *header, "", "-- frequency set (built once per run)", statements[0], "", f"-- node {shown}",
        statements[1], "",
    ])
