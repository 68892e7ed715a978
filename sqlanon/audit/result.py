"""What ``sqlanon check`` measured (``CheckResult``, the ``--json`` object) and its text lines."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class CheckResult:
    """What ``sqlanon check`` measured; ``to_dict()`` is the CLI's ``--json`` object.

    ``sensitive`` (attribute -> measures) is present only when sensitive attributes were given,
    ``delta_presence`` only with a population table.
    """

    table: str
    quasi_identifiers: list[str]
    k: int | None
    rows: int
    classes: int
    smallest_class: int | None
    largest_class: int | None
    classes_below_k: int | None
    records_below_k: int | None
    rows_with_null: int
    k_anonymous: bool | None
    sensitive: dict[str, dict[str, Any]] | None = field(default=None)
    delta_presence: dict[str, Any] | None = field(default=None)
    #: With ``masked_as_suppressed``: rows whose every quasi-identifier is '*', counted as suppressed records
    #: (excluded from ``classes`` and the class sizes above, included in ``rows``).
    masked_rows: int | None = field(default=None)
    #: With ``masked_as_suppressed``: the most masked rows allowed (None: no limit given).
    suppression_limit: int | None = field(default=None)
    #: With a ``suppression_limit``: whether ``masked_rows`` is within it.
    within_suppression_limit: bool | None = field(default=None)
    #: With a source table and key (microaggregation): SSE, SST and IL = 100 * SSE / SST, in total and per
    #: quasi-identifier, of the table's values against the source's.
    information_loss: dict[str, Any] | None = field(default=None)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("sensitive", "delta_presence", "information_loss"):
            if data[key] is None:
                del data[key]
        if self.masked_rows is None:  # without --masked-as-suppressed the report keeps its keys of before
            for key in ("masked_rows", "suppression_limit", "within_suppression_limit"):
                del data[key]
        return data

    @property
    def passed(self) -> bool:
        """k-anonymous (when k was given) and the masked rows within the limit (when one was given)."""
        return self.k_anonymous is not False and self.within_suppression_limit is not False


def format_report(result: CheckResult) -> list[str]:
    """Text lines for the sensitive-attribute and delta-presence part of ``sqlanon check``."""
    lines: list[str] = []

    def num(value: Any) -> str:
        return f"{value:.6g}" if isinstance(value, float) else str(value)

    for name, m in (result.sensitive or {}).items():
        nulls = f", {m['null_rows']} NULL rows" if m["null_rows"] else ""
        lines.append(f"  sensitive attribute {name} ({m['type']}, {m['distinct_values']} distinct values"
                     f"{' incl. NULL' if m['null_rows'] else ''}{nulls}):")
        if m["distinct_l"] is None:
            lines.append("    no equivalence classes (empty table)")
            continue
        lines.append(f"    distinct l-diversity: l = {m['distinct_l']}   (p-sensitivity: p = {m['p']})")
        lines.append(f"    entropy l-diversity: l = {num(m['entropy_l'])}")
        lines.append(f"    recursive (c,l)-diversity with c = {num(m['recursive_c'])}: l = {m['recursive_l']}")
        lines.append(f"    (alpha,k)-anonymity: alpha = {num(m['alpha'])}")
        ordered = "n/a (not numeric)" if m["t_ordered"] is None else num(m["t_ordered"])
        hierarchical = "n/a (no --hierarchy)" if m["t_hierarchical"] is None else num(m["t_hierarchical"])
        lines.append(f"    t-closeness: equal distance t = {num(m['t_equal'])}; ordered distance t = {ordered}; "
                     f"hierarchical distance t = {hierarchical}")
        lines.append(f"    (k,e)-anonymity: e = {'n/a (not numeric)' if m['e'] is None else num(m['e'])}")
        if "kpqr" in m:
            kp = m["kpqr"]
            r = "n/a (not numeric)" if kp["r"] is None and kp["p"] is not None else num(kp["r"])
            lines.append(f"    (k,p,q,r)-anonymity with q = {num(kp['q'])}: {kp['classes_with_rare_values']} classes "
                         f"hold a rare value" + ("" if kp["p"] is None else f"; p = {kp['p']}, r = {r}"))
    il = result.information_loss
    if il is not None:
        lines.append(f"  information loss against {il['source']} ({il['matched_rows']} rows matched on {il['key']}, "
                     f"{il['standardize']}): IL = {num(il['information_loss'])} (SSE {num(il['sse'])} / "
                     f"SST {num(il['sst'])})")
        lines.append("    by attribute: " + ", ".join(f"{q} = {num(v['information_loss'])}"
                                                   for q, v in il["by_attribute"].items()))
    d = result.delta_presence
    if d is not None:
        if d["delta_min"] is None:
            lines.append(f"  delta-presence against {d['population']}: no classes (empty table)")
        else:
            lines.append(f"  delta-presence against {d['population']} ({d['population_rows']} rows): "
                         f"delta_min = {num(d['delta_min'])}, delta_max = {num(d['delta_max'])}")
        if d["classes_larger_than_population"]:
            lines.append(f"    warning: {d['classes_larger_than_population']} class(es) have more records than "
                         f"the population (delta > 1): the table is not a subset of the population")
    return lines
