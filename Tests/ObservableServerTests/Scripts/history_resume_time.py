#!/usr/bin/env python3
"""How long a resume of many missed values takes: publishes VALUES values to one topic of a
server started with --history VALUES (or more), then times, REPEAT times, a subscribe with
`since` from before the first of them until the last replayed value has arrived (the reply
and every line read as bytes, not parsed). Prints the median and the fastest in ms.

Usage: history_resume_time.py --port PORT [--values 10000] [--repeat 20] [--size 64]
"""
import argparse
import json
import socket
import statistics
import time


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    greeting = b""
    while not greeting.endswith(b"\n"):
        greeting += sock.recv(4096)
    return sock


def read_lines(sock, count):
    seen = 0
    while seen < count:
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("closed")
        seen += chunk.count(b"\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--values", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--size", type=int, default=64)
    options = parser.parse_args()
    publisher = connect(options.port)
    value = json.dumps("x" * max(0, options.size - 2))
    publisher.sendall(b'{"op":"subscribe","stream":"resume.t","pos":true}\n')
    read_lines(publisher, 1)
    lines = "".join(
        f'{{"op":"publish","stream":"resume.t","value":{value}}}\n' for _ in range(options.values))
    publisher.sendall(lines.encode())
    # The publisher's own subscription shows the first position, then every value and reply.
    first = b""
    while b"\n" not in first:
        first += publisher.recv(4096)
    position = json.loads(first.split(b"\n")[0])["pos"]
    epoch, sequence = position.split("-")
    since = f"{epoch}-{int(sequence) - 1}"
    read_lines(publisher, 2 * options.values - first.count(b"\n"))
    times = []
    for _ in range(options.repeat):
        sock = connect(options.port)
        start = time.perf_counter()
        sock.sendall(f'{{"op":"subscribe","stream":"resume.t","since":"{since}"}}\n'.encode())
        read_lines(sock, options.values + 1)
        times.append((time.perf_counter() - start) * 1000)
        sock.close()
    print(json.dumps({"values": options.values, "median_ms": round(statistics.median(times), 2),
                      "fastest_ms": round(min(times), 2)}))


if __name__ == "__main__":
    main()
