"""Summarizes Docs/bench/every-core-tails.sh's JSON: medians over the rounds per server, and
whether issue 26's goals 1 and 2 hold. usage: every-core-tails.py DIR"""
import json
import statistics
import sys
from pathlib import Path


def objects(path):
    """The JSON objects observable-bench printed, one a line."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


def broadcast(directory):
    rows = {}
    for report in objects(directory / "broadcast.json"):
        for row in report["results"]:
            name = row["server"] + (f" -t{row['threads']}" if "threads" in row else "")
            rows.setdefault(name, []).append(row)
    print("| server | p50 to the last of 19,000 | CPU per broadcast | waited for a CPU"
          " | bench's CPU | memory per connection | rounds |")
    print("|---|---|---|---|---|---|---|")
    figures = {}
    for name, runs in rows.items():
        p50 = statistics.median(r["p50_ms"] for r in runs)
        cpu = statistics.median(r["cpu_ms_per_broadcast"] for r in runs)
        wait = statistics.median(r.get("wait_ms_median", float("nan")) for r in runs)
        bench = statistics.median(
            statistics.median(r["bench_cpu_ms"]) if r.get("bench_cpu_ms") else float("nan")
            for r in runs)
        memory = statistics.median(r["bytes_per_connection"] for r in runs) / 1024
        figures[name] = (p50, cpu)
        print(f"| {name} | {p50:.0f} ms | {cpu:.0f} ms | {wait:.0f} ms | {bench:.0f} ms"
              f" | {memory:.2f} KiB | {len(runs)} |")
    peers = [figures[p] for p in ("redis", "nats") if p in figures]
    for name, (p50, cpu) in figures.items():
        if not name.startswith("observable") or not peers:
            continue
        sooner = min(peer[0] for peer in peers) / p50
        cheaper = all(cpu <= peer[1] for peer in peers)
        verdict = "met" if sooner >= 1.5 and cheaper else "not met"
        print(f"goal 1, {name}: {sooner:.2f}x sooner than the sooner peer,"
              f" CPU {'no higher' if cheaper else 'higher'}: {verdict}")


def tails(directory, rate):
    rows = {}
    for report in objects(directory / f"latency-{rate}.json"):
        for row in report["results"]:
            rows.setdefault(row["peer"], []).append(row["metrics"])
    print(f"| {rate}/s x 10 | p50 | p99 | p99.9 | max | waited for a CPU | rounds |")
    print("|---|---|---|---|---|---|---|")
    medians = {}
    for peer, runs in rows.items():
        m = {k: statistics.median(r[k] for r in runs)
             for k in ("p50_us", "p99_us", "p999_us", "max_us", "server_runqueue_ms")}
        medians[peer] = m
        print(f"| {peer} | {m['p50_us'] / 1000:.2f} ms | {m['p99_us'] / 1000:.1f} ms"
              f" | {m['p999_us'] / 1000:.1f} ms | {m['max_us'] / 1000:.1f} ms"
              f" | {m['server_runqueue_ms']:.0f} ms | {len(runs)} |")
    redis = medians.get("redis")
    for peer in ("observable", "observable-epoll"):
        if redis and peer in medians:
            m = medians[peer]
            ok = m["p99_us"] <= redis["p99_us"] and m["p999_us"] <= redis["p999_us"]
            print(f"goal 2 at {rate}/s, {peer}: p99 {m['p99_us'] / redis['p99_us']:.2f}x,"
                  f" p99.9 {m['p999_us'] / redis['p999_us']:.2f}x Redis's:"
                  f" {'met' if ok else 'not met'}")


directory = Path(sys.argv[1])
broadcast(directory)
for rate in (5000, 20000):
    print()
    tails(directory, rate)
