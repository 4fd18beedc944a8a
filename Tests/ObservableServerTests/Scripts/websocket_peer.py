#!/usr/bin/env python3
"""An independent WebSocket peer for the server's /ws, built on the `websockets` package and,
for frames a conforming client would never send, on a raw socket.

Usage: websocket_peer.py --port PORT SCENARIO. Prints one JSON object with what it saw; the
Swift test decides what is right. Exits 2 when a step times out.
"""
import argparse
import asyncio
import base64
import json
import os
import signal
import socket
import struct
import sys
import time

import websockets
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory

TIMEOUT = 5


def url(options):
    return f"ws://127.0.0.1:{options.port}/ws"


async def recv_json(ws, timeout=TIMEOUT):
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def until(ws, predicate, timeout=TIMEOUT):
    """The next message for which predicate holds, skipping others."""
    while True:
        message = await recv_json(ws, timeout)
        if predicate(message):
            return message


async def protocol(options):
    seen = {}
    async with websockets.connect(url(options), compression=None) as ws:
        seen["greeting"] = await recv_json(ws)
        await ws.send('{"op":"subscribe","stream":"clock","id":1}')
        seen["clock_reply"] = await recv_json(ws)
        seen["clock_value"] = await until(ws, lambda m: m.get("stream") == "clock")
        await ws.send('{"op":"unsubscribe","stream":"clock"}')
        await ws.send('{"op":"publish","stream":"news.kept","value":"first","retain":true,"id":2}')
        seen["retain_reply"] = await until(ws, lambda m: m.get("id") == 2)
        await ws.send('{"op":"subscribe","stream":"news.*","id":3}')
        seen["pattern_reply"] = await until(ws, lambda m: m.get("id") == 3)
        seen["retained_value"] = await until(ws, lambda m: m.get("stream") == "news.kept")
        await ws.send('{"op":"publish","stream":"news.fresh","value":{"n":5},"id":4}')
        seen["published_value"] = await until(ws, lambda m: m.get("stream") == "news.fresh")
        await ws.send("this is not json")
        seen["error_reply"] = await until(ws, lambda m: m.get("ok") is False)
        await ws.send('{"op":"compress","algorithm":"deflate","id":5}')
        seen["compress_reply"] = await until(ws, lambda m: m.get("id") == 5)
        # A fragmented message: websockets sends an iterable as continuation frames.
        await ws.send(iter(['{"op":"ping",', '"id":6', "}"]))
        seen["fragmented_reply"] = await until(ws, lambda m: m.get("id") == 6)
        started = time.monotonic()
        await asyncio.wait_for(await ws.ping(b"are you there"), TIMEOUT)
        seen["pong_seconds"] = time.monotonic() - started
    seen["close_code"] = ws.close_code
    return seen


async def deflate(options):
    seen = {}
    for name, factory in [
        ("takeover", ClientPerMessageDeflateFactory(client_max_window_bits=True)),
        (
            "no_takeover",
            ClientPerMessageDeflateFactory(
                server_no_context_takeover=True, client_no_context_takeover=True
            ),
        ),
    ]:
        async with websockets.connect(url(options), extensions=[factory], compression=None) as ws:
            header = ws.response.headers.get("Sec-WebSocket-Extensions", "")
            await recv_json(ws)
            topic = f"deflate.{name}"
            await ws.send(json.dumps({"op": "subscribe", "stream": topic, "id": 1}))
            await until(ws, lambda m: m.get("id") == 1)
            values = [f"value {i} " + "repeated text " * 20 for i in range(20)]
            for value in values:
                await ws.send(json.dumps({"op": "publish", "stream": topic, "value": value}))
            got = []
            while len(got) < len(values):
                message = await recv_json(ws)
                if message.get("stream") == topic:
                    got.append(message["value"])
            seen[name] = {"extension": header, "in_order": got == values, "count": len(got)}
    return seen


def raw_open(options, extensions=None):
    """A raw socket past the handshake, greeting read; returns it and the 101 head."""
    sock = socket.create_connection(("127.0.0.1", options.port), timeout=TIMEOUT)
    key = base64.b64encode(os.urandom(16)).decode()
    head = (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{options.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(head.encode())
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(4096)
        if not chunk:
            raise EOFError("closed during the handshake")
        buffer += chunk
    response, rest = buffer.split(b"\r\n\r\n", 1)
    reader = FrameReader(sock, rest)
    opcode, payload = reader.next()
    assert opcode == 1 and b"hello" in payload, (opcode, payload)
    return sock, reader, response.decode()


def frame(opcode, payload, fin=True, masked=True):
    header = bytes([(0x80 if fin else 0) | opcode])
    length = len(payload)
    mask_bit = 0x80 if masked else 0
    if length < 126:
        header += bytes([mask_bit | length])
    elif length < 65536:
        header += bytes([mask_bit | 126]) + struct.pack("!H", length)
    else:
        header += bytes([mask_bit | 127]) + struct.pack("!Q", length)
    if not masked:
        return header + payload
    mask = os.urandom(4)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class FrameReader:
    """Reads the server's (unmasked) frames from a raw socket."""

    def __init__(self, sock, initial=b""):
        self.sock = sock
        self.buffer = initial

    def _need(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buffer += chunk

    def next(self):
        self._need(2)
        opcode = self.buffer[0] & 0x0F
        length = self.buffer[1] & 0x7F
        offset = 2
        if length == 126:
            self._need(4)
            length = struct.unpack("!H", self.buffer[2:4])[0]
            offset = 4
        elif length == 127:
            self._need(10)
            length = struct.unpack("!Q", self.buffer[2:10])[0]
            offset = 10
        self._need(offset + length)
        payload = self.buffer[offset : offset + length]
        self.buffer = self.buffer[offset + length :]
        return opcode, payload

    def close_code(self):
        """Skips data frames up to the close frame; its code, or None if the socket just closed."""
        try:
            while True:
                opcode, payload = self.next()
                if opcode == 8:
                    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
        except (EOFError, ConnectionResetError):
            return None


def raw(options):
    seen = {}
    bad_frames = {
        "bad_utf8": frame(1, b'{"op":"ping","id":"\xc3\x28"}'),
        "oversized": frame(1, b"x" * (options.max_line_bytes + 1)),
        "unmasked": frame(1, b'{"op":"ping"}', masked=False),
        "binary": frame(2, b"\x00\x01"),
        "bad_utf8_in_fragments": frame(1, b'{"op":"\xe2\x82', fin=False) + frame(0, b"\x28"),
    }
    for name, data in bad_frames.items():
        sock, reader, _ = raw_open(options)
        sock.sendall(data)
        seen[name] = reader.close_code()
        sock.close()
    # Fragments with a ping between them, each masked: one reply, one pong, in the right order.
    sock, reader, _ = raw_open(options)
    sock.sendall(
        frame(1, b'{"op":"ping",', fin=False)
        + frame(9, b"mid")
        + frame(0, b'"id":', fin=False)
        + frame(0, b"41}")
    )
    first = reader.next()
    second = reader.next()
    seen["interleaved"] = [[first[0], first[1].decode()], [second[0], second[1].decode()]]
    sock.sendall(frame(8, struct.pack("!H", 1000) + b"bye"))
    seen["close_reply"] = reader.close_code()
    sock.settimeout(TIMEOUT)
    try:
        seen["closed_after_close"] = sock.recv(1) == b""
    except ConnectionResetError:
        seen["closed_after_close"] = True
    sock.close()
    return seen


def silent(options):
    """A peer that answers nothing: the server pings, then drops it; and one that answers."""
    sock, reader, _ = raw_open(options)
    started = time.monotonic()
    sock.settimeout(0.2)
    pings = 0
    dropped = False
    # The server's pings keep arriving while it has not dropped the peer: wait out the span.
    while time.monotonic() - started < options.wait:
        try:
            opcode, _ = reader.next()
            pings += opcode == 9
        except socket.timeout:
            continue
        except (EOFError, ConnectionResetError):
            dropped = True
            break
    elapsed = time.monotonic() - started
    sock.close()
    # A peer that answers each ping stays connected past the same span.
    sock, reader, _ = raw_open(options)
    sock.settimeout(0.2)
    deadline = time.monotonic() + elapsed * 2
    answered = 0
    alive = True
    while time.monotonic() < deadline:
        try:
            opcode, payload = reader.next()
        except socket.timeout:
            continue
        except (EOFError, ConnectionResetError):
            alive = False
            break
        if opcode == 9:
            sock.sendall(frame(10, payload))
            answered += 1
    sock.close()
    return {"dropped": dropped, "seconds": elapsed, "pings": pings, "answered": answered, "alive": alive}


async def auth(options):
    """The token first, as on TCP; a wrong one ends with a close frame."""
    seen = {}
    async with websockets.connect(url(options)) as ws:
        seen["greeting"] = await recv_json(ws)
        await ws.send('{"op":"list","id":1}')
        seen["before_auth"] = await until(ws, lambda m: m.get("id") == 1)
        await ws.send(json.dumps({"op": "auth", "token": options.token, "id": 2}))
        seen["auth_reply"] = await until(ws, lambda m: m.get("id") == 2)
        await ws.send('{"op":"list","id":3}')
        seen["after_auth"] = await until(ws, lambda m: m.get("id") == 3)
        big = json.dumps({"op": "publish", "stream": "big", "value": "x" * 6000, "id": 6})
        await ws.send(big)
        seen["long_after_auth"] = await until(ws, lambda m: m.get("id") == 6)
    async with websockets.connect(url(options), max_size=None) as ws:
        await recv_json(ws)
        await ws.send(json.dumps({"op": "ping", "pad": "x" * 6000}))
        try:
            while True:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
        except websockets.ConnectionClosed as closed:
            seen["long_before_auth_close"] = closed.rcvd.code if closed.rcvd else None
    async with websockets.connect(url(options)) as ws:
        await recv_json(ws)
        await ws.send(json.dumps({"op": "auth", "token": options.token + "x", "id": 4}))
        try:
            while True:
                seen["wrong_token_reply"] = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        except websockets.ConnectionClosed as closed:
            seen["wrong_token_close"] = closed.rcvd.code if closed.rcvd else None
    return seen


async def abrupt(options):
    """Subscribes, says it is ready, and is then killed without a close frame."""
    ws = await websockets.connect(url(options))
    await recv_json(ws)
    for index, name in enumerate(["clock", "abrupt.a", "abrupt.b"]):
        await ws.send(json.dumps({"op": "subscribe", "stream": name, "id": index}))
        await until(ws, lambda m, index=index: m.get("id") == index)
    print(json.dumps({"subscribed": 3}), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--port", type=int, required=True)
    arguments.add_argument("--max-line-bytes", type=int, default=1024)
    arguments.add_argument("--wait", type=float, default=5)
    arguments.add_argument("--token", default="")
    arguments.add_argument("scenario")
    options = arguments.parse_args()
    scenarios = {
        "protocol": lambda: asyncio.run(protocol(options)),
        "deflate": lambda: asyncio.run(deflate(options)),
        "raw": lambda: raw(options),
        "silent": lambda: silent(options),
        "auth": lambda: asyncio.run(auth(options)),
        "abrupt": lambda: asyncio.run(abrupt(options)),
    }
    try:
        result = scenarios[options.scenario]()
    except (asyncio.TimeoutError, socket.timeout) as error:
        sys.exit(f"timed out: {error!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
