#!/usr/bin/env python3
"""Measures a server under a publish flood (issue 20, item 2): PUBLISHERS connections publish
as fast as the server takes it to one topic that SUBSCRIBERS clients subscribe to and never
read, while a bystander pings every 50 ms. Then SIGTERM, under the flood.

Prints the bystander's slowest and median ping, the server's RSS at start and at its peak
(VmHWM), slow consumers closed, and how long SIGTERM took to end the process.

  python3 flood_probe.py .build/release/observable-server [--publishers 50] [--subscribers 400]
      [--seconds 10] [--processes N] [-- extra server flags]
"""
import argparse, os, re, signal, selectors, socket, statistics, subprocess, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("server")
ap.add_argument("--publishers", type=int, default=50)
ap.add_argument("--subscribers", type=int, default=400)
ap.add_argument("--seconds", type=float, default=10)
ap.add_argument("--processes", type=int, default=0,
                help="publish from this many forked processes instead of a thread, so that "
                     "the probe's own interpreter cannot be what the pings wait for")
ap.add_argument("extra", nargs="*")
a = ap.parse_args()

probe = socket.socket(); probe.bind(("127.0.0.1", 0)); port = probe.getsockname()[1]; probe.close()
server = subprocess.Popen([a.server, "--listen", f"127.0.0.1:{port}", "--log-level", "error",
                           "--max-connections", "4000"] + a.extra)

def status(field):
    text = open(f"/proc/{server.pid}/status").read()
    return int(re.search(field + r":\s+(\d+)", text).group(1)) * 1024

def connect(rcvbuf=None):
    for _ in range(200):
        s = socket.socket()
        if rcvbuf: s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        try:
            s.connect(("127.0.0.1", port)); break
        except OSError:
            s.close(); time.sleep(0.05)
    buf = b""
    while b"\n" not in buf: buf += s.recv(4096)
    return s

def request(s, line):
    s.sendall(line.encode() + b"\n")
    buf = b""
    while b'"ok"' not in buf: buf += s.recv(65536)
    return buf

control = connect()
time.sleep(0.3)
start_rss = status("VmRSS")
subscribers = []
for _ in range(a.subscribers):
    s = connect(rcvbuf=4096); request(s, "subscribe flood"); subscribers.append(s)
bystander = connect()
publishers = [connect() for _ in range(a.publishers)]
line = ('publish flood "' + "v" * 200 + '"\n').encode()
chunk = line * (16384 // len(line))
stop = threading.Event()

def flood(publishers):
    sel = selectors.DefaultSelector()
    for p in publishers:
        p.setblocking(False); sel.register(p, selectors.EVENT_READ | selectors.EVENT_WRITE)
    while not stop.is_set():
        for key, events in sel.select(0.05):
            try:
                if events & selectors.EVENT_READ: key.fileobj.recv(1 << 20)
                if events & selectors.EVENT_WRITE: key.fileobj.send(chunk)
            except (BlockingIOError, ConnectionError):
                pass

children = []
if a.processes:
    for n in range(a.processes):
        pid = os.fork()
        if pid == 0:
            for s in subscribers + [control, bystander]: s.close()
            flood(publishers[n::a.processes]); os._exit(0)
        children.append(pid)
    for p in publishers: p.close()
else:
    thread = threading.Thread(target=flood, args=(publishers,), daemon=True); thread.start()
pings = []
end = time.monotonic() + a.seconds
while time.monotonic() < end:
    sent = time.monotonic(); request(bystander, "ping"); pings.append(time.monotonic() - sent)
    if pings[-1] > 0.25:
        print(f"  ping at {sent - (end - a.seconds):.2f} s took {pings[-1] * 1000:.0f} ms, "
              f"RSS {status('VmRSS') / 2**20:.0f} MiB")
    time.sleep(0.05)
peak = status("VmHWM")
control.sendall(b"subscribe stats\n")
stats = b""
control.settimeout(10)
while b"slow_consumers_total" not in stats: stats += control.recv(65536)
slow = re.search(r'"slow_consumers_total":(\d+)', stats.decode(errors="replace"))
signalled = time.monotonic()
server.terminate()
server.wait(timeout=60)
exit_seconds = time.monotonic() - signalled
stop.set()
for pid in children: os.kill(pid, signal.SIGKILL); os.waitpid(pid, 0)
if not children: thread.join()
print(f"pings {len(pings)}: slowest {max(pings) * 1000:.1f} ms, median "
      f"{statistics.median(pings) * 1000:.2f} ms")
print(f"RSS start {start_rss / 2**20:.1f} MiB, peak {peak / 2**20:.1f} MiB")
print(f"slow consumers closed: {slow.group(1) if slow else '?'}")
print(f"SIGTERM to exit: {exit_seconds:.2f} s")
