"""Write the run report as JSON or as one self-contained HTML page.

The HTML page carries its CSS and its charts (inline SVG) inside, so it can be mailed or archived next to the
anonymized table and opened offline. Names and values in the report come from the user's database; the
template autoescapes everything, and the SVG helpers escape their text themselves.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import jinja2

from sqlanon.report.formats import report_format

from . import lattice_svg, svg

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).resolve().parent),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENV.filters["num"] = svg.fmt_num


def render_html(report: dict[str, Any]) -> str:
    """The report as one HTML document (no external resources, no JavaScript)."""
    return _ENV.get_template("report.html.j2").render(
        r=report, v=_view(report), dist_ok=svg.DIST_OK_COLOR, dist_bad=svg.DIST_BAD_COLOR
    )


def write_report(report: dict[str, Any], path: Path) -> None:
    """Write the report as ``.html`` or ``.json`` (by suffix), atomically: readers never see half a file."""
    path = Path(path)
    if report_format(path) == "html":
        text = render_html(report)
    else:
        text = json.dumps(report, indent=2, sort_keys=False) + "\n"
    # The temporary file is in the target's folder so that os.replace is a rename on one file system.
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; a report is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _view(report: dict[str, Any]) -> dict[str, Any]:
    """Everything the template shows that needs computing: charts, shares, margins, verdicts."""
    models = report.get("models") or []
    k = next((m["limit"] for m in models if m.get("parameter") == "k"), None)
    rows = report["rows"]
    search = report.get("search")  # the lattice search of generalization; other methods have none
    classes = report.get("classes")  # None on a dry run: no table was written to measure
    nodes = search.get("nodes") if search else None
    return {
        "transformation": ", ".join(f"{name}={level}" for name, level in (report.get("transformation") or {}).items()),
        "metric_value": (report.get("metrics") or {}).get(report.get("metric")),
        "verdict": _verdict(report),
        "verification_details": [
            (key, value) for key, value in (report.get("verification") or {}).items() if key != "verified"
        ],
        "k": k,
        "histogram": svg.histogram(classes.get("size_histogram") or [], k) if classes else None,
        "suppressed_share": rows["suppressed"] / rows["considered"] if rows.get("considered") else None,
        "suppression_bar": svg.usage_bar(rows["suppressed"], rows["suppression_limit"]),
        "loss_bars": svg.loss_bars(report.get("attributes") or _grouped_losses(report)),
        "models": [_model_row(m) for m in models],
        "unprotected": _unprotected(models),
        "distributions": _distributions(models),
        "lattice": lattice_svg.lattice(search, report.get("metric") or "metric") if search else None,
        "legend": lattice_svg.legend(search) if search else [],
        "edges_drawn": bool(nodes) and len(nodes) <= lattice_svg.MAX_NODES_WITH_EDGES,
        "config_json": json.dumps(report.get("config"), indent=2, ensure_ascii=False, default=str),
    }


def _grouped_losses(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Microaggregation's loss per quasi-identifier as a share (IL / 100: SSE / SST) for the loss bars."""
    by_attribute = (report.get("microaggregation") or {}).get("information_loss_by_attribute") or {}
    return [{"name": name, "loss": value["information_loss"] / 100} for name, value in by_attribute.items()]


def _distributions(models: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One small chart per model that carries a distribution of its per-class measure (ids dist-0, dist-1, ...)."""
    charts: list[dict[str, Any]] = []
    for model in models:
        pairs = model.get("distribution")
        if not pairs:
            continue
        on = f" on {model['attribute']}" if model.get("attribute") is not None else ""
        title = f"{model['model']}{on}: classes by {model['parameter']}"
        chart = svg.distribution(
            pairs, model.get("limit"), model.get("direction", ""), model["parameter"], f"dist-{len(charts)}", title
        )
        if chart is None:
            continue
        unmeasured = sum(int(n or 0) for value, n in pairs if not svg.is_number(value))
        charts.append({"title": title, "svg": chart, "unmeasured": unmeasured})
    return charts


def _verdict(report: dict[str, Any]) -> dict[str, str]:
    verification = report.get("verification")
    if verification and verification.get("verified"):
        return {"css": "good", "text": "verified", "reason": ""}
    if report.get("status") == "dry_run" and not verification:
        return {"css": "neutral", "text": "not verified — dry run, nothing was written", "reason": ""}
    if not verification:
        return {"css": "bad", "text": "NOT verified", "reason": "no verification ran"}
    reason = str(verification.get("reason") or "")
    if verification.get("models_verified") is False and reason in ("", "ok"):
        # The table check passed ("ok") but a privacy model's re-check on the written table did not.
        reason = "a privacy model does not hold on the written table"
    return {"css": "bad", "text": "NOT verified", "reason": "" if reason == "ok" else reason}


_SYMBOLS = {">=": "≥", "<=": "≤", "in": "∈"}


_MEASURE_NAMES = {"l": "distinct l", "alpha": "alpha", "t": "t (equal distance)"}


def _unprotected(models: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sensitive attributes without a privacy model (``declared: false`` rows), each with its measured values."""
    out: dict[str, dict[str, Any]] = {}
    for model in models:
        if model.get("declared") is False:
            entry = out.setdefault(model["attribute"], {"attribute": model["attribute"], "measures": []})
            if model["worst"] is not None:
                entry["measures"].append((_MEASURE_NAMES.get(model["parameter"], model["parameter"]), model["worst"]))
    return list(out.values())


def _model_row(model: dict[str, Any]) -> dict[str, Any]:
    if model.get("declared") is False:
        return {**model, "condition": "–", "margin": None, "gauge": None}
    worst, limit, direction = model.get("worst"), model["limit"], model["direction"]
    margin = None
    if worst is not None:
        if direction == "in":  # distance to the nearer end of the allowed range
            margin = min(worst - limit[0], limit[1] - worst)
        else:
            margin = worst - limit if direction == ">=" else limit - worst
    return {
        **model,
        "declared": True,  # reports written before sqlanon measured undeclared attributes have no such key
        "condition": f"{model['parameter']} {_SYMBOLS.get(direction, direction)} {svg.fmt_num(limit)}",
        "margin": None if margin is None else (f"{margin:+,}" if isinstance(margin, int) else f"{margin:+.4g}"),
        "gauge": svg.gauge(worst, limit, direction, model.get("satisfied")),
    }
