#!/usr/bin/env python3
"""Floods a server with publishers and one pattern subscriber, then reports how each connection
ended once the server shut down: a clean end of stream, or a reset.

Prints "ready" once every publisher has flooded for half a second; the caller then stops the
server. Each client reads until the end of stream (then closes its side, as a well-behaved
client does) or a reset. The last line is JSON: {"eof": N, "reset": N, "unconfirmed": N,
"values": N, "replies": N}, where "unconfirmed" counts publishers whose latest value reached the
subscriber but whose reply to it never arrived (every reply follows its value, so a clean
shutdown leaves none).
"""
import argparse, json, selectors, socket, time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--publishers", type=int, default=100)
ap.add_argument("--timeout", type=float, default=20)
a = ap.parse_args()


class Client:
    def __init__(self, kind, ident=-1):
        self.sock = socket.create_connection(("127.0.0.1", a.port), timeout=5)
        self.kind, self.id = kind, ident
        self.buf, self.out, self.sent, self.replies, self.seen = b"", b"", 0, 0, {}


sel = selectors.DefaultSelector()
subscriber = Client("sub")
subscriber.sock.sendall(b"subscribe flood.>\n")
reply = b""
while b'"op":"subscribe"' not in reply:
    reply += subscriber.sock.recv(4096)
publishers = [Client("pub", i) for i in range(a.publishers)]
for client in [subscriber] + publishers:
    client.sock.setblocking(False)
    mask = selectors.EVENT_READ | (selectors.EVENT_WRITE if client.kind == "pub" else 0)
    sel.register(client.sock, mask, client)

ended = {"eof": 0, "reset": 0}
open_count = 1 + len(publishers)
start = time.time()
ready = False


def finish(client, how):
    global open_count
    ended[how] += 1
    open_count -= 1
    sel.unregister(client.sock)
    client.sock.close()


while open_count and time.time() < start + a.timeout:
    if not ready and time.time() - start > 0.5:
        print("ready", flush=True)
        ready = True
    for key, events in sel.select(timeout=0.1):
        client = key.data
        if events & selectors.EVENT_READ:
            try:
                data = client.sock.recv(65536)
            except BlockingIOError:
                data = None
            except ConnectionResetError:
                finish(client, "reset")
                continue
            if data == b"":
                finish(client, "eof")
                continue
            if data:
                client.buf += data
                *lines, client.buf = client.buf.split(b"\n")
                for line in lines:
                    if client.kind == "sub" and line.startswith(b'{"stream":"flood.'):
                        msg = json.loads(line)
                        pub = int(msg["stream"].split(".")[1])
                        client.seen[pub] = max(client.seen.get(pub, -1), int(msg["value"]))
                    elif b'"op":"publish"' in line and b'"ok":true' in line:
                        client.replies += 1
        # At most 500 publishes in flight each, so the subscriber, reading them all, keeps up.
        if client.kind == "pub" and events & selectors.EVENT_WRITE and (
                client.out or client.sent - client.replies < 500):
            if not client.out:
                client.out = b"".join(
                    b"publish flood.%d %d\n" % (client.id, client.sent + k) for k in range(50))
                client.sent += 50
            try:
                client.out = client.out[client.sock.send(client.out):]
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                finish(client, "reset")

# Value n of a publisher is its (n+1)th publish, so its reply is the (n+1)th reply.
unconfirmed = sum(1 for p in publishers if subscriber.seen.get(p.id, -1) + 1 > p.replies)
print(json.dumps({
    **ended, "open": open_count, "unconfirmed": unconfirmed,
    "values": sum(v + 1 for v in subscriber.seen.values()),
    "replies": sum(p.replies for p in publishers),
}), flush=True)
