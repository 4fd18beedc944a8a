#!/usr/bin/env python3
"""Full TLS handshakes over loopback: server CPU per handshake, side by side in one run.

Starts observable-server (--listen tls://), redis-server (--tls-port only) and nats-server (a
tls block) on free loopback ports with one throwaway P-256 certificate, then, for each TLS
version and round, runs CLIENTS processes against each server in turn (interleaved), each
making new connections for SECONDS: connect, (NATS: read the INFO line it sends in clear),
full handshake (no session is ever offered again, so resumption is off), then shut down the
writing side and read until the server closes, so every handshake counted is one the server
finished. The server's user+sys CPU comes from /proc/PID/stat around each run.

Prints, per server and version, the medians over the rounds of: handshakes a second reached
(bounded by the clients, who share the machine), server CPU per handshake in microseconds,
and the handshakes one core of the server would do, 1 / (CPU per handshake).

usage: tls-handshakes.py --obs PATH/observable-server [--servers observable-server,redis,nats]
                         [--versions 1.3,1.2] [--rounds 3] [--clients 4] [--seconds 5]
"""
import argparse
import multiprocessing
import os
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def wait_port(port, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def client(port, version, reads_info, seconds, counts):
    """Handshakes until `seconds` passed; adds how many finished to `counts`."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.minimum_version = context.maximum_version = version
    done = 0
    end = time.time() + seconds
    while time.time() < end:
        raw = socket.create_connection(("127.0.0.1", port), 5)
        if reads_info:
            info = b""
            while not info.endswith(b"\n"):
                info += raw.recv(4096)
        # wrap_socket takes the descriptor over: `tls` is the only socket from here on.
        with context.wrap_socket(raw, do_handshake_on_connect=True) as tls:
            # The server finished its side when it closes after our end of stream; after
            # shutdown the socket reads raw bytes (the server's session tickets), not records.
            tls.shutdown(socket.SHUT_WR)
            while tls.recv(65536):
                pass
        done += 1
    counts.put(done)


def run(pid, port, version, reads_info, clients, seconds):
    counts = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=client, args=(port, version, reads_info, seconds, counts))
               for _ in range(clients)]
    before, start = cpu_seconds(pid), time.time()
    for w in workers:
        w.start()
    total = sum(counts.get(timeout=seconds + 30) for _ in workers)
    for w in workers:
        w.join()
    elapsed, cpu = time.time() - start, cpu_seconds(pid) - before
    return total / elapsed, cpu * 1e6 / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--obs", required=True)
    ap.add_argument("--servers", default="observable-server,redis,nats")
    ap.add_argument("--versions", default="1.3,1.2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=5)
    a = ap.parse_args()
    wanted = a.servers.split(",")
    tmp = tempfile.mkdtemp(prefix="tls-handshakes-")
    procs, servers = [], {}
    try:
        cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                        "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for name in wanted:
            port = free_port()
            if name == "observable-server":
                argv = [a.obs, "--listen", f"tls://127.0.0.1:{port}", "--tls-cert", cert, "--tls-key", key,
                        "--log-level", "error"]
            elif name == "redis":
                argv = ["redis-server", "--port", "0", "--tls-port", str(port), "--tls-cert-file", cert,
                        "--tls-key-file", key, "--tls-auth-clients", "no", "--save", "", "--appendonly", "no",
                        "--bind", "127.0.0.1"]
            elif name == "nats":
                conf = os.path.join(tmp, "nats.conf")
                with open(conf, "w") as f:
                    f.write(f'listen: "127.0.0.1:{port}"\ntls {{\n  cert_file: "{cert}"\n'
                            f'  key_file: "{key}"\n  timeout: 5\n}}\n')
                argv = ["nats-server", "-c", conf]
            else:
                sys.exit(f"unknown server {name}")
            proc = subprocess.Popen(argv, **quiet)
            procs.append(proc)
            servers[name] = (proc.pid, port, name == "nats")
        for name, (_, port, _) in servers.items():
            if not wait_port(port):
                sys.exit(f"{name} did not start")
        versions = {"1.3": ssl.TLSVersion.TLSv1_3, "1.2": ssl.TLSVersion.TLSv1_2}
        results = {}
        for label in a.versions.split(","):
            for _ in range(a.rounds):
                for name, (pid, port, reads_info) in servers.items():
                    rate, micros = run(pid, port, versions[label], reads_info, a.clients, a.seconds)
                    results.setdefault((label, name), []).append((rate, micros))
        print(f"{'TLS':>4} {'server':18} {'handshakes/s':>12} {'server us/handshake':>20} "
              f"{'per core/s':>10}  rounds (us)")
        for (label, name), rows in results.items():
            micros = statistics.median(m for _, m in rows)
            print(f"{label:>4} {name:18} {statistics.median(r for r, _ in rows):>12.0f} {micros:>20.0f} "
                  f"{1e6 / micros:>10.0f}  {', '.join(f'{m:.0f}' for _, m in rows)}")
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
