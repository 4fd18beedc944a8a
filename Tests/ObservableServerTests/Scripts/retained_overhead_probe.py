#!/usr/bin/env python3
"""Measures RSS growth per retained topic (issue 20, item 8): retains N one-byte values to topics
named PREFIX+i ("#" in PREFIX becomes i too) against --max-retained-bytes BUDGET; prints how many
were accepted and refused, and RSS before and after.

  python3 retained_overhead_probe.py .build/release/observable-server 400000 t. 67108864
"""
import socket, subprocess, sys, time, threading, re
binary, n, prefix, budget = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
port = 27000 + int(time.time()) % 1000
p = subprocess.Popen([binary, "--listen", f"127.0.0.1:{port}", "--log-level", "error", "--max-retained-bytes", budget])
def rss():
    s = open(f"/proc/{p.pid}/status").read()
    return int(re.search(r"VmRSS:\s+(\d+)", s).group(1)) * 1024
for _ in range(100):
    try:
        c = socket.create_connection(("127.0.0.1", port)); break
    except OSError: time.sleep(0.05)
c.recv(4096)
time.sleep(0.3)
start = rss()
got = {"ok": 0, "err": 0}
def reader():
    buf = b""
    while got["ok"] + got["err"] < n:
        d = c.recv(1 << 20)
        if not d: break
        buf += d
        lines = buf.split(b"\n"); buf = lines.pop()
        for l in lines:
            if b"limit_exceeded" in l: got["err"] += 1
            elif b'"ok":true' in l: got["ok"] += 1
t = threading.Thread(target=reader); t.start()
batch = []
for i in range(n):
    batch.append('retain ' + prefix.replace('#', str(i)) + str(i) + ' 1\n')
    if len(batch) == 2000:
        c.sendall("".join(batch).encode()); batch = []
c.sendall("".join(batch).encode())
t.join()
time.sleep(0.5)
end = rss()
print(f"n={n} ok={got['ok']} refused={got['err']} rss {start/2**20:.1f} -> {end/2**20:.1f} MiB, per accepted topic {(end-start)/max(1,got['ok']):.0f} B")
p.terminate(); p.wait()
