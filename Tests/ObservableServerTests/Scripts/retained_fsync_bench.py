#!/usr/bin/env python3
"""Retained publishes per second and server CPU per publish, per durability setting, in one run:
observable-server --data-dir with --fsync always/batch/off, Redis with appendonly yes and
appendfsync always/everysec/no, Mosquitto with persistence; then observable-server's restart
time with many retained topics and its store's size on disk. Each mode of ours is compared with
Redis's that promises as much: always with always, batch with everysec, off with no.

One client pipelines retained publishes over TOPICS topics, WINDOW at a time (observable-server
answers at most 256 waiting for the disk per connection), and waits for every answer: a SET's
+OK for Redis, a QoS 1 PUBACK for Mosquitto. CPU is the server's utime+stime over the run.

  retained_fsync_bench.py --server .build/release/observable-server [--count 50000]
      [--window 200] [--topics 1000] [--restart-topics 1000000] [--dir /var/tmp] [--rounds 3]
      [--baseline OTHER-observable-server]

Each server is measured --rounds times, the rounds interleaved so that every server sees the
same load; the median is printed with the lowest and highest. Noisy on a shared machine: run it
on a quiet one for figures to keep.
"""
import argparse
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def connect(port, deadline=20):
    end = time.time() + deadline
    while True:
        try:
            sock = socket.create_connection(("127.0.0.1", port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except OSError:
            if time.time() > end:
                raise
            time.sleep(0.05)


def pipelined(sock, requests, window, answered):
    """Sends requests window by window; answered(buffer) returns (answers, rest)."""
    buffer = b""
    sent = done = 0
    while done < len(requests):
        if sent - done < window and sent < len(requests):
            end = min(len(requests), sent + window - (sent - done))
            sock.sendall(b"".join(requests[sent:end]))
            sent = end
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise RuntimeError("server closed")
        buffer += chunk
        count, buffer = answered(buffer)
        done += count


def observable_answers(buffer):
    # Counted in C, as Redis's are: a loop over lines in Python was the bench's own limit.
    end = buffer.rfind(b"\n") + 1
    if b'"ok":false' in buffer[:end]:
        raise RuntimeError(buffer[:end].decode())
    return buffer.count(b"\n", 0, end), buffer[end:]


def redis_answers(buffer):
    count = buffer.count(b"+OK\r\n")
    return count, buffer[buffer.rfind(b"\r\n") + 2 :] if count else buffer


def mqtt_answers(buffer):
    count = 0
    while len(buffer) >= 4 and buffer[0] == 0x40:
        buffer = buffer[4:]
        count += 1
    return count, buffer


def measure(process, port, requests, window, answered, greeting=None):
    sock = connect(port)
    if greeting:
        greeting(sock)
    before_cpu, before = cpu_seconds(process.pid), time.perf_counter()
    before_client = time.process_time()
    pipelined(sock, requests, window, answered)
    seconds = time.perf_counter() - before
    cpu = cpu_seconds(process.pid) - before_cpu
    client = time.process_time() - before_client
    sock.close()
    return len(requests) / seconds, cpu / len(requests) * 1e6, client / len(requests) * 1e6


def observable_requests(count, topics):
    return [
        b'{"op":"publish","stream":"k.%d","value":%d,"retain":true}\n' % (i % topics, i)
        for i in range(count)
    ]


def start_observable(binary, port, directory, fsync, extra=()):
    process = subprocess.Popen(
        [binary, "--listen", f"127.0.0.1:{port}", "--data-dir", directory, "--fsync", fsync,
         "--threads", "1", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return process


def read_greeting(sock):
    buffer = b""
    while b"\n" not in buffer:
        buffer += sock.recv(4096)


def wait_listening(process):
    log = b""
    while b"listening" not in log:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("server exited: " + log.decode())
        log += line
    return log.decode()


def observable_row(binary, fsync, args, base):
    directory = tempfile.mkdtemp(dir=base)
    port = free_port()
    process = start_observable(binary, port, directory, fsync)
    try:
        wait_listening(process)
        return measure(process, port, observable_requests(args.count, args.topics), args.window,
                       observable_answers, read_greeting)
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(directory)


def redis_row(fsync, args, base):
    directory = tempfile.mkdtemp(dir=base)
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "yes",
         "--appendfsync", fsync, "--dir", directory],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        requests = []
        for i in range(args.count):
            key, value = b"k.%d" % (i % args.topics), b"%d" % i
            requests.append(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (
                len(key), key, len(value), value))
        return measure(process, port, requests, args.window, redis_answers)
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(directory)


def mqtt_connect(sock):
    client = b"bench"
    variable = b"\x00\x04MQTT\x04\x02\x00\x3c" + struct.pack(">H", len(client)) + client
    sock.sendall(bytes([0x10, len(variable)]) + variable)
    if sock.recv(4)[:1] != b"\x20":
        raise RuntimeError("no CONNACK")


def mqtt_publish(topic, payload, packet):
    body = struct.pack(">H", len(topic)) + topic + struct.pack(">H", packet) + payload
    length, encoded = len(body), b""
    while True:
        byte, length = length % 128, length // 128
        encoded += bytes([byte | (0x80 if length else 0)])
        if not length:
            break
    return b"\x33" + encoded + body  # PUBLISH, QoS 1, retain


def mosquitto_row(args, base):
    directory = tempfile.mkdtemp(dir=base)
    port = free_port()
    config = os.path.join(directory, "mosquitto.conf")
    with open(config, "w") as out:
        out.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
                  f"persistence_location {directory}/\nautosave_interval 1\n")
    process = subprocess.Popen(["mosquitto", "-c", config],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        requests = [mqtt_publish(b"k/%d" % (i % args.topics), b"%d" % i, i % 65535 + 1)
                    for i in range(args.count)]
        return measure(process, port, requests, args.window, mqtt_answers, mqtt_connect)
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(directory)


def restart(binary, args, base):
    """Fills a store with --restart-topics retained topics, stops, and times the next start."""
    directory = tempfile.mkdtemp(dir=base)
    port = free_port()
    extra = ("--max-retained-bytes", str(4 << 30))
    # Filled with --fsync always: with batch or off a publisher faster than the store's thread
    # finds its queue full (65,536 changes) and gets unavailable.
    process = start_observable(binary, port, directory, "always", extra)
    try:
        wait_listening(process)
        sock = connect(port)
        read_greeting(sock)
        pipelined(sock, observable_requests(args.restart_topics, args.restart_topics), 200,
                  observable_answers)
        sock.close()
        process.terminate()
        process.wait()
        size = sum(os.path.getsize(os.path.join(directory, name)) for name in os.listdir(directory))
        port = free_port()
        started = time.perf_counter()
        process = start_observable(binary, port, directory, "batch", extra)
        log = wait_listening(process)
        seconds = time.perf_counter() - started
        loaded = re.search(r"store loaded.*?ms=(\d+)", log)
        rss = 0
        with open(f"/proc/{process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) * 1024
        return size, seconds, int(loaded.group(1)) if loaded else None, rss
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(directory)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--count", type=int, default=50_000)
    parser.add_argument("--window", type=int, default=200)
    parser.add_argument("--topics", type=int, default=1_000)
    parser.add_argument("--restart-topics", type=int, default=1_000_000)
    parser.add_argument("--dir", default="/var/tmp")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="another observable-server to measure beside --server"
                        " in the same rounds, for a before-and-after")
    args = parser.parse_args()
    base = tempfile.mkdtemp(prefix="retained-bench-", dir=args.dir)
    try:
        binaries = [("observable-server", args.server)]
        if args.baseline:
            binaries.append(("baseline", args.baseline))
        servers = [(f"{label} --fsync {mode}",
                    lambda mode=mode, binary=binary: observable_row(binary, mode, args, base))
                   for mode in ("always", "batch", "off") for label, binary in binaries]
        servers += [(f"redis appendfsync {mode}", lambda mode=mode: redis_row(mode, args, base))
                    for mode in ("always", "everysec", "no")]
        servers.append(("mosquitto persistence (autosave 1 s)",
                        lambda: mosquitto_row(args, base)))
        results = {name: [] for name, _ in servers}
        for _ in range(args.rounds):
            for name, row in servers:
                results[name].append(row())
        print(f"{args.count} retained publishes over {args.topics} topics, window {args.window},"
              f" {args.rounds} rounds: median (lowest-highest)")
        # The client's own CPU says whether the bench, not the server, was the limit.
        print(f"{'server':40} {'publishes/s':>28} {'CPU µs/publish':>15} {'client µs':>10}")
        for name, _ in servers:
            rates = sorted(rate for rate, _, _ in results[name])
            cpus = sorted(cpu for _, cpu, _ in results[name])
            clients = sorted(client for _, _, client in results[name])
            spread = f"{rates[len(rates) // 2]:,.0f} ({rates[0]:,.0f}-{rates[-1]:,.0f})"
            print(f"{name:40} {spread:>28} {cpus[len(cpus) // 2]:15.2f}"
                  f" {clients[len(clients) // 2]:10.2f}")
        if args.restart_topics:
            size, seconds, loaded, rss = restart(args.server, args, base)
            print(f"restart with {args.restart_topics:,} retained topics: listening after "
                  f"{seconds:.2f} s (store loaded in {loaded} ms), store {size / 1e6:.1f} MB "
                  f"on disk, RSS {rss / 1e6:.0f} MB")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
