#!/usr/bin/env python3
"""Many WebSocket subscribers of one stream, with permessage-deflate negotiated three ways:
with server_no_context_takeover (the server shares one compressed frame per value among
them), with context takeover (each has its own compressor), and without compression.

Usage: websocket_shared_deflate.py --port PORT [--shared N] [--values M]. A plain publisher
publishes M values; every subscriber must receive all of them, decoded, in order. Prints
one JSON object with what each group saw; the Swift test decides what is right. Exits 2
when a step times out.
"""
import argparse
import asyncio
import json
import random
import sys

import websockets
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory

from websocket_peer import recv_json, until

TIMEOUT = 10


def factories(group):
    if group == "shared":
        return [ClientPerMessageDeflateFactory(server_no_context_takeover=True)]
    if group == "shared_small_window":
        return [
            ClientPerMessageDeflateFactory(
                server_no_context_takeover=True, server_max_window_bits=10
            )
        ]
    if group == "takeover":
        return [ClientPerMessageDeflateFactory(client_max_window_bits=True)]
    return None


async def subscriber(options, group, topic, ready):
    extensions = factories(group)
    ws = await websockets.connect(
        f"ws://127.0.0.1:{options.port}/ws",
        extensions=extensions or [],
        compression=None,
        max_size=None,
    )
    header = ws.response.headers.get("Sec-WebSocket-Extensions", "")
    await recv_json(ws, TIMEOUT)
    await ws.send(json.dumps({"op": "subscribe", "stream": topic, "id": 1}))
    await until(ws, lambda m: m.get("id") == 1, TIMEOUT)
    ready.set_result(None)
    return ws, header


async def collect(ws, topic, count):
    got = []
    while len(got) < count:
        message = await recv_json(ws, TIMEOUT)
        if message.get("stream") == topic:
            got.append(message["value"])
    await ws.close()
    return got


async def main(options):
    topic = "shared.deflate"
    groups = (
        ["shared"] * options.shared
        + ["shared_small_window"] * 3
        + ["takeover"] * 3
        + ["plain"] * 2
    )
    loop = asyncio.get_running_loop()
    readies = [loop.create_future() for _ in groups]
    opened = await asyncio.gather(
        *(subscriber(options, g, topic, r) for g, r in zip(groups, readies))
    )
    rng = random.Random(7)
    values = []
    for i in range(options.values):
        kind = i % 4
        if kind == 0:
            values.append(i)
        elif kind == 1:
            values.append(f"value {i} " + "repeated text " * rng.randint(1, 40))
        elif kind == 2:
            values.append({"i": i, "r": [rng.random() for _ in range(rng.randint(0, 30))]})
        else:
            values.append("".join(chr(rng.randint(0x20, 0x24FF)) for _ in range(rng.randint(0, 300))))
    async with websockets.connect(f"ws://127.0.0.1:{options.port}/ws", compression=None) as pub:
        await recv_json(pub, TIMEOUT)
        readers = [asyncio.create_task(collect(ws, topic, len(values))) for ws, _ in opened]
        for value in values:
            await pub.send(json.dumps({"op": "publish", "stream": topic, "value": value}))
        results = await asyncio.wait_for(asyncio.gather(*readers), TIMEOUT * 3)
    seen = {}
    for group, (_, header), got in zip(groups, opened, results):
        entry = seen.setdefault(group, {"extensions": set(), "in_order": 0, "subscribers": 0})
        entry["extensions"].add(header)
        entry["subscribers"] += 1
        entry["in_order"] += int(got == values)
    for entry in seen.values():
        entry["extensions"] = sorted(entry["extensions"])
    return seen


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--shared", type=int, default=40)
    parser.add_argument("--values", type=int, default=200)
    options = parser.parse_args()
    try:
        print(json.dumps(asyncio.run(main(options))))
    except asyncio.TimeoutError:
        print("timed out", file=sys.stderr)
        sys.exit(2)
