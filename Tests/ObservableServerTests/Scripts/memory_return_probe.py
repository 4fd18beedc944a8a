#!/usr/bin/env python3
"""Measures RSS returned after churn (issue 20, item 7): 1,500 compressed connections open at
once and closed, then 200 slow readers with data pending reset; prints RSS at start, while
held, and 5 s after the last close. TRIM=1 also calls malloc_trim(0) through gdb to compare.

  python3 memory_return_probe.py .build/release/observable-server [extra server flags]
"""
import socket, subprocess, sys, time, re, zlib, os, struct
binary = sys.argv[1]
extra = sys.argv[2:]
port = 28000 + int(time.time()) % 1000
p = subprocess.Popen([binary, "--listen", f"127.0.0.1:{port}", "--log-level", "error", "--max-connections", "5000"] + extra)
def rss():
    s = open(f"/proc/{p.pid}/status").read()
    return int(re.search(r"VmRSS:\s+(\d+)", s).group(1)) / 1024
def hwm():
    s = open(f"/proc/{p.pid}/status").read()
    return int(re.search(r"VmHWM:\s+(\d+)", s).group(1)) / 1024
def connect():
    for _ in range(100):
        try:
            c = socket.create_connection(("127.0.0.1", port)); c.recv(4096); return c
        except OSError: time.sleep(0.05)
def rst(c):
    c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)); c.close()
ctl = connect()
time.sleep(0.3)
start = rss()
print(f"start {start:.1f} MiB")
# A: compressed connections, many at once, with traffic
conns = []
for i in range(1500):
    c = connect()
    c.sendall(b"compress deflate\n")
    d = b""
    while b"\n" not in d: d += c.recv(4096)
    co = zlib.compressobj(1, zlib.DEFLATED, -15)
    c.sendall(co.compress(f"subscribe churn.{i % 50}\nsubscribe churn.*\n".encode()) + co.flush(zlib.Z_SYNC_FLUSH))
    conns.append(c)
pub = connect()
for k in range(20):
    pub.sendall(("".join(f'publish churn.{j} "{"x" * 300}{k}"\n' for j in range(50))).encode())
time.sleep(2)
print(f"A open: {rss():.1f} MiB")
for i, c in enumerate(conns):
    if i % 2: c.close()
    else: rst(c)
conns = []
time.sleep(5)
print(f"A 5 s after close: {rss():.1f} MiB")
def trim():
    if os.environ.get("TRIM"):
        subprocess.run(["gdb", "-batch", "-p", str(p.pid), "-ex", "call (int)malloc_trim(0)"], capture_output=True)
        print(f"   after malloc_trim(0): {rss():.1f} MiB")
trim()
# B: slow readers with data pending, reset
readers = []
for i in range(200):
    c = socket.socket(); c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    c.connect(("127.0.0.1", port)); c.recv(4096)
    c.sendall(b"subscribe slow\n"); readers.append(c)
time.sleep(0.5)
value = "y" * 1000
chunk = "".join(f'publish slow "{value}"\n' for _ in range(64)).encode()
pub.setblocking(False)
sent = 0
deadline = time.time() + 20
while sent < 1_500_000_000 and time.time() < deadline:
    try:
        sent += pub.send(chunk) * 200
    except BlockingIOError:
        time.sleep(0.001)
    try:
        while pub.recv(1 << 20): pass
    except BlockingIOError: pass
time.sleep(1)
print(f"B pending: {rss():.1f} MiB (peak {hwm():.1f})")
for c in readers: rst(c)
readers = []
time.sleep(5)
print(f"B 5 s after reset: {rss():.1f} MiB")
trim()
p.terminate(); p.wait()
