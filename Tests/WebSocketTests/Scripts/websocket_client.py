#!/usr/bin/env python3
"""An independent WebSocket client (the `websockets` package) for the interoperability test.

  websocket_client.py PORT COMPRESSION ENDING

COMPRESSION: plain | deflate (the package's default offer) | no-takeover (both
directions without context takeover). ENDING: close | too-big | binary, how the
conversation ends. Prints one JSON object with what the client saw.
"""

import json
import sys

from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.sync.client import connect

TOO_BIG = 100_001


def main():
    port, compression, ending = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    options = {"compression": None}
    if compression == "deflate":
        options = {"compression": "deflate"}
    elif compression == "no-takeover":
        options["extensions"] = [ClientPerMessageDeflateFactory(
            server_no_context_takeover=True, client_no_context_takeover=True,
            client_max_window_bits=True)]
    messages = ["hello", "κόσμε 🎉", "x" * 70000, '{"op":"sub","name":"room.*"}' * 50]
    result = {}
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, close_timeout=10,
                 max_size=2 ** 20, **options) as ws:
        result["extensions"] = ws.response.headers.get("Sec-WebSocket-Extensions")
        echoes = []
        for message in messages:
            ws.send(message)
            echoes.append(ws.recv(timeout=10))
        # An iterable is sent as one fragmented message.
        ws.send(["frag", "ment", "ed ✓"])
        echoes.append(ws.recv(timeout=10))
        result["echoes"] = echoes == messages + ["fragmented ✓"]
        result["pong"] = ws.ping(b"probe").wait(10)
        if ending == "too-big":
            ws.send("y" * TOO_BIG)
        elif ending == "binary":
            ws.send(b"\x00\x01")
        else:
            ws.close(1000, "done")
        try:
            ws.recv(timeout=10)
            result["close"] = None
        except ConnectionClosed as closed:
            result["close"] = closed.rcvd.code if closed.rcvd else None
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
