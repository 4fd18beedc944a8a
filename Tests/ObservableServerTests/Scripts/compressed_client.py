#!/usr/bin/env python3
"""An independent client of observable-server's `compress` op, written on Python's zlib.

It shares no code with the server: it speaks the protocol over a real socket, switches to raw
deflate (wbits=-15, as IMAP COMPRESS=DEFLATE does) after the plain `compress` reply, and
decodes what arrives after every recv, so it can tell whether the server's sync flushes made
each value decodable as soon as its bytes arrived.

  compressed_client.py SCENARIO --port PORT [options]

Scenarios:
  stream              compress, subscribe to --topic, take --expect values (somebody else
                      publishes them), publish --publish-count values to --publish-topic,
                      then ping round trips, one of them sent a byte at a time.
  busy                --rounds times: subscribe to --topic while it is being published to,
                      wait for a value, then compress and take --expect more values; plain
                      values before the reply and compressed ones after it, without a gap.
  second-compress     compress, then ask again (JSON and shorthand, both compressed).
  shorthand           `compress deflate`, then shorthand requests, compressed.
  corrupt             two compressed connections; one sends bytes that are not deflate data
                      and must be closed, the other must keep working.

The result is one JSON object on stdout. Every wait is bounded by --timeout (seconds in all);
when it runs out, or anything fails, the object has an "error" and the exit status is 1.
"""

import argparse
import json
import socket
import sys
import time
import zlib


class Failure(Exception):
    pass


class Peer:
    """One connection: plain lines first, raw deflate both ways after `start_compression`."""

    def __init__(self, host, port, deadline):
        self.deadline = deadline
        self.sock = socket.create_connection((host, port), timeout=self.remaining())
        self.plain = bytearray()
        self.inflater = None
        self.deflater = None
        self.pending = bytearray()
        self.lines = []
        self.stats = {
            "recvs": 0,
            "recvs_ending_mid_line": 0,
            "values_decoded_on_arrival": 0,
            "values_split_across_recvs": 0,
            "compressed_bytes_in": 0,
            "decompressed_bytes_in": 0,
        }

    def remaining(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Failure("timed out")
        return left

    def recv_some(self):
        self.sock.settimeout(self.remaining())
        try:
            data = self.sock.recv(1 << 20)
        except socket.timeout:
            raise Failure("timed out waiting for data")
        if not data:
            raise EOFError("server closed the connection")
        return data

    def read_plain_line(self):
        while b"\n" not in self.plain:
            self.plain += self.recv_some()
        line, _, rest = bytes(self.plain).partition(b"\n")
        self.plain = bytearray(rest)
        return json.loads(line)

    def send_plain(self, text):
        self.sock.sendall(text.encode() + b"\n")

    def start_compression(self):
        self.inflater = zlib.decompressobj(wbits=-15)
        self.deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
        leftover = bytes(self.plain)
        self.plain = bytearray()
        if leftover:
            self.feed(leftover)

    def compressed(self, text):
        return self.deflater.compress(text.encode() + b"\n") + self.deflater.flush(zlib.Z_SYNC_FLUSH)

    def send(self, text):
        self.sock.sendall(self.compressed(text))

    def feed(self, data):
        """Decompresses one recv's bytes and takes every complete line out of them."""
        stats = self.stats
        stats["recvs"] += 1
        stats["compressed_bytes_in"] += len(data)
        out = self.inflater.decompress(data)
        if self.inflater.eof:
            raise Failure("the server ended its deflate stream")
        stats["decompressed_bytes_in"] += len(out)
        began_mid_line = len(self.pending) > 0
        parts = (bytes(self.pending) + out).split(b"\n")
        self.pending = bytearray(parts.pop())
        for index, line in enumerate(parts):
            if index == 0 and began_mid_line:
                stats["values_split_across_recvs"] += 1
            else:
                stats["values_decoded_on_arrival"] += 1
            self.lines.append(json.loads(line))
        if self.pending:
            stats["recvs_ending_mid_line"] += 1

    def read_line(self):
        while not self.lines:
            self.feed(self.recv_some())
        return self.lines.pop(0)

    def read_reply(self, deliveries=None):
        while True:
            line = self.read_line()
            if "ok" in line:
                return line
            if deliveries is not None:
                deliveries.append(line)

    def request(self, text, deliveries=None):
        self.send(text)
        return self.read_reply(deliveries)

    def wait_for_close(self):
        """True when the server closes the socket (end of stream or reset) in time."""
        try:
            while True:
                self.sock.settimeout(self.remaining())
                if not self.sock.recv(1 << 16):
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except (socket.timeout, Failure):
            return False

    def close(self):
        self.sock.close()


def compress_json(peer, shorthand=False):
    greeting = peer.read_plain_line()
    if greeting.get("hello") != "observable-server":
        raise Failure("unexpected greeting %r" % greeting)
    peer.send_plain("compress deflate" if shorthand else '{"op":"compress","algorithm":"deflate","id":"z"}')
    reply = peer.read_plain_line()
    peer.start_compression()
    return reply


def expected_value(seq, width):
    return {"seq": seq, "text": "observable " * width}


def scenario_stream(args, deadline):
    peer = Peer(args.host, args.port, deadline)
    result = {"compress_reply": compress_json(peer)}
    result["subscribe_reply"] = peer.request(json.dumps({"op": "subscribe", "stream": args.topic, "id": 1}))
    received = 0
    in_order = True
    while received < args.expect:
        line = peer.read_line()
        if line.get("stream") != args.topic:
            raise Failure("unexpected line %r" % line)
        if line.get("value") != expected_value(received, args.width):
            in_order = False
        received += 1
    result["values_received"] = received
    result["values_in_order"] = in_order
    result["pending_after_values"] = len(peer.pending)

    receivers = []
    for seq in range(args.publish_count):
        message = {"op": "publish", "stream": args.publish_topic, "value": {"from": "python", "seq": seq}}
        reply = peer.request(json.dumps(message))
        receivers.append(reply.get("receivers"))
    result["published"] = len(receivers)
    result["publish_receivers"] = sorted(set(receivers))

    # Each reply must decode completely from what arrived, with nothing left pending: only a
    # sync flush at the end of the server's write makes that so.
    clean = 0
    for number in range(args.pings):
        reply = peer.request(json.dumps({"op": "ping", "id": number}))
        if reply.get("id") == number and not peer.pending and not peer.lines:
            clean += 1
    result["pings_decoded_cleanly"] = clean

    # A request whose compressed bytes trickle in one by one must still be understood.
    for byte in peer.compressed('{"op":"ping","id":"trickled"}'):
        peer.sock.sendall(bytes([byte]))
        time.sleep(0.002)
    result["trickled_reply"] = peer.read_reply()
    result.update(peer.stats)
    peer.close()
    return result


def busy_round(args, deadline):
    peer = Peer(args.host, args.port, deadline)
    peer.read_plain_line()
    peer.send_plain(json.dumps({"op": "subscribe", "stream": args.topic}))
    seqs = []
    while not seqs:
        line = peer.read_plain_line()
        if "ok" not in line:
            seqs.append(line["value"]["seq"])
    # Values keep arriving plain until the reply; every byte after it is deflate.
    peer.send_plain('{"op":"compress","algorithm":"deflate","id":"busy"}')
    while True:
        line = peer.read_plain_line()
        if line.get("op") == "compress":
            reply = line
            break
        seqs.append(line["value"]["seq"])
    plain_values = len(seqs)
    peer.start_compression()
    while len(seqs) < plain_values + args.expect:
        seqs.append(peer.read_line()["value"]["seq"])
    peer.close()
    gaps = sum(1 for a, b in zip(seqs, seqs[1:]) if b != a + 1)
    return reply, plain_values, len(seqs) - plain_values, gaps


def scenario_busy(args, deadline):
    result = {"rounds": 0, "compress_replies_ok": 0, "plain_values": 0, "compressed_values": 0, "sequence_gaps": 0}
    for _ in range(args.rounds):
        reply, plain_values, compressed_values, gaps = busy_round(args, deadline)
        result["rounds"] += 1
        if reply.get("ok") is True and reply.get("id") == "busy":
            result["compress_replies_ok"] += 1
        result["plain_values"] += plain_values
        result["compressed_values"] += compressed_values
        result["sequence_gaps"] += gaps
    return result


def scenario_second_compress(args, deadline):
    peer = Peer(args.host, args.port, deadline)
    result = {"compress_reply": compress_json(peer)}
    result["second_reply"] = peer.request('{"op":"compress","algorithm":"deflate","id":"again"}')
    result["shorthand_reply"] = peer.request("compress deflate")
    result["ping_reply"] = peer.request('{"op":"ping","id":3}')
    peer.close()
    return result


def scenario_shorthand(args, deadline):
    peer = Peer(args.host, args.port, deadline)
    result = {"compress_reply": compress_json(peer, shorthand=True)}
    result["subscribe_reply"] = peer.request("subscribe solo")
    deliveries = []
    result["publish_reply"] = peer.request('publish solo {"n":1}', deliveries)
    result["deliveries"] = deliveries
    result["ping_reply"] = peer.request("ping")
    peer.close()
    return result


def scenario_corrupt(args, deadline):
    healthy = Peer(args.host, args.port, deadline)
    victim = Peer(args.host, args.port, deadline)
    result = {
        "healthy_compress_reply": compress_json(healthy),
        "victim_compress_reply": compress_json(victim),
    }
    result["victim_ping_before"] = victim.request('{"op":"ping","id":"before"}')
    # Block type 3 is reserved in RFC 1951, so 0xff can never start a valid block.
    victim.sock.sendall(b"\xff" * 64)
    result["victim_closed"] = victim.wait_for_close()
    victim.close()
    result["healthy_ping_after"] = healthy.request('{"op":"ping","id":"after"}')
    healthy.close()
    return result


SCENARIOS = {
    "stream": scenario_stream,
    "busy": scenario_busy,
    "second-compress": scenario_second_compress,
    "shorthand": scenario_shorthand,
    "corrupt": scenario_corrupt,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--topic", default="busy")
    parser.add_argument("--expect", type=int, default=2000)
    parser.add_argument("--width", type=int, default=8)
    parser.add_argument("--publish-topic", default="from.python")
    parser.add_argument("--publish-count", type=int, default=200)
    parser.add_argument("--pings", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()
    deadline = time.monotonic() + args.timeout
    try:
        result = SCENARIOS[args.scenario](args, deadline)
        status = 0
    except (Failure, EOFError, OSError, ValueError, KeyError, TypeError, zlib.error) as error:
        result = {"error": "%s: %s" % (type(error).__name__, error)}
        status = 1
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
