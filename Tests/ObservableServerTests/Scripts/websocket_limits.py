#!/usr/bin/env python3
"""WebSocket peers that push the server's limits: a ping flood that never reads, a subscriber
that never reads, and messages carrying raw line breaks.

Usage: websocket_limits.py --port HTTP_PORT [options] SCENARIO. Prints one JSON object with
what it saw; the Swift test decides what is right. Raw sockets, so that the peer can stop
reading, which no WebSocket library lets it do; `websockets` drives the polite scenario.
"""
import argparse
import asyncio
import base64
import json
import os
import socket
import struct
import time

import websockets

TIMEOUT = 10


def frame(opcode, payload):
    """One masked, final client frame."""
    mask = os.urandom(4)
    header = bytes([0x80 | opcode])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    elif len(payload) <= 0xFFFF:
        header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    else:
        header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def open_raw(options, receive_buffer=None):
    """A raw WebSocket past the handshake and the greeting; returns it and unread bytes."""
    sock = socket.socket()
    if receive_buffer:
        # Set before connecting, so the window the server sees stays small.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(TIMEOUT)
    sock.connect(("127.0.0.1", options.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    reader = FrameReader(sock)
    head = reader.read_head()
    if not head.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"upgrade refused: {head!r}")
    greeting = reader.next()
    return sock, reader, json.loads(greeting[1])


class FrameReader:
    """Reads the server's (unmasked) frames from a raw socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""
        self.eof = False
        self.reset = False
        self.timed_out = False

    def _fill(self):
        try:
            chunk = self.sock.recv(1 << 20)
        except ConnectionResetError:
            self.reset = True
            chunk = b""
        except socket.timeout:
            # The server neither sent more nor closed: the end, for this peer.
            self.timed_out = True
            chunk = b""
        if not chunk:
            self.eof = True
        self.buffer += chunk

    def read_head(self):
        while b"\r\n\r\n" not in self.buffer and not self.eof:
            self._fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        return head

    def _need(self, count):
        while len(self.buffer) < count and not self.eof:
            self._fill()
        return len(self.buffer) >= count

    def next(self):
        """The next frame as (opcode, payload); None at the end of the stream."""
        if not self._need(2):
            return None
        length = self.buffer[1] & 0x7F
        offset = 2
        if length == 126:
            if not self._need(4):
                return None
            length = struct.unpack("!H", self.buffer[2:4])[0]
            offset = 4
        elif length == 127:
            if not self._need(10):
                return None
            length = struct.unpack("!Q", self.buffer[2:10])[0]
            offset = 10
        if not self._need(offset + length):
            return None
        opcode = self.buffer[0] & 0x0F
        payload = self.buffer[offset : offset + length]
        self.buffer = self.buffer[offset + length :]
        return opcode, payload


def resident_bytes(pid):
    if not pid:
        return None
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return None


def drain_to_close(reader, seen):
    """Reads every frame to the end; records the last text message and the close frame."""
    pongs = 0
    seen["close_code"] = None
    while True:
        got = reader.next()
        if got is None:
            break
        opcode, payload = got
        if opcode == 0xA:
            pongs += 1
        elif opcode == 0x1:
            seen["last_text"] = payload.decode()
        elif opcode == 0x8:
            seen["close_code"] = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
            seen["close_reason"] = payload[2:].decode()
            # Answer as a client does; the server then sees our end of the stream.
            try:
                reader.sock.sendall(frame(0x8, payload[:2]))
            except OSError:
                pass
            break
    seen["pongs_read"] = pongs
    # After the close frame, only the end of the stream may follow.
    while not reader.eof:
        reader._fill()
    seen["data_after_close"] = len(reader.buffer)
    seen["reset"] = reader.reset
    seen["timed_out"] = reader.timed_out


def ping_flood(options):
    """Sends pings and reads nothing, RSS sampled meanwhile; then reads what came back."""
    sock, reader, greeting = open_raw(options, receive_buffer=4096)
    seen = {"greeting_auth": greeting.get("auth")}
    if options.token:
        sock.sendall(frame(0x1, json.dumps({"op": "auth", "token": options.token}).encode()))
    seen["rss_before"] = resident_bytes(options.server_pid)
    chunk = b"".join(frame(0x9, b"p" * 125) for _ in range(512))
    sent = 0
    peak = seen["rss_before"] or 0
    started = time.monotonic()
    try:
        while sent < options.flood_bytes and time.monotonic() - started < 60:
            sock.sendall(chunk)
            sent += len(chunk)
            if sent % (1 << 20) < len(chunk):
                peak = max(peak, resident_bytes(options.server_pid) or 0)
    except OSError as error:
        seen["send_error"] = type(error).__name__
    seen["sent"] = sent
    seen["rss_peak"] = max(peak, resident_bytes(options.server_pid) or 0)
    drain_to_close(reader, seen)
    return seen


def slow_subscriber(options):
    """Subscribes and reads nothing while a TCP client publishes; then reads what came back."""
    sock, reader, _ = open_raw(options, receive_buffer=4096)
    sock.sendall(frame(0x1, b'{"op":"subscribe","stream":"flood","id":1}'))
    # Subscribed once the reply is here; from then on nothing is read until the flood ends.
    while True:
        got = reader.next()
        if got is None:
            raise SystemExit("no subscribe reply")
        if got[0] == 0x1 and b'"id":1' in got[1]:
            break
    publisher = socket.create_connection(("127.0.0.1", options.tcp_port), timeout=TIMEOUT)
    publisher.recv(4096)
    value = json.dumps("x" * 4000)
    line = f'{{"op":"publish","stream":"flood","value":{value}}}\n'.encode()
    batch = line * 64
    for _ in range(options.flood_bytes // len(batch) + 1):
        publisher.sendall(batch)
    publisher.close()
    seen = {}
    drain_to_close(reader, seen)
    return seen


def silent_reader(options):
    """Reads everything and answers nothing, pings included, until the server gives up."""
    _, reader, _ = open_raw(options)
    seen = {}
    drain_to_close(reader, seen)
    return seen


async def line_breaks(options):
    """Pretty-printed JSON, `ping` with a line ending, and a raw line break in a string."""
    seen = {}
    async with websockets.connect(f"ws://127.0.0.1:{options.port}/ws", compression=None) as ws:
        await asyncio.wait_for(ws.recv(), TIMEOUT)

        async def request(text):
            await ws.send(text)
            return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))

        value = {"name": "line\nbreak", "list": [1, 2, {"deep": True}], "empty": {}}
        pretty = json.dumps(
            {"op": "publish", "stream": "pretty", "value": value, "id": 1}, indent=2
        )
        seen["pretty_reply"] = await request(pretty.replace("\n", "\r\n") + "\n")
        seen["ping_lf"] = await request("ping\n")
        seen["ping_crlf"] = await request("ping\r\n")
        seen["json_ping_lf"] = await request('{"op":"ping","id":7}\n')
        seen["raw_break_in_string"] = await request(
            '{"op":"publish","stream":"pretty","value":"a\nb","id":2}'
        )
    return seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tcp-port", type=int, default=0)
    parser.add_argument("--token", default="")
    parser.add_argument("--server-pid", type=int, default=0)
    parser.add_argument("--flood-bytes", type=int, default=32 << 20)
    parser.add_argument("scenario")
    options = parser.parse_args()
    if options.scenario == "ping_flood":
        seen = ping_flood(options)
    elif options.scenario == "slow_subscriber":
        seen = slow_subscriber(options)
    elif options.scenario == "silent_reader":
        seen = silent_reader(options)
    elif options.scenario == "line_breaks":
        seen = asyncio.run(line_breaks(options))
    else:
        raise SystemExit(f"unknown scenario {options.scenario}")
    print(json.dumps(seen), flush=True)


if __name__ == "__main__":
    main()
