"""Inline SVG charts for the HTML report, built as strings in Python.

The report must be one file that opens anywhere without a network or JavaScript, so every chart is an inline
``<svg>``. Every piece of text or attribute value goes through ``markupsafe.escape``: attribute names and
hierarchy values come from the user's database and may contain markup.

The colours are fixed constants (not themeable) because the browser test looks for them in a screenshot;
each is used by one chart only, so finding it proves that chart was drawn.

Over 400 lines on purpose: the primitives (``el``, ``svg``, ticks, number format) and the six charts that use
them are one small drawing library, read together when a chart changes; split, each half would be read with the
other open.
"""

from __future__ import annotations

import bisect
import math
import numbers
from collections.abc import Iterable, Sequence
from typing import Any

from markupsafe import Markup, escape

HIST_COLOR = "#1f77b4"  # equivalence-class histogram bars
LOSS_COLOR = "#ff7f0e"  # information loss per attribute
SUPPRESSION_COLOR = "#9467bd"  # suppressed records within the limit
OK_COLOR = "#2e8b57"  # privacy-model gauge: satisfied
FAIL_COLOR = "#b22222"  # privacy-model gauge / suppression bar: violated or over the limit
UNKNOWN_COLOR = "#8c959f"  # privacy-model gauge: not decided (dry run)
MARKER_COLOR = "#333333"  # k marker line, limit ticks
GRID_COLOR = "#e3e3e3"
TRACK_COLOR = "#eeeeee"
TEXT_COLOR = "#444444"
DIST_OK_COLOR = "#2a9d8f"  # per-model distribution: classes that satisfy the model
DIST_BAD_COLOR = "#e76f51"  # per-model distribution: classes that violate it
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

WIDTH = 1040  # the page is at most ~1100 px wide; the SVGs scale down with CSS below that
DIST_WIDTH = 360  # the small per-model distribution charts, several side by side


def el(tag: str, body: Any = "", **attrs: Any) -> Markup:
    """One SVG element; ``class_`` -> ``class`` and ``stroke_width`` -> ``stroke-width``; None attributes are left out.

    >>> str(el("text", "<b>", x=1, class_="a"))
    '<text x="1" class="a">&lt;b&gt;</text>'
    """
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = _coord(value)
        parts.append(f'{name}="{escape(value)}"')
    return Markup(f"<{' '.join(parts)}>{escape(body)}</{tag}>")


def _coord(value: float) -> str:
    """Coordinates rounded to 0.01 px: keeps large lattices' files small."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def join(elements: Iterable[Markup]) -> Markup:
    return Markup("").join(elements)


def svg(width: float, height: float, body: Iterable[Markup], **attrs: Any) -> Markup:
    """A root ``<svg>`` that keeps its aspect ratio when CSS narrows it (no xmlns: inline SVG in HTML needs none)."""
    return el(
        "svg",
        join(body),
        width=width,
        height=height,
        viewBox=f"0 0 {_coord(width)} {_coord(height)}",
        role="img",
        font_family=FONT,
        font_size=12,
        fill=TEXT_COLOR,
        **attrs,
    )


def fmt_num(value: Any) -> str:
    """Human-readable number: thousands separators for integers, four significant digits for small floats.

    >>> [fmt_num(v) for v in (None, 123456, 0.1234567, 12.3, 1234.56, 2.0, [0.1, 0.5], "ok")]
    ['–', '123,456', '0.1235', '12.3', '1,234.6', '2', '[0.1, 0.5]', 'ok']
    """
    if value is None:
        return "–"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(fmt_num(v) for v in value) + "]"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    value = float(value)  # Decimal, Fraction
    if not math.isfinite(value):
        return str(value)
    if abs(value) >= 1000:
        return f"{value:,.1f}"
    return f"{value:.4g}"


def nice_ticks(vmax: float, count: int = 5, integer: bool = False) -> list[float]:
    """Ticks 0, step, 2*step, ... covering ``vmax``, with a step of 1, 2 or 5 times a power of ten.

    >>> nice_ticks(340, integer=True)
    [0, 100, 200, 300, 400]
    >>> nice_ticks(0)
    [0, 1]
    """
    if vmax <= 0:
        return [0, 1]
    raw = vmax / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if integer:
        step = max(1, round(step))
    ticks = [0]
    while ticks[-1] < vmax:
        ticks.append(round(ticks[-1] + step, 10))
    return [int(t) for t in ticks] if integer else ticks


def size_bins(
    histogram: Sequence[Sequence[int]], max_distinct: int = 40, buckets: int = 24
) -> list[tuple[int, int, int]]:
    """``(lowest size, highest size, number of classes)`` per bar.

    Up to ``max_distinct`` sizes get a bar each; beyond that sizes are grouped into log-scaled ranges, because
    class sizes are heavy-tailed (many classes near k, a few very large ones).

    >>> size_bins([[5, 10], [6, 3]])
    [(5, 5, 10), (6, 6, 3)]
    >>> size_bins([[s, 1] for s in range(1, 101)], buckets=4)
    [(1, 2, 2), (3, 9, 7), (10, 31, 22), (32, 100, 69)]
    """
    pairs = sorted((int(size), int(n)) for size, n in histogram if n)
    if len(pairs) <= max_distinct:
        return [(size, size, n) for size, n in pairs]
    low, high = pairs[0][0], pairs[-1][0]
    ratio = (high + 1) / low
    edges = sorted({low, high + 1, *(round(low * ratio ** (i / buckets)) for i in range(1, buckets))})
    counts = [0] * (len(edges) - 1)
    for size, n in pairs:
        counts[bisect.bisect_right(edges, size) - 1] += n
    return [(edges[i], edges[i + 1] - 1, counts[i]) for i in range(len(counts))]


def histogram(size_histogram: Sequence[Sequence[int]], k: int | None) -> Markup:
    """Bar chart of equivalence-class sizes with a dashed marker at ``k``."""
    left, right, top, plot_h = 64, 20, 28, 218
    plot_w = WIDTH - left - right
    bins = size_bins(size_histogram)
    if not bins:
        return svg(WIDTH, 40, [el("text", "No equivalence classes.", x=left, y=24)], id="classes-svg")
    slot = plot_w / len(bins)
    labels = [str(lo) if lo == hi else f"{lo}–{hi}" for lo, hi, _ in bins]
    rotate = max(len(s) for s in labels) * 7 > slot  # slanted tick labels when they would overlap
    label_every = max(1, math.ceil(16 / slot)) if rotate else 1
    height = top + plot_h + (74 if rotate else 46)
    ticks = nice_ticks(max(n for _, _, n in bins), integer=True)
    y_of = lambda n: top + plot_h - n / ticks[-1] * plot_h  # noqa: E731
    out = []
    for t in ticks:
        out.append(el("line", x1=left, x2=left + plot_w, y1=y_of(t), y2=y_of(t), stroke=GRID_COLOR))
        out.append(el("text", fmt_num(t), x=left - 8, y=y_of(t) + 4, text_anchor="end"))
    for i, ((_, _, n), label) in enumerate(zip(bins, labels, strict=True)):
        x = left + i * slot
        bar_w = max(1.0, slot * 0.82)
        tip = el("title", f"class size {label}: {n:,} classes")
        out.append(
            el(
                "rect",
                tip,
                x=x + (slot - bar_w) / 2,
                y=y_of(n),
                width=bar_w,
                height=top + plot_h - y_of(n),
                fill=HIST_COLOR,
            )
        )
        if slot >= 24 and n:
            out.append(el("text", fmt_num(n), x=x + slot / 2, y=y_of(n) - 4, text_anchor="middle", font_size=10))
        if i % label_every == 0:
            lx, ly = x + slot / 2, top + plot_h + 16
            transform = f"rotate(-40 {_coord(lx)} {_coord(ly)})" if rotate else None
            out.append(
                el(
                    "text",
                    label,
                    x=lx,
                    y=ly,
                    text_anchor="end" if rotate else "middle",
                    transform=transform,
                    font_size=11,
                )
            )
    out.append(el("line", x1=left, x2=left + plot_w, y1=top + plot_h, y2=top + plot_h, stroke=MARKER_COLOR))
    if k is not None:
        kx = _marker_x(bins, k, left, slot)
        out.append(
            el(
                "line",
                x1=kx,
                x2=kx,
                y1=top - 6,
                y2=top + plot_h,
                stroke=MARKER_COLOR,
                stroke_width=1.5,
                stroke_dasharray="5 3",
            )
        )
        out.append(el("text", f"k = {k}", x=kx + 5, y=top - 10, font_weight="bold", fill=MARKER_COLOR))
    ranged = any(lo != hi for lo, hi, _ in bins)
    x_title = "class size (records per equivalence class)" + (" — log-scaled ranges" if ranged else "")
    out.append(el("text", x_title, x=left + plot_w / 2, y=height - 6, text_anchor="middle"))
    out.append(
        el(
            "text",
            "number of classes",
            x=16,
            y=top + plot_h / 2,
            text_anchor="middle",
            transform=f"rotate(-90 16 {_coord(top + plot_h / 2)})",
        )
    )
    return svg(WIDTH, height, out, id="classes-svg")


def _marker_x(bins: list[tuple[int, int, int]], k: int, left: float, slot: float) -> float:
    """x of the boundary between sizes below k and sizes from k on (inside a range bar: interpolated)."""
    for i, (lo, hi, _) in enumerate(bins):
        if hi >= k:
            return left + (i + max(0.0, (k - lo) / (hi - lo + 1))) * slot
    return left + len(bins) * slot


def usage_bar(used: int, limit: int) -> Markup:
    """Suppressed records as a bar against the suppression limit."""
    left, right, height, bar_y, bar_h = 10, 130, 58, 16, 22
    plot_w = WIDTH - left - right
    scale = max(used, limit, 1)
    over = used > limit
    out = [el("rect", x=left, y=bar_y, width=plot_w * limit / scale, height=bar_h, fill=TRACK_COLOR, rx=3)]
    out.append(
        el(
            "rect",
            el("title", f"{used:,} suppressed"),
            x=left,
            y=bar_y,
            width=plot_w * used / scale,
            height=bar_h,
            fill=FAIL_COLOR if over else SUPPRESSION_COLOR,
            rx=3,
        )
    )
    lx = left + plot_w * limit / scale
    out.append(el("line", x1=lx, x2=lx, y1=bar_y - 6, y2=bar_y + bar_h + 6, stroke=MARKER_COLOR, stroke_width=2))
    out.append(el("text", f"limit {limit:,}", x=lx + 6, y=bar_y + bar_h / 2 + 4, fill=MARKER_COLOR))
    out.append(el("text", f"{used:,} suppressed", x=left, y=bar_y + bar_h + 18))
    return svg(WIDTH, height, out, id="suppression-svg")


def loss_bars(attributes: Sequence[dict[str, Any]]) -> Markup:
    """Horizontal bars of each attribute's information loss on a fixed 0..1 scale."""
    left, right, top, row = 190, 70, 24, 28
    plot_w = WIDTH - left - right
    height = top + row * len(attributes) + 8
    out = []
    for t in (0, 0.25, 0.5, 0.75, 1):
        x = left + t * plot_w
        out.append(el("line", x1=x, x2=x, y1=top - 4, y2=height - 8, stroke=GRID_COLOR))
        out.append(el("text", fmt_num(t), x=x, y=top - 10, text_anchor="middle", font_size=11))
    for i, attribute in enumerate(attributes):
        y = top + i * row
        name = str(attribute["name"])
        short = name if len(name) <= 24 else name[:23] + "…"
        out.append(
            el("text", join([el("title", name), escape(short)]), x=left - 10, y=y + row / 2 + 4, text_anchor="end")
        )
        loss = attribute.get("loss")
        if loss is None:
            out.append(el("text", "n/a", x=left + 6, y=y + row / 2 + 4, font_style="italic"))
            continue
        w = min(max(float(loss), 0.0), 1.0) * plot_w
        out.append(
            el(
                "rect",
                el("title", f"{name}: {fmt_num(loss)}"),
                x=left,
                y=y + 5,
                width=w,
                height=row - 10,
                fill=LOSS_COLOR,
                rx=2,
            )
        )
        out.append(el("text", fmt_num(loss), x=left + w + 6, y=y + row / 2 + 4, font_weight="bold"))
    return svg(WIDTH, height, out, id="loss-svg")


def gauge(worst: float | None, limit: Any, direction: str, satisfied: bool | None) -> Markup:
    """Small bar: the worst class's value against the limit (tick), or against a range (band) for 'in'.

    Longer is safer for '>=', shorter for '<='. Grey when the run did not decide (``satisfied`` is None).
    """
    width, height, bar_h = 180, 18, 10
    bounds = [float(b) for b in limit] if isinstance(limit, list | tuple) else [float(limit)]
    scale = max(*bounds, float(worst or 0), 1e-12) * 1.25
    y = (height - bar_h) / 2
    out = [el("rect", x=0, y=y, width=width, height=bar_h, fill=TRACK_COLOR, rx=2)]
    if len(bounds) == 2:  # a range such as delta-presence's [delta_min, delta_max]
        x0, x1 = (width * b / scale for b in bounds)
        out.append(el("rect", x=x0, y=y, width=max(x1 - x0, 1.0), height=bar_h, fill="#d0d7de"))
    if worst is not None:
        color = UNKNOWN_COLOR if satisfied is None else OK_COLOR if satisfied else FAIL_COLOR
        out.append(el("rect", x=0, y=y + 2, width=width * float(worst) / scale, height=bar_h - 4, fill=color, rx=2))
    for bound in bounds:
        lx = width * bound / scale
        out.append(el("line", x1=lx, x2=lx, y1=0, y2=height, stroke=MARKER_COLOR, stroke_width=2))
    tip = f"worst {fmt_num(worst)} {direction} limit {fmt_num(limit)}"
    return el(
        "svg",
        join([el("title", tip), *out]),
        width=width,
        height=height,
        viewBox=f"0 0 {width} {height}",
        class_="gauge",
        role="img",
    )


def satisfies(value: float, limit: float, direction: str) -> bool:
    """Whether a class with this value of the measure satisfies the model (a hair of slack for doubles).

    >>> satisfies(3, 3, ">="), satisfies(0.2, 0.2, "<="), satisfies(0.21, 0.2, "<=")
    (True, True, False)
    """
    if direction == ">=":
        return value >= limit - 1e-12
    return value <= limit + 1e-12


def is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


def value_bins(
    distribution: Sequence[Sequence[Any]], limit: float, direction: str, max_distinct: int = 30, buckets: int = 20
) -> tuple[list[tuple[float, float, int, int]], float, bool]:
    """``([(low, high, satisfying classes, violating classes), ...], marker, binned)`` for a per-model chart.

    Up to ``max_distinct`` values get a bar each (low == high); ``marker`` is then the number of bars left of
    the limit. Beyond that, values go into ~``buckets`` equal-width bins with a round width, aligned so that
    the limit falls on a bin edge (``marker`` = that edge's index, or beyond the bins when every class is on one
    side): a bin never mixes satisfying and violating classes. Integer bins are inclusive ``[low, high]``,
    others ``[low, high)``. Entries without a finite numeric value are left out.

    >>> value_bins([[3, 10], [4, 7], [5, 2]], 3, ">=")
    ([(3, 3, 10, 0), (4, 4, 7, 0), (5, 5, 2, 0)], 0, False)
    >>> value_bins([[0.1, 3], [0.25, 1]], 0.2, "<=")
    ([(0.1, 0.1, 3, 0), (0.25, 0.25, 0, 1)], 1, False)
    >>> bars, marker, binned = value_bins([[v, 1] for v in range(1, 101)], 50, ">=")
    >>> len(bars), bars[0], bars[-1], marker, binned
    (21, (0, 4, 0, 4), (100, 104, 1, 0), 10, True)
    """
    counts: dict[Any, int] = {}
    for value, classes in distribution:
        if is_number(value) and classes:
            counts[value] = counts.get(value, 0) + int(classes)
    values = sorted(counts)

    # The violating side lies left of the limit for ">=", right of it for "<=".
    def left_side(v: float) -> bool:
        return satisfies(v, limit, direction) != (direction == ">=")

    split = lambda v, n: (n, 0) if satisfies(v, limit, direction) else (0, n)  # noqa: E731
    if len(values) <= max_distinct:
        bars = [(v, v, *split(v, counts[v])) for v in values]
        return bars, sum(1 for v in values if left_side(v)), False

    integral = all(isinstance(v, numbers.Integral) for v in values)
    low, high = values[0], values[-1]
    width: float = nice_ticks((high - low) / buckets, count=1)[1]  # the round step just above the raw width
    if integral:
        width = max(1, math.ceil(width))
        edge = math.ceil(limit) if direction == ">=" else math.floor(limit) + 1  # first integer right of the limit
    else:
        edge = float(limit)
    origin = edge + math.floor((low - edge) / width) * width  # a bin edge at or below the lowest value
    n = math.floor((high - origin) / width + 1e-9) + 1
    marker = round((edge - origin) / width)
    index = {}
    for v in values:
        i = min(max(math.floor((v - origin) / width + 1e-9), 0), n - 1)
        index[v] = min(i, marker - 1) if left_side(v) else max(i, marker)  # the limit's side, despite rounding
    shift = max(0, -min(index.values()))  # a class on a side that has no bin yet (only within the slack)
    n = max(n, max(index.values()) + 1) + shift
    origin, marker = origin - shift * width, marker + shift
    ok, bad = [0] * n, [0] * n
    for v in values:
        good, wrong = split(v, counts[v])
        ok[index[v] + shift] += good
        bad[index[v] + shift] += wrong
    bars = []
    for i in range(n):
        lo = origin + i * width if integral else round(origin + i * width, 10)
        bars.append((lo, lo + width - 1 if integral else round(lo + width, 10), ok[i], bad[i]))
    return bars, marker, True


def distribution(
    pairs: Sequence[Sequence[Any]] | None, limit: Any, direction: str, parameter: str, svg_id: str, label: str = ""
) -> Markup | None:
    """Small bar chart: how many classes have each value of a model's measure, with the limit as a dashed marker.

    Bars on the satisfying side of the limit are DIST_OK_COLOR, on the violating side DIST_BAD_COLOR. None when
    there is nothing to draw (no distribution, no finite value, or a limit that is not one number).
    """
    if not pairs or not is_number(limit) or direction not in (">=", "<="):
        return None
    bars, marker, binned = value_bins(pairs, limit, direction)
    if not bars:
        return None
    left, right, top, plot_h = 40, 16, 30, 80
    plot_w = DIST_WIDTH - left - right
    height = top + plot_h + 24
    base = top + plot_h
    slot = plot_w / len(bars)
    ticks = nice_ticks(max(ok + bad for _, _, ok, bad in bars), count=3, integer=True)
    y_of = lambda n: base - n / ticks[-1] * plot_h  # noqa: E731
    out = []
    for t in ticks:
        out.append(el("line", x1=left, x2=left + plot_w, y1=y_of(t), y2=y_of(t), stroke=GRID_COLOR))
        out.append(el("text", fmt_num(t), x=left - 6, y=y_of(t) + 3.5, text_anchor="end", font_size=10))
    bar_w = slot * 0.9 if binned else min(slot * 0.8, 48)
    for i, (lo, hi, ok, bad) in enumerate(bars):
        x = left + i * slot + (slot - bar_w) / 2
        span = fmt_num(lo) if lo == hi else f"{fmt_num(lo)}–{fmt_num(hi)}"
        for n, bottom, color, verdict in ((ok, 0, DIST_OK_COLOR, "satisfy"), (bad, ok, DIST_BAD_COLOR, "violate")):
            if n:
                tip = el("title", f"{parameter} {span}: {n:,} {'class' if n == 1 else 'classes'} ({verdict} the model)")
                top_y = y_of(bottom + n)
                out.append(el("rect", tip, x=x, y=top_y, width=bar_w, height=y_of(bottom) - top_y, fill=color))
        if ok + bad and slot >= len(fmt_num(ok + bad)) * 6 + 6:  # counts on the bars when they fit
            label_y = y_of(ok + bad) - 3
            out.append(el("text", fmt_num(ok + bad), x=x + bar_w / 2, y=label_y, text_anchor="middle", font_size=10))
    # x labels: one per bar (values), or at bin edges (a continuous axis); thinned so that they do not overlap
    if binned:
        integral = isinstance(bars[0][0], numbers.Integral)  # inclusive integer bins: the last edge is high + 1
        edges = [lo for lo, _, _, _ in bars] + [bars[-1][1] + 1 if integral else bars[-1][1]]
        spots = [(left + i * slot, edge) for i, edge in enumerate(edges)]
    else:
        spots = [(left + (i + 0.5) * slot, lo) for i, (lo, _, _, _) in enumerate(bars)]
    texts = [fmt_num(value) for _, value in spots]
    step = max(1, math.ceil((max(len(t) for t in texts) * 6 + 8) / slot))
    for i, ((x, _), text) in enumerate(zip(spots, texts, strict=True)):
        if i % step == 0:
            out.append(el("text", text, x=x, y=base + 14, text_anchor="middle", font_size=10))
    out.append(el("line", x1=left, x2=left + plot_w, y1=base, y2=base, stroke=MARKER_COLOR))
    mx = left + min(max(marker, 0), len(bars)) * slot
    dashes = {"stroke": MARKER_COLOR, "stroke_width": 1.5, "stroke_dasharray": "4 3"}
    out.append(el("line", x1=mx, x2=mx, y1=top - 12, y2=base, **dashes))
    text = f"{parameter} = {fmt_num(limit)}"
    near_right = mx + 8 + len(text) * 7 > DIST_WIDTH
    anchor = {"x": mx - 5, "text_anchor": "end"} if near_right else {"x": mx + 5}
    out.append(el("text", text, y=top - 15, font_size=11, font_weight="bold", fill=MARKER_COLOR, **anchor))
    return svg(DIST_WIDTH, height, out, id=svg_id, class_="dist", aria_label=label or None)
