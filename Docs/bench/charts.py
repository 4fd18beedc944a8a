#!/usr/bin/env python3
"""Draws Docs/performance.md's charts from `observable-bench --json` output, as SVG.

Usage: python3 Docs/bench/charts.py DIR

Reads DIR/broadcast.json (`observable-bench --scenario broadcast --json`) and DIR/fan-out.json
(`observable-bench --scenario fan-out --transport tcp,websocket,deflate --json`), whichever
exist, and writes DIR/broadcast.svg and DIR/fan-out.svg. Standard library only, so that the
charts can be made again wherever the benchmark runs. Several runs of one row (`--repeats`) are
drawn as their median, with the runs' range as a whisker.
"""

import json
import os
import statistics
import sys
from html import escape

COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948"]
PANEL_WIDTH = 300
PANEL_HEIGHT = 220
MARGIN_TOP = 76
MARGIN_BOTTOM = 70
MARGIN_LEFT = 56


def panel(x0, title, unit, groups, series, values):
    """One bar chart at x0: for each group, one bar per series; values[(group, series)] is a
    list of runs. Returns SVG elements."""
    top = 1.1 * (max((max(runs) for runs in values.values() if runs), default=1) or 1)
    out = [
        f'<text x="{x0 + PANEL_WIDTH / 2}" y="{MARGIN_TOP - 24}" text-anchor="middle" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<text x="{x0 + PANEL_WIDTH / 2}" y="{MARGIN_TOP - 8}" text-anchor="middle" '
        f'font-size="11" fill="#555">{escape(unit)}</text>',
        f'<line x1="{x0}" y1="{MARGIN_TOP + PANEL_HEIGHT}" x2="{x0 + PANEL_WIDTH}" '
        f'y2="{MARGIN_TOP + PANEL_HEIGHT}" stroke="#333"/>',
    ]
    group_width = PANEL_WIDTH / max(len(groups), 1)
    bar_width = group_width * 0.8 / max(len(series), 1)
    for g, group in enumerate(groups):
        gx = x0 + g * group_width + group_width * 0.1
        if len(groups) > 1:
            out.append(
                f'<text x="{x0 + (g + 0.5) * group_width}" y="{MARGIN_TOP + PANEL_HEIGHT + 16}" '
                f'text-anchor="middle" font-size="11">{escape(str(group))}</text>')
        for s, name in enumerate(series):
            runs = values.get((group, name))
            if not runs:
                continue
            median = statistics.median(runs)
            height = PANEL_HEIGHT * median / top
            x = gx + s * bar_width
            y = MARGIN_TOP + PANEL_HEIGHT - height
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_width * 0.9:.1f}" '
                f'height="{height:.1f}" fill="{COLOURS[s % len(COLOURS)]}">'
                f'<title>{escape(name)}: {median:g}</title></rect>')
            if len(runs) > 1:
                low = MARGIN_TOP + PANEL_HEIGHT * (1 - min(runs) / top)
                high = MARGIN_TOP + PANEL_HEIGHT * (1 - max(runs) / top)
                cx = x + bar_width * 0.45
                out.append(f'<line x1="{cx:.1f}" y1="{low:.1f}" x2="{cx:.1f}" y2="{high:.1f}" '
                           'stroke="#222"/>')
            out.append(
                f'<text x="{x + bar_width * 0.45:.1f}" y="{y - 4:.1f}" text-anchor="middle" '
                f'font-size="10">{label(median)}</text>')
    return out


def label(value):
    """A short figure: 1.2M, 34k, 187 or 5.6."""
    if value >= 1e6:
        return f"{value / 1e6:.1f}M"
    if value >= 1e4:
        return f"{value / 1e3:.0f}k"
    if value >= 10:
        return f"{value:.0f}"
    return f"{value:.2g}"


def document(title, subtitle, panels, series):
    """An SVG document of side-by-side panels with a legend of `series`."""
    width = MARGIN_LEFT + len(panels) * (PANEL_WIDTH + MARGIN_LEFT)
    height = MARGIN_TOP + PANEL_HEIGHT + MARGIN_BOTTOM + 24
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{MARGIN_LEFT}" y="18" font-size="14" font-weight="bold">{escape(title)}</text>',
    ]
    for index, elements in enumerate(panels):
        out += [e for e in elements(MARGIN_LEFT + index * (PANEL_WIDTH + MARGIN_LEFT))]
    legend_y = MARGIN_TOP + PANEL_HEIGHT + 40
    x = MARGIN_LEFT
    for s, name in enumerate(series):
        out.append(f'<rect x="{x}" y="{legend_y - 10}" width="12" height="12" '
                   f'fill="{COLOURS[s % len(COLOURS)]}"/>')
        out.append(f'<text x="{x + 16}" y="{legend_y}">{escape(name)}</text>')
        x += 24 + 7 * len(name)
    out.append(f'<text x="{MARGIN_LEFT}" y="{legend_y + 24}" font-size="11" fill="#555">'
               f'{escape(subtitle)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


SERVER_NAMES = {
    "observable": "observable-server (io_uring)",
    "observable-epoll": "observable-server (epoll)",
    "redis": "Redis",
    "nats": "NATS",
}


def broadcast_chart(report):
    """p50 to the last subscriber, CPU per broadcast and memory per connection, per server."""
    rows = report["results"]
    series = []
    for row in rows:
        name = SERVER_NAMES.get(row["server"], row["server"])
        if name not in series:
            series.append(name)

    def values(key, scale=1.0):
        collected = {}
        for row in rows:
            name = SERVER_NAMES.get(row["server"], row["server"])
            collected.setdefault(("", name), []).append(row[key] * scale)
        return collected

    subscribers = rows[0]["subscribers"] if rows else 0
    panels = [
        lambda x: panel(x, "to the last subscriber, p50", "ms, lower is better", [""], series,
                        values("p50_ms")),
        lambda x: panel(x, "server CPU per broadcast", "ms, lower is better", [""], series,
                        values("cpu_ms_per_broadcast")),
        lambda x: panel(x, "memory per connection", "KiB, lower is better", [""], series,
                        values("bytes_per_connection", 1 / 1024)),
    ]
    runs = max((sum(1 for r in rows if r["server"] == s) for s in {r["server"] for r in rows}),
               default=0)
    subtitle = (f"One value to {subscribers:,} subscribers, {report.get('broadcasts', '?')} "
                f"broadcasts a run, {runs} run(s) a server; load average at the start "
                f"{report.get('load_average', '?')}. observable-bench --scenario broadcast --json")
    return document(f"One broadcast to {subscribers:,} subscribers", subtitle, panels, series)


TRANSPORTS = {"": "TCP", " (WebSocket)": "WebSocket", " (deflate)": "TCP, deflate"}


def fan_out_chart(report):
    """Delivered messages a second and server CPU per message, by subscribers and transport."""
    groups, series, rate, cost = [], [], {}, {}
    for row in report["results"]:
        if row["scenario"] != "fan-out":
            continue
        parameter = row["parameter"]
        count, _, rest = parameter.partition(" subscriber")
        suffix = rest[1:] if rest.startswith("s") else rest
        transport = TRANSPORTS.get(suffix, suffix.strip(" ()"))
        group = f"{count} sub."
        if group not in groups:
            groups.append(group)
        if transport not in series:
            series.append(transport)
        metrics = row["metrics"]
        rate.setdefault((group, transport), []).append(metrics["delivered_rate"])
        cost.setdefault((group, transport), []).append(metrics["server_ns_per_msg"])
    panels = [
        lambda x: panel(x, "delivered", "messages a second, higher is better", groups, series,
                        rate),
        lambda x: panel(x, "server CPU per delivered message", "ns, lower is better", groups,
                        series, cost),
    ]
    subtitle = (f"64-byte values; {report.get('cores', '?')} cores, {report.get('date', '?')}, "
                f"observable-server {report.get('version', '?')}. observable-bench --scenario "
                "fan-out --json")
    return document("Fan-out by subscribers and transport", subtitle, panels, series)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    directory = sys.argv[1]
    drawn = 0
    for name, draw in [("broadcast", broadcast_chart), ("fan-out", fan_out_chart)]:
        source = os.path.join(directory, name + ".json")
        if not os.path.exists(source):
            continue
        with open(source) as data:
            report = json.load(data)
        with open(os.path.join(directory, name + ".svg"), "w") as svg:
            svg.write(draw(report))
        drawn += 1
        print(f"wrote {os.path.join(directory, name + '.svg')}")
    if drawn == 0:
        sys.exit(f"no broadcast.json or fan-out.json in {directory}")


if __name__ == "__main__":
    main()
