"""What ``sqlanon check`` measured (``CheckResult``, the ``--json`` object) and its text lines."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .boxes import REQUEST_MODE_NOTE


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
    #: With a source table and key: the modification rate, overall and per column, the rows matched, missing
    #: and unmatched, and the WHD of the quasi-identifiers given a hierarchy (``comparison.py``).
    source_comparison: dict[str, Any] | None = field(default=None)
    #: With ``--box``: the distinct boxes, the rows with an invalid one; with a source, the values outside their
    #: box and the per-request k (``boxes.py``).
    boxes: dict[str, Any] | None = field(default=None)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("sensitive", "delta_presence", "information_loss", "source_comparison", "boxes"):
            if data[key] is None:
                del data[key]
        if self.masked_rows is None:  # without --masked-as-suppressed the report keeps its keys of before
            for key in ("masked_rows", "suppression_limit", "within_suppression_limit"):
                del data[key]
        return data

    @property
    def passed(self) -> bool:
        """k-anonymous (when k was given; per request with ``--per-request``), the masked rows within the limit
        (when one was given), and no ``violations``."""
        boxes = self.boxes or {}
        k_met = boxes["per_request_k_anonymous"] if boxes.get("per_request_judged") else self.k_anonymous
        return k_met is not False and self.within_suppression_limit is not False and not self.violations

    @property
    def violations(self) -> list[str]:
        """What the table breaks besides k: invalid boxes, source values outside their box, released values that
        are no generalization of their source value."""
        found: list[str] = []
        boxes, comparison = self.boxes or {}, self.source_comparison or {}
        if boxes.get("invalid_boxes"):
            found.append(f"{boxes['invalid_boxes']} row(s) with an invalid box (not c_min < c_max, nor both NULL)")
        outside = {c: n for c, n in boxes.get("values_outside_box", {}).items() if n}
        if outside:
            found.append("source values outside their released box: " + _counts(outside))
        not_generalized = {q: v["values_not_generalized"] for q, v in comparison.get("by_attribute", {}).items()
                           if v.get("values_not_generalized")}
        if not_generalized:
            found.append("released values that are no label of their source value in its hierarchy (the table "
                         "does not generalize its source): " + _counts(not_generalized))
        return found


def _counts(by: dict[str, Any]) -> str:
    return ", ".join(f"{name} = {n}" for name, n in by.items())


def _num(value: Any) -> str:
    return "n/a" if value is None else f"{value:.6g}" if isinstance(value, float) else str(value)


def format_verdict(result: CheckResult) -> list[str]:
    """Text lines after the k-anonymity verdict: the per-request k of a cloaking release, and the violations."""
    lines: list[str] = []
    boxes = result.boxes or {}
    per_request = boxes.get("per_request_k_anonymous")
    if result.k_anonymous is False and per_request:
        lines.append(f"  {REQUEST_MODE_NOTE}")
    if boxes.get("per_request_judged"):
        lines.append(f"  --per-request: per-request k = {_num(boxes['per_request_k'])} "
                     f"{'>=' if per_request else '<'} k={result.k} -> "
                     f"{'every request is protected' if per_request else 'NOT k-anonymous per request'} "
                     f"(the exit code judges this, not the classes)")
    elif result.k_anonymous is False and per_request:
        lines.append("  (exit code 3: the table is not k-anonymous; --per-request judges the per-request k instead)")
    lines.extend(f"  VIOLATION: {v}" for v in result.violations)
    return lines


def format_report(result: CheckResult) -> list[str]:
    """Text lines for the sensitive-attribute, source, box and delta-presence part of ``sqlanon check``."""
    lines: list[str] = []
    num = _num

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
    lines.extend(_comparison_lines(result.source_comparison, il is None))
    lines.extend(_box_lines(result.boxes, result.k))
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


def _comparison_lines(sc: dict[str, Any] | None, loss_omitted: bool) -> list[str]:
    if sc is None:
        return []
    lines = [f"  against the source {sc['source']} ({sc['source_rows']} rows, matched on {sc['key']}): "
             f"{sc['matched_rows']} matched, {sc['missing_rows']} missing from the table (suppressed or removed)"]
    by = sc["by_attribute"]
    lines.append(f"    modification rate: {_num(sc['modification_rate'])} ({sc['modified_cells']} of {sc['cells']} "
                 f"cells)" + (": " + ", ".join(f"{q} = {_num(v['modification_rate'])}" for q, v in by.items())
                              if by else ""))
    if "whd" in sc:
        weights = sc["whd_weights"] + ("" if sc["whd_weights"] == "uniform" else f", beta {_num(sc['whd_beta'])}")
        lines.append(f"    WHD ({weights} weights): {_num(sc['whd'])} per cell, distortion "
                     f"{_num(sc['whd_distortion'])}: " + ", ".join(f"{q} = {_num(v['whd'])}" for q, v in by.items()
                                                                  if "whd" in v))
    if sc["unmatched_table_rows"]:
        lines.append(f"    warning: {sc['unmatched_table_rows']} row(s) of the table match no source row on "
                     f"{sc['key']}")
    if loss_omitted and "information_loss_omitted" in sc:
        lines.append(f"    information loss: omitted ({sc['information_loss_omitted']})")
    return lines


def _box_lines(boxes: dict[str, Any] | None, k: int | None) -> list[str]:
    if boxes is None:
        return []
    lines = [f"  boxes over {', '.join(boxes['columns'])} ([c_min, c_max)): {boxes['distinct_boxes']} distinct, "
             f"{boxes['invalid_boxes']} rows with an invalid box"]
    if "values_outside_box" in boxes:
        lines.append("    source values outside their box: " + _counts(boxes["values_outside_box"]))
        who = "source records" if boxes["subject"] is None else f"distinct {boxes['subject']} of the source"
        below = "" if k is None else f"; {boxes['boxes_below_k']} box(es) hold fewer than k={k}"
        lines.append(f"    per-request k: {_num(boxes['per_request_k'])} (the fewest {who} inside a released box, "
                     f"box dimensions only){below}")
    return lines
