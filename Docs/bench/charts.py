#!/usr/bin/env python3
"""Draws Docs/performance.md's charts from `observable-bench --json` output, as SVG.

Usage: python3 Docs/bench/charts.py DIR

Reads whichever of these exist in DIR and writes the SVG beside them:
- broadcast.json (`observable-bench --scenario broadcast --json`) -> broadcast.svg;
- fan-out.json (`observable-bench --scenario fan-out --transport tcp,websocket,deflate --json`)
  -> fan-out.svg;
- peers-fan-out.json and peers-fan-out-tls.json (`observable-bench --scenario fan-out --peers
  redis,nats,mosquitto [--tls] --json`) -> peers-fan-out.svg, server CPU per delivered message
  beside the peers, plain and over TLS;
- peers-memory.json and peers-memory-tls.json (`observable-bench --scenario memory --peers
  redis,nats,mosquitto --connections 10000 [--tls] --json`) -> peers-memory.svg.
Standard library only, so that the charts can be made again wherever the benchmark runs.
Several runs of one row (`--repeats`) are drawn as their median, with the runs' range as a
whisker; rows that did not pass (lost messages, a timeout) are left out.
"""

import json
import math
import os
import statistics
import sys
import textwrap
from html import escape

COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948"]
PANEL_WIDTH = 300
PANEL_HEIGHT = 220
MARGIN_TOP = 76
MARGIN_BOTTOM = 70
MARGIN_LEFT = 56


def log_bounds(values):
    """The powers of ten just below the smallest and just above the largest of `values`'
    runs, for a logarithmic scale."""
    runs = [v for group in values for r in group.values() for v in r]
    if not runs:
        return 1.0, 10.0
    return (10 ** math.floor(math.log10(max(min(runs), 1e-9))),
            10 ** math.ceil(math.log10(max(runs) * 1.1)))


def panel(x0, title, unit, groups, series, values, log=False, bounds=None):
    """One bar chart at x0: for each group, one bar per series; values[(group, series)] is a
    list of runs. With `log`, the scale is logarithmic between `bounds` (by default the powers
    of ten around the values), with a line at each power of ten. Returns SVG elements."""
    top = 1.1 * (max((max(runs) for runs in values.values() if runs), default=1) or 1)
    floor = 1.0
    if log:
        floor, top = bounds or log_bounds([values])

    def scale(value):
        """The share of the panel's height `value` reaches."""
        if not log:
            return value / top
        return max(0.0, math.log10(max(value, floor) / floor) / math.log10(top / floor))

    out = [
        f'<text x="{x0 + PANEL_WIDTH / 2}" y="{MARGIN_TOP - 24}" text-anchor="middle" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<text x="{x0 + PANEL_WIDTH / 2}" y="{MARGIN_TOP - 8}" text-anchor="middle" '
        f'font-size="11" fill="#555">{escape(unit)}</text>',
        f'<line x1="{x0}" y1="{MARGIN_TOP + PANEL_HEIGHT}" x2="{x0 + PANEL_WIDTH}" '
        f'y2="{MARGIN_TOP + PANEL_HEIGHT}" stroke="#333"/>',
    ]
    if log:
        tick = floor
        while tick <= top:
            y = MARGIN_TOP + PANEL_HEIGHT * (1 - scale(tick))
            out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + PANEL_WIDTH}" y2="{y:.1f}" '
                       'stroke="#ddd"/>')
            out.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="10" '
                       f'fill="#555">{label(tick)}</text>')
            tick *= 10
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
            height = PANEL_HEIGHT * scale(median)
            x = gx + s * bar_width
            y = MARGIN_TOP + PANEL_HEIGHT - height
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_width * 0.9:.1f}" '
                f'height="{height:.1f}" fill="{COLOURS[s % len(COLOURS)]}">'
                f'<title>{escape(name)}: {median:g}</title></rect>')
            if len(runs) > 1:
                low = MARGIN_TOP + PANEL_HEIGHT * (1 - scale(min(runs)))
                high = MARGIN_TOP + PANEL_HEIGHT * (1 - scale(max(runs)))
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
    """An SVG document of side-by-side panels with a legend of `series`; the subtitle is
    wrapped to the width."""
    width = MARGIN_LEFT + len(panels) * (PANEL_WIDTH + MARGIN_LEFT)
    # About 6 pixels a character at 11 px.
    lines = textwrap.wrap(subtitle, max(40, (width - MARGIN_LEFT) // 6))
    height = MARGIN_TOP + PANEL_HEIGHT + MARGIN_BOTTOM + 24 + 14 * max(0, len(lines) - 1)
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
    for index, line in enumerate(lines):
        out.append(f'<text x="{MARGIN_LEFT}" y="{legend_y + 24 + 14 * index}" font-size="11" '
                   f'fill="#555">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


SERVER_NAMES = {
    "observable": "observable-server (io_uring)",
    "observable-epoll": "observable-server (epoll)",
    "redis": "Redis",
    "nats": "NATS",
    "mosquitto": "Mosquitto",
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


PEER_ORDER = ["observable", "redis", "nats", "mosquitto"]
# In the comparisons observable-server runs with its defaults, as cost.py runs it.
PEER_NAMES = dict(SERVER_NAMES, observable="observable-server")


def peer_series(reports):
    """The servers the reports' rows measured, in a fixed order, by display name."""
    seen = {row.get("peer") for report in reports for row in report["results"]}
    return [PEER_NAMES.get(p, p) for p in PEER_ORDER if p in seen]


def runs_per_server(report, scenario):
    """How many rows one server has at one parameter (`--repeats`)."""
    counts = {}
    for row in report["results"]:
        if row["scenario"] == scenario:
            counts[row["parameter"]] = counts.get(row["parameter"], 0) + 1
    return max(counts.values(), default=0)


def load_note(report):
    """The load average a comparison recorded at its start, for the chart's subtitle."""
    for note in report.get("notes", []):
        if note.startswith("load average"):
            return note.split(": ", 1)[-1]
    return "?"


def missing_note(tls):
    """A sentence for a TLS run that left observable-server out (a build without TLS
    listeners), so that its missing bar is explained."""
    notes = (tls or {}).get("notes", [])
    if any(n.startswith("observable-server not measured over TLS") for n in notes):
        return (" observable-server is absent over TLS: the build measured had no TLS listener"
                " (--tls-cert).")
    return ""


def peers_fan_out_chart(plain, tls):
    """Server CPU per delivered message beside the peers, plain and over TLS, by subscribers;
    both panels on one logarithmic scale, since Mosquitto costs some 100 times the others."""
    reports = [r for r in (plain, tls) if r]
    series = peer_series(reports)
    collected = []
    for report, title in ((plain, "server CPU per delivered message"),
                          (tls, "the same over TLS")):
        if not report:
            continue
        groups, cost = [], {}
        for row in report["results"]:
            if row["scenario"] != "fan-out" or not row.get("passed") or "peer" not in row:
                continue
            group = f"{int(row['metrics']['subscribers'])} sub."
            if group not in groups:
                groups.append(group)
            name = PEER_NAMES.get(row["peer"], row["peer"])
            cost.setdefault((group, name), []).append(row["metrics"]["server_ns_per_msg"])
        collected.append((title, groups, cost))
    bounds = log_bounds([cost for _, _, cost in collected])
    panels = [lambda x, t=t, g=g, c=c: panel(x, t, "ns, log scale, lower is better", g, series,
                                             c, log=True, bounds=bounds)
              for t, g, c in collected]
    first = reports[0]
    subtitle = (f"64-byte values, {runs_per_server(first, 'fan-out')} run(s) a server, "
                f"interleaved; {first.get('cores', '?')} cores, {first.get('date', '?')}, load "
                f"average at the start {' and '.join(load_note(r).split()[0] for r in reports)}"
                ". observable-bench --scenario fan-out --peers redis,nats,mosquitto [--tls]")
    subtitle += missing_note(tls)
    return document("Fan-out beside Redis, NATS and Mosquitto", subtitle, panels, series)


def peers_memory_chart(plain, tls):
    """Server memory per idle connection beside the peers, plain and over TLS."""
    reports = [r for r in (plain, tls) if r]
    series = peer_series(reports)
    groups, memory, connections = [], {}, 0
    for report, group in ((plain, "plain"), (tls, "TLS")):
        if not report:
            continue
        groups.append(group)
        for row in report["results"]:
            if row["scenario"] != "connection memory" or not row.get("passed") or "peer" not in row:
                continue
            connections = int(row["metrics"]["connections"])
            name = PEER_NAMES.get(row["peer"], row["peer"])
            memory.setdefault((group, name), []).append(
                row["metrics"]["bytes_per_connection"] / 1024)
    subtitle = (f"{connections:,} idle connections, each subscribed to one of 100 topics; load "
                f"average at the start {' and '.join(load_note(r).split()[0] for r in reports)}."
                " observable-bench --scenario memory --peers redis,nats,mosquitto [--tls]")
    subtitle += missing_note(tls)
    panels = [lambda x: panel(x, "server memory per idle connection", "KiB, lower is better",
                              groups, series, memory)]
    return document(f"Memory per idle connection at {connections:,}", subtitle, panels, series)


PAIRS = [
    ("peers-fan-out", peers_fan_out_chart),
    ("peers-memory", peers_memory_chart),
]


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
    for name, draw in PAIRS:
        reports = []
        for suffix in ("", "-tls"):
            source = os.path.join(directory, name + suffix + ".json")
            if os.path.exists(source):
                with open(source) as data:
                    report = json.load(data)
                reports.append(report if report.get("results") else None)
            else:
                reports.append(None)
        if not any(reports):
            continue
        with open(os.path.join(directory, name + ".svg"), "w") as svg:
            svg.write(draw(*reports))
        drawn += 1
        print(f"wrote {os.path.join(directory, name + '.svg')}")
    if drawn == 0:
        sys.exit(f"no data for a chart in {directory}")


if __name__ == "__main__":
    main()
