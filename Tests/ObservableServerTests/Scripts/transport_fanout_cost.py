#!/usr/bin/env python3
"""Server CPU per delivered message over TCP, WebSocket (plain and compressed) and SSE.

    transport_fanout_cost.py .build/release/observable-server [--values 200000] [--rounds 3]
        [--counts 1,10,100] [--transports tcp,ws,ws-deflate,ws-shared,sse] [--value-bytes 40]
        [--start-seconds 10]

Starts the server (line protocol and --http on free loopback ports), then for each count of
subscribers and each transport opens the subscribers on raw sockets: `subscribe` lines over
TCP; over `/ws` without compression (`ws`), with permessage-deflate as browsers offer it (each
subscriber its own context, `ws-deflate`), or with `server_no_context_takeover` (one
compressed frame per value shared by all, `ws-shared`); or `GET /sse?stream=…` (Server-Sent
Events, `sse`). It publishes about --values
deliveries in all (values / subscribers publishes, pipelined), waits until every subscriber has
every message (counted from the frame headers, never inflated, or from the events' blank
lines) and reads the server's user+system CPU from /proc. The transports take turns round by
round. Prints the best of --rounds per case (the least disturbed by other load) and their
median, the bytes on the wire per delivery, each transport's CPU over TCP's (of the best and
of the medians), and each compressed WebSocket's over plain WebSocket's.
The clients run in this process on one thread; only the server's CPU is measured.
"""
import argparse
import base64
import os
import selectors
import socket
import statistics
import subprocess
import sys
import time

OFFERS = {
    "ws": "",
    "ws-deflate": "permessage-deflate; client_max_window_bits",
    "ws-shared": "permessage-deflate; server_no_context_takeover; client_max_window_bits",
}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Lines:
    """Counts newline-terminated lines."""

    def __init__(self, sock):
        self.sock, self.count, self.wire = sock, 0, 0

    def take(self, data):
        self.wire += len(data)
        self.count += data.count(b"\n")


class Frames:
    """Counts text frames after the 101 head, from their headers alone, and answers pings."""

    def __init__(self, sock):
        self.sock, self.count, self.wire, self.pending, self.head = sock, 0, 0, b"", True

    def take(self, data):
        self.wire += len(data)
        buffer = self.pending + data
        start = 0
        if self.head:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.pending = buffer
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                raise RuntimeError(buffer[:200])
            self.head, start = False, end + 4
        size = len(buffer)
        while size - start >= 2:
            length, header = buffer[start + 1] & 0x7F, 2
            if length == 126:
                if size - start < 4:
                    break
                length, header = int.from_bytes(buffer[start + 2:start + 4], "big"), 4
            elif length == 127:
                if size - start < 10:
                    break
                length, header = int.from_bytes(buffer[start + 2:start + 10], "big"), 10
            if size - start < header + length:
                break
            opcode = buffer[start] & 0x0F
            if opcode == 1:
                self.count += 1
            elif opcode == 9:
                # The server drops a peer that answers no ping within 20 s: a long case would.
                self.sock.send(b"\x8a\x80\0\0\0\0")
            start += header + length
        self.pending = buffer[start:]


class Events:
    """Counts Server-Sent Events (their blank lines) after the 200 head."""

    def __init__(self, sock):
        self.sock, self.count, self.wire, self.last = sock, 0, 0, b""

    def take(self, data):
        self.wire += len(data)
        joined = self.last + data
        self.count += joined.count(b"\n\n") - self.last.count(b"\n\n")
        self.last = joined[-1:]


def masked_text(text):
    payload = text.encode()
    return bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


def open_subscribers(transport, count, line_port, http_port, stream):
    subscribers = []
    subscribe = f'{{"op":"subscribe","stream":"{stream}","id":1}}'
    for _ in range(count):
        if transport == "tcp":
            sock = socket.create_connection(("127.0.0.1", line_port))
            sock.sendall((subscribe + "\n").encode())
            subscribers.append(Lines(sock))
            continue
        if transport == "sse":
            sock = socket.create_connection(("127.0.0.1", http_port))
            sock.sendall(f"GET /sse?stream={stream} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            subscribers.append(Events(sock))
            continue
        sock = socket.create_connection(("127.0.0.1", http_port))
        key = base64.b64encode(os.urandom(16)).decode()
        offer = OFFERS[transport]
        head = (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            + (f"Sec-WebSocket-Extensions: {offer}\r\n" if offer else "")
            + "\r\n"
        )
        sock.sendall(head.encode() + masked_text(subscribe))
        subscribers.append(Frames(sock))
    return subscribers


def wait_for(subscribers, selector, target, timeout=300):
    deadline = time.monotonic() + timeout
    while min(s.count for s in subscribers) < target:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {min(s.count for s in subscribers)} of {target}")
        for key, _ in selector.select(timeout=1):
            data = key.fileobj.recv(1 << 20)
            if not data:
                raise RuntimeError("a subscriber was closed")
            key.data.take(data)


def run_case(pid, transport, count, options, line_port, http_port, index):
    stream = f"cost.{transport}.{count}.{index}"
    subscribers = open_subscribers(transport, count, line_port, http_port, stream)
    selector = selectors.DefaultSelector()
    for subscriber in subscribers:
        subscriber.sock.setblocking(False)
        selector.register(subscriber.sock, selectors.EVENT_READ, subscriber)
    # Ready: the greeting and the subscribe reply; for SSE, the retry field after the head.
    wait_for(subscribers, selector, 1 if transport == "sse" else 2)
    for subscriber in subscribers:
        subscriber.count, subscriber.wire = 0, 0
    publisher = socket.create_connection(("127.0.0.1", line_port))
    publisher.recv(4096)
    publishes = max(1, options.values // count)
    value = "v" * (options.value_bytes - 2)
    line = f'{{"op":"publish","stream":"{stream}","value":"{value}"}}\n'.encode()
    before = cpu_seconds(pid)
    started = time.monotonic()
    sent = 0
    while sent < publishes:
        chunk = min(100, publishes - sent)
        publisher.sendall(line * chunk)
        sent += chunk
        try:
            publisher.setblocking(False)
            while publisher.recv(1 << 20):
                pass
        except BlockingIOError:
            pass
        finally:
            publisher.setblocking(True)
        # No more than 5,000 values ahead of the slowest subscriber, far below the queue cap.
        wait_for(subscribers, selector, sent - 5000)
    wait_for(subscribers, selector, publishes)
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(pid) - before
    wire = sum(s.wire for s in subscribers)
    for subscriber in subscribers:
        selector.unregister(subscriber.sock)
        subscriber.sock.close()
    publisher.close()
    delivered = publishes * count
    return cpu / delivered * 1e9, delivered / elapsed, wire / delivered


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("server")
    arguments.add_argument("--values", type=int, default=200000)
    arguments.add_argument("--rounds", type=int, default=3)
    arguments.add_argument("--counts", default="1,10,100")
    arguments.add_argument("--transports", default="tcp,ws,ws-deflate,ws-shared,sse")
    arguments.add_argument("--value-bytes", type=int, default=40)
    # How long the server may take to listen: under valgrind, far more than the default.
    arguments.add_argument("--start-seconds", type=float, default=10)
    options = arguments.parse_args()
    line_port, http_port = free_port(), free_port()
    server = subprocess.Popen(
        [options.server, "--listen", f"127.0.0.1:{line_port}", "--http",
         f"127.0.0.1:{http_port}", "--max-connections", "1000", "--max-http-connections",
         "1000", "--log-level", "warning"])
    try:
        deadline = time.monotonic() + options.start_seconds
        while True:
            try:
                socket.create_connection(("127.0.0.1", http_port)).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        print("subscribers  transport   ns CPU/delivery (best, median, all)"
              "   deliveries/s  wire bytes")
        transports = options.transports.split(",")
        for count in [int(c) for c in options.counts.split(",")]:
            # Round by round, every transport in turn, so that a change in the machine's load
            # weighs on each alike.
            results = {transport: [] for transport in transports}
            for index in range(options.rounds):
                for transport in transports:
                    results[transport].append(run_case(
                        server.pid, transport, count, options, line_port, http_port, index))
            best, median = {}, {}
            for transport in transports:
                best[transport] = min(results[transport])
                median[transport] = statistics.median(r[0] for r in results[transport])
                spread = "/".join(f"{r[0]:.0f}" for r in results[transport])
                print(f"{count:11}  {transport:10}  {best[transport][0]:6.0f} "
                      f"{median[transport]:6.0f} ({spread:>17})"
                      f"  {best[transport][1]:12.0f}  {best[transport][2]:10.1f}", flush=True)
            for base, compared in (("tcp", ("ws", "sse")), ("ws", ("ws-deflate", "ws-shared"))):
                if best.get(base, (0,))[0] <= 0:
                    continue
                for transport in compared:
                    if transport in best:
                        of_best = best[transport][0] / best[base][0]
                        of_medians = median[transport] / median[base]
                        print(f"{count:11}  {transport}/{base}  best {of_best:.2f}"
                              f"  median {of_medians:.2f}")
    finally:
        server.terminate()
        server.wait(timeout=20)


sys.exit(main())
