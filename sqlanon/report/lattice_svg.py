"""The generalization lattice as an inline SVG: one row per height (sum of levels), one mark per node.

The mark's colour says how the search decided the node. Size and shape depend on the lattice's size so that
both an 18-node and a 5,000-node lattice stay readable: big circles with edges to their direct generalizations
for small lattices, smaller circles, then small squares in wrapped rows for large ones.
The SVG holds one ``<circle>`` or ``<rect>`` per node (the legend is HTML), except in a large lattice's picture
of squares: there the nodes decided without SQL (inferred or pruned: most of them) are one ``<path>`` per state,
a square per node, whose ``data-nodes`` says how many (tests count both). A ``<rect>`` with its tooltip cost
~190 bytes a node: ADULT's 4,320 nodes made an 862 KB report; a square in a path costs ~20.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from .svg import MARKER_COLOR, WIDTH, el, fmt_num, svg

OPTIMUM_COLOR = "#d62728"
FEASIBLE_COLOR = "#2ca02c"
INFEASIBLE_COLOR = "#7f7f7f"
INFERRED_FEASIBLE_COLOR = "#98df8a"
INFERRED_INFEASIBLE_COLOR = "#c7c7c7"
PRUNED_COLOR = "#ffffff"  # drawn with PRUNED_OUTLINE: never evaluated, so "empty"
PRUNED_OUTLINE = "#8c8c8c"
EDGE_COLOR = "#cfcfcf"

STATES = ("optimum", "feasible", "infeasible", "inferred_feasible", "inferred_infeasible", "pruned")
STATE_COLORS = {
    "optimum": OPTIMUM_COLOR,
    "feasible": FEASIBLE_COLOR,
    "infeasible": INFEASIBLE_COLOR,
    "inferred_feasible": INFERRED_FEASIBLE_COLOR,
    "inferred_infeasible": INFERRED_INFEASIBLE_COLOR,
    "pruned": PRUNED_COLOR,
}
STATE_LABELS = {
    "optimum": "optimum",
    "feasible": "feasible (SQL)",
    "infeasible": "infeasible (SQL)",
    "inferred_feasible": "feasible (inferred)",
    "inferred_infeasible": "infeasible (inferred)",
    "pruned": "pruned (bound)",
}

MAX_NODES_WITH_EDGES = 150
MAX_NODES_AS_CIRCLES = 1500
MAX_HEIGHT = 720  # px; beyond it the marks shrink (down to the tier's smallest cell)
#: Vertical room of one height's row at least: every row's label on the y-axis is shown, none overlaps.
ROW_LABEL_SPACING = 13.0
#: States drawn as one path each in the picture of squares (nodes no SQL query evaluated).
PATH_STATES = ("inferred_feasible", "inferred_infeasible", "pruned")
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 16, 16, 16


def legend(search: dict[str, Any]) -> list[dict[str, Any]]:
    """Legend entries (state, label, colour, count) from ``search.counts``, else counted from the nodes."""
    counts = dict(search.get("counts") or {})
    if not counts and search.get("nodes"):
        for node in search["nodes"]:
            counts[node["state"]] = counts.get(node["state"], 0) + 1
    return [{"state": s, "label": STATE_LABELS[s], "color": STATE_COLORS[s], "count": counts.get(s, 0)} for s in STATES]


def lattice(search: dict[str, Any], metric: str) -> Markup:
    """The node picture, or (when the report kept only counts) one bar split by state."""
    nodes = search.get("nodes")
    if nodes is None:
        return counts_bar(legend(search))
    if not nodes:
        return svg(WIDTH, 40, [el("text", "No lattice nodes recorded.", x=_LEFT, y=24)], id="lattice-svg")
    return _node_picture(nodes, search.get("heights"), metric)


def _tiers(n: int) -> tuple[str, float, float, float]:
    """(shape, largest cell, smallest cell, vertical gap between heights) for a lattice of n nodes."""
    if n <= MAX_NODES_WITH_EDGES:
        return "circle", 44.0, 10.0, 22.0
    if n <= MAX_NODES_AS_CIRCLES:
        return "circle", 20.0, 7.0, 8.0
    return "rect", 12.0, 5.0, 6.0


def _cell_size(row_sizes: list[int], plot_w: float, cell_max: float, cell_min: float, gap: float) -> float:
    """The largest cell (up to cell_max) whose picture, with wide rows wrapped, fits in MAX_HEIGHT."""
    cell = max(cell_min, min(cell_max, plot_w / max(row_sizes)))
    while cell > cell_min:
        per_line = max(1, int(plot_w // cell))
        if sum(_band(max(1, math.ceil(n / per_line)), cell, gap) for n in row_sizes) + len(row_sizes) * gap \
                <= MAX_HEIGHT:
            break
        cell = max(cell_min, cell - 1)
    return cell


def _band(lines: int, cell: float, gap: float) -> float:
    """The height of one row of the picture (its wrapped lines of marks): room for its label at least."""
    return max(lines * cell, ROW_LABEL_SPACING - gap)


def _node_picture(nodes: Sequence[dict[str, Any]], heights: Sequence[int] | None, metric: str) -> Markup:
    shape, cell_max, cell_min, gap = _tiers(len(nodes))
    plot_w = WIDTH - _LEFT - _RIGHT
    rows: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for node in nodes:
        rows[sum(node["levels"])].append(node)
    top_height = sum(h - 1 for h in heights) if heights else max(rows)
    cell = _cell_size([len(rows.get(h, ())) for h in range(top_height + 1)], plot_w, cell_max, cell_min, gap)
    per_line = max(1, int(plot_w // cell))  # rows wider than this wrap onto further lines
    radius = min(9.0, cell * 0.36)

    positions: dict[tuple[int, ...], tuple[float, float]] = {}
    labels = []
    y = float(_TOP)
    for height in range(top_height, -1, -1):  # the top node (everything generalized) at the top
        row = sorted(rows.get(height, []), key=lambda node: node["levels"])
        lines = max(1, math.ceil(len(row) / per_line))
        band = _band(lines, cell, gap)
        top = y + (band - lines * cell) / 2  # the marks centred in their band
        labels.append(el("text", height, x=_LEFT - 12, y=y + band / 2 + 4, text_anchor="end", font_size=11))
        for i, node in enumerate(row):
            line, col = divmod(i, per_line)
            in_line = min(per_line, len(row) - line * per_line)
            x = _LEFT + plot_w / 2 + (col - (in_line - 1) / 2) * cell
            positions[tuple(node["levels"])] = (x, top + line * cell + cell / 2)
        y += band + gap
    height_px = y - gap + _BOTTOM

    out = [*labels]
    out.append(
        el(
            "text",
            "height (sum of levels)",
            x=14,
            y=height_px / 2,
            text_anchor="middle",
            font_size=11,
            transform=f"rotate(-90 14 {height_px / 2:.1f})",
        )
    )
    if len(nodes) <= MAX_NODES_WITH_EDGES:
        out.extend(_edges(positions))
    optimum = None
    grouped: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for node in nodes:
        if node["state"] == "optimum":
            optimum = node  # drawn last, on top of its neighbours
            continue
        if shape == "rect" and node["state"] in PATH_STATES:
            grouped[node["state"]].append(positions[tuple(node["levels"])])
            continue
        out.append(_mark(node, positions, shape, radius, cell, metric))
    out.extend(_squares(state, grouped[state], cell - 1.5) for state in PATH_STATES if grouped[state])
    if optimum is not None:
        out.extend(_optimum(optimum, positions, radius, metric))
    return svg(WIDTH, height_px, out, id="lattice-svg")


def _title(node: dict[str, Any], metric: str) -> Markup:
    levels = ", ".join(str(v) for v in node["levels"])
    value = f", {metric} {fmt_num(node['metric'])}" if node.get("metric") is not None else ""
    return el("title", f"({levels}) {STATE_LABELS.get(node['state'], node['state'])}{value}")


def _mark(node: dict[str, Any], positions: dict, shape: str, radius: float, cell: float, metric: str) -> Markup:
    x, y = positions[tuple(node["levels"])]
    state = node["state"]
    fill = STATE_COLORS.get(state, PRUNED_COLOR)
    stroke = PRUNED_OUTLINE if state == "pruned" else None
    if shape == "circle":
        return el(
            "circle",
            _title(node, metric),
            cx=x,
            cy=y,
            r=radius,
            fill=fill,
            stroke=stroke or "#ffffff",
            stroke_width=1,
            class_="node",
            data_state=state,
        )
    side = cell - 1.5
    return el(
        "rect",
        _title(node, metric),
        x=x - side / 2,
        y=y - side / 2,
        width=side,
        height=side,
        fill=fill,
        stroke=stroke,
        stroke_width=0.8 if stroke else None,
        class_="node",
        data_state=state,
    )


def _squares(state: str, centres: list[tuple[float, float]], side: float) -> Markup:
    """One ``<path>`` of squares of ``side`` px centred on ``centres``, all nodes of one state. Corners are in
    tenths of a pixel and each square moves relative to the last (``m4.9 0h3.5v3.5h-3.5z``), so that a node
    costs ~20 bytes; the tooltip is the state's, with its count."""
    step = _tenths(round(side * 10))
    square = f"h{step}v{step}h-{step}z"
    parts, last = [], None
    for x, y in centres:
        corner = (round((x - side / 2) * 10), round((y - side / 2) * 10))
        if last is None:
            parts.append(f"M{_tenths(corner[0])} {_tenths(corner[1])}{square}")
        else:
            parts.append(f"m{_tenths(corner[0] - last[0])} {_tenths(corner[1] - last[1])}{square}")
        last = corner
    return el(
        "path",
        el("title", f"{STATE_LABELS[state]}: {len(centres):,} nodes (decided without SQL)"),
        d="".join(parts),
        fill=STATE_COLORS[state],
        stroke=PRUNED_OUTLINE if state == "pruned" else None,
        stroke_width=0.8 if state == "pruned" else None,
        class_="nodes",
        data_state=state,
        data_nodes=len(centres),
    )


def _tenths(value: int) -> str:
    """A length given in tenths of a pixel, as short as SVG path data allows: 49 -> '4.9', 30 -> '3', -5 -> '-.5'.

    >>> [_tenths(v) for v in (49, 30, -5, 0, -120)]
    ['4.9', '3', '-.5', '0', '-12']
    """
    sign, whole, tenth = "-" if value < 0 else "", *divmod(abs(value), 10)
    return f"{sign}{whole or ''}.{tenth}" if tenth else f"{sign}{whole}"


def _edges(positions: dict[tuple[int, ...], tuple[float, float]]) -> list[Markup]:
    """A line from each node to each direct generalization (one attribute one level up)."""
    out = []
    for levels, (x1, y1) in positions.items():
        for i in range(len(levels)):
            up = levels[:i] + (levels[i] + 1,) + levels[i + 1 :]
            if up in positions:
                x2, y2 = positions[up]
                out.append(el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=EDGE_COLOR, stroke_width=1))
    return out


def _optimum(node: dict[str, Any], positions: dict, radius: float, metric: str) -> list[Markup]:
    x, y = positions[tuple(node["levels"])]
    r = max(radius * 1.5, 7.0)
    label = "optimum (" + ", ".join(str(v) for v in node["levels"]) + ")"
    right_side = x < WIDTH - 220
    # Above and to the side, so that it does not cover the neighbours in the optimum's own row.
    label_y = y - r - 3 if y - r - 3 >= 14 else y + r + 13
    return [
        el(
            "circle",
            _title(node, metric),
            cx=x,
            cy=y,
            r=r,
            fill=OPTIMUM_COLOR,
            stroke=MARKER_COLOR,
            stroke_width=1.5,
            class_="node optimum",
            data_state="optimum",
        ),
        # White halo (paint-order) keeps the label legible on top of nodes and edges.
        el(
            "text",
            label,
            x=x + r * 0.7 if right_side else x - r * 0.7,
            y=label_y,
            text_anchor="start" if right_side else "end",
            font_weight="bold",
            fill=MARKER_COLOR,
            stroke="#ffffff",
            stroke_width=4,
            paint_order="stroke",
            stroke_linejoin="round",
        ),
    ]


def counts_bar(entries: list[dict[str, Any]]) -> Markup:
    """Without the node list (very large lattices): one bar split by state, one ``<rect>`` per non-empty state."""
    plot_w, bar_h, height = WIDTH - 2 * 10, 30, 80
    shown = [e for e in entries if e["count"]]
    total = sum(e["count"] for e in shown) or 1
    # Tiny states (the single optimum among thousands) get a few pixels so they stay visible.
    widths = [max(6.0, plot_w * e["count"] / total) for e in shown]
    shrink = plot_w / sum(widths) if widths else 1.0
    out = []
    x = 10.0
    for entry, w in zip(shown, widths, strict=True):
        w *= shrink
        stroke = PRUNED_OUTLINE if entry["state"] == "pruned" else "#ffffff"
        tip = el("title", f"{entry['label']}: {entry['count']:,}")
        out.append(
            el(
                "rect",
                tip,
                x=x,
                y=10,
                width=w,
                height=bar_h,
                fill=entry["color"],
                stroke=stroke,
                class_="state",
                data_state=entry["state"],
            )
        )
        if w > 60:
            out.append(
                el("text", f"{entry['count']:,}", x=x + w / 2, y=10 + bar_h + 18, text_anchor="middle", font_size=11)
            )
        x += w
    return svg(WIDTH, height, out, id="lattice-svg")
