#!/usr/bin/env python3
"""Server CPU per delivered message, Server-Sent Events beside TCP, at 1, 10 and 100 subscribers.

    sse_fanout_cost.py .build/release/observable-server [--values 200000] [--rounds 3]

Starts the server (line protocol and --http on free loopback ports), then for each count of
subscribers and each transport: opens the subscribers (raw sockets: `subscribe` lines over TCP,
`GET /sse?stream=…` over HTTP), publishes about --values deliveries in all (values / subscribers
publishes of a 40-byte value, pipelined), waits until every subscriber has every value, and
reads the server's user+system CPU from /proc. Prints one line per case with the best of
--rounds (the least disturbed by other load) and the SSE/TCP ratio. The clients run in this
process on one thread; only the server's CPU is measured.
"""
import argparse
import os
import selectors
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Subscriber:
    def __init__(self, sock, delimiter):
        self.sock, self.delimiter, self.count, self.last = sock, delimiter, 0, b""

    def take(self, data):
        joined = self.last + data
        self.count += joined.count(self.delimiter) - self.last.count(self.delimiter)
        self.last = joined[-(len(self.delimiter) - 1):] if len(self.delimiter) > 1 else b""


def open_subscribers(transport, count, line_port, http_port, stream):
    subscribers = []
    for _ in range(count):
        if transport == "tcp":
            sock = socket.create_connection(("127.0.0.1", line_port))
            sock.sendall(f'{{"op":"subscribe","stream":"{stream}","id":1}}\n'.encode())
            subscribers.append(Subscriber(sock, b"\n"))
        else:
            sock = socket.create_connection(("127.0.0.1", http_port))
            sock.sendall(f"GET /sse?stream={stream} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            subscribers.append(Subscriber(sock, b"\n\n"))
    return subscribers


def wait_for(subscribers, selector, target, timeout=120):
    deadline = time.monotonic() + timeout
    while min(s.count for s in subscribers) < target:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {min(s.count for s in subscribers)} of {target}")
        for key, _ in selector.select(timeout=1):
            data = key.fileobj.recv(1 << 20)
            if not data:
                raise RuntimeError("a subscriber was closed")
            key.data.take(data)


def run_case(pid, transport, count, values, line_port, http_port, index):
    stream = f"cost.{transport}.{count}.{index}"
    subscribers = open_subscribers(transport, count, line_port, http_port, stream)
    selector = selectors.DefaultSelector()
    for subscriber in subscribers:
        subscriber.sock.setblocking(False)
        selector.register(subscriber.sock, selectors.EVENT_READ, subscriber)
    # Ready: TCP has its greeting and reply (2 lines); SSE its head (1 blank line).
    wait_for(subscribers, selector, 2 if transport == "tcp" else 1)
    for subscriber in subscribers:
        subscriber.count = 0
    publisher = socket.create_connection(("127.0.0.1", line_port))
    publisher.recv(4096)
    publishes = max(1, values // count)
    line = f'{{"op":"publish","stream":"{stream}","value":"{"v" * 38}"}}\n'.encode()
    # Every subscriber must be attached before the clock starts.
    publisher.sendall(f'{{"op":"list","stream":"{stream}","id":0}}\n'.encode())
    before = cpu_seconds(pid)
    started = time.monotonic()
    batch = line * 100
    sent = 0
    while sent < publishes:
        chunk = min(100, publishes - sent)
        publisher.sendall(batch if chunk == 100 else line * chunk)
        sent += chunk
        # Drain the publisher's replies now and then so it never blocks.
        try:
            publisher.setblocking(False)
            while publisher.recv(1 << 20):
                pass
        except BlockingIOError:
            pass
        finally:
            publisher.setblocking(True)
        # No more than 20,000 values ahead of the slowest subscriber, far below the queue cap.
        wait_for(subscribers, selector, sent - 20000)
    wait_for(subscribers, selector, publishes)
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(pid) - before
    for subscriber in subscribers:
        selector.unregister(subscriber.sock)
        subscriber.sock.close()
    publisher.close()
    delivered = publishes * count
    return cpu / delivered * 1e9, delivered / elapsed


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("server")
    arguments.add_argument("--values", type=int, default=200000)
    arguments.add_argument("--rounds", type=int, default=3)
    options = arguments.parse_args()
    line_port, http_port = free_port(), free_port()
    server = subprocess.Popen(
        [options.server, "--listen", f"127.0.0.1:{line_port}", "--http",
         f"127.0.0.1:{http_port}", "--max-connections", "1000", "--max-http-connections",
         "1000", "--log-level", "warning"])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", http_port)).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        print("subscribers  transport  ns CPU/delivery (best)  deliveries/s")
        for count in (1, 10, 100):
            best = {}
            for transport in ("tcp", "sse"):
                results = [run_case(server.pid, transport, count, options.values, line_port,
                                    http_port, index) for index in range(options.rounds)]
                best[transport] = min(results)
                print(f"{count:11}  {transport:9}  {best[transport][0]:22.0f}  "
                      f"{best[transport][1]:12.0f}")
            print(f"{count:11}  sse/tcp    {best['sse'][0] / best['tcp'][0]:22.2f}")
    finally:
        server.terminate()
        server.wait(timeout=20)


sys.exit(main())
