#!/usr/bin/env python3
"""A subscriber that is cut off many times at random moments and resumes with `since`, while a
publisher writes to several topics; over TCP or WebSocket, by exact names or by a pattern.

Usage: history_resume.py --port PORT [--http-port PORT] --transport tcp|ws --mode exact|pattern
       [--host ADDRESS --publisher-unix PATH --link-down CMD --link-up CMD --link-share F]
       [--subscriber-ports P,P --subscriber-http-ports P,P] [--rate VALUES --kills N]

With --subscriber-ports (and --subscriber-http-ports for WebSocket), the subscriber connects to
each port in turn, one connection after another: the nodes of a cluster it moves between on
every cut, while the publisher stays on --port. --rate paces the publisher to that many values
a second over all topics, and --kills stops cutting after that many cuts.

With --link-down and --link-up (run from a network namespace whose link they take down and
bring up), a share of the cuts are a vanished link instead of a reset: no FIN and no RST reach
the server; the subscriber reads what its kernel still holds until the link has been silent for
--silence seconds, abandons the connection, brings the link up and resumes. The publisher then
writes over --publisher-unix, which no link cut reaches.
Prints one JSON object: what arrived, how often, and every gap, duplicate or disorder seen; the
Swift test decides what is right. A gap right after a reply with "recovered":false is counted
as reported, and so is one in a topic before the position of a clustered gap notice
({"stream":TOPIC,"recovered":false,"pos":POS}, no value) that came before it; any other gap is
silent. Exits 2 when the run does not finish in time.
"""
import argparse
import asyncio
import json
import random
import shlex
import socket
import struct
import sys
import time

import websockets

DEADLINE = 60
# What the subscriber saw so far, printed to standard error when the run times out.
PARTIAL = {}


def ports(text):
    return [int(port) for port in text.split(",")] if text else []


async def connected(options, port):
    """A TCP socket connected to the server, with the receive buffer --receive-buffer asks for
    (the reader's buffer is kept as small): small buffers hold few lines when the link goes,
    so the subscriber gives a cut connection up soon after cut_after lines."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if options.receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, options.receive_buffer)
    sock.setblocking(False)
    try:
        await asyncio.get_running_loop().sock_connect(sock, (options.host, port))
    except BaseException:
        sock.close()
        raise
    return sock


class Line:
    """A connection that sends and receives lines, over TCP or WebSocket."""

    async def open(self, options, port=None, http_port=None):
        """Connects to `port` (`http_port` for WebSocket), or to --port (--http-port)."""
        self.transport = options.transport
        if self.transport == "tcp":
            self.reader, self.writer = await asyncio.open_connection(
                sock=await connected(options, port or options.port),
                limit=options.receive_buffer or 1 << 24)
            await self.receive()  # the greeting
        elif self.transport == "unix":
            self.reader, self.writer = await asyncio.open_unix_connection(
                options.publisher_unix, limit=1 << 24)
            await self.receive()
        else:
            http_port = http_port or options.http_port
            self.ws = await websockets.connect(
                f"ws://{options.host}:{http_port}/ws", compression=None, max_size=None,
                max_queue=4 if options.receive_buffer else None,
                sock=await connected(options, http_port))
            await self.receive()
        return self

    async def send(self, text):
        if self.transport != "ws":
            self.writer.write((text + "\n").encode())
            await self.writer.drain()
        else:
            await self.ws.send(text)

    async def receive(self):
        if self.transport != "ws":
            line = await self.reader.readline()
            if not line:
                raise ConnectionError("closed")
            return json.loads(line)
        return json.loads(await self.ws.recv())

    def reset(self):
        """Cuts the connection with a reset, as a crash or a dropped link would."""
        transport = self.writer.transport if self.transport != "ws" else self.ws.transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()


async def run_command(command):
    process = await asyncio.create_subprocess_exec(*shlex.split(command))
    if await process.wait() != 0:
        raise RuntimeError(f"{command} failed")


async def publish(options, topics):
    if options.publisher_unix:
        options = argparse.Namespace(**{**vars(options), "transport": "unix"})
    line = await Line().open(options)
    total = options.values * len(topics)
    replies = 0

    async def count_replies():
        nonlocal replies
        while replies < total:
            message = await line.receive()
            if message.get("ok") is not True:
                raise RuntimeError(f"publish refused: {message}")
            replies += 1

    counter = asyncio.create_task(count_replies())
    begun = time.monotonic()
    for n in range(options.values):
        for topic in topics:
            await line.send(json.dumps({"op": "publish", "stream": topic, "value": {"n": n}}))
        if options.rate:
            # Held to the rate from the start, so a late round is followed by faster ones.
            ahead = begun + (n + 1) * len(topics) / options.rate - time.monotonic()
            if ahead > 0:
                await asyncio.sleep(ahead)
        elif n % options.pace == options.pace - 1:
            await asyncio.sleep(0.005)
    sent = time.monotonic() - begun
    # Every publish is answered before the connection goes, so none is lost with it.
    await asyncio.wait_for(counter, DEADLINE)
    line.reset()
    return sent


async def subscribe(options, topics, started):
    rng = random.Random(options.seed)
    subscriptions = ["r.*"] if options.mode == "pattern" else topics
    last_pos = {name: None for name in subscriptions}
    recovered_last = {name: True for name in subscriptions}
    last_n = {topic: -1 for topic in topics}
    last_seq = {name: 0 for name in subscriptions}
    gap_until = {}
    stats = PARTIAL
    stats.update({"received": 0, "connections": 0, "resumes": 0, "recovered_false": 0, "reported_gaps": 0,
             "silent_gaps": [], "duplicates": [], "disorder": [], "epochs": set(),
             "last_n": last_n, "link_cuts": 0, "kills": 0, "by_port": {},
                  "unavailable": 0, "gap_notices": 0})

    def started_at(reply):
        # Cut before any value, a subscription resumes from where its reply said it starts.
        if "pos" in reply and last_pos[reply["stream"]] is None:
            last_pos[reply["stream"]] = reply["pos"]

    first = True
    subscriber_ports = ports(options.subscriber_ports) or [options.port]
    http_ports = ports(options.subscriber_http_ports) or [options.http_port]
    while any(n < options.values - 1 for n in last_n.values()):
        turn = stats["connections"]
        port = subscriber_ports[turn % len(subscriber_ports)]
        line = await Line().open(options, port, http_ports[turn % len(http_ports)])
        stats["connections"] += 1
        stats["by_port"][str(port)] = stats["by_port"].get(str(port), 0) + 1
        for name in subscriptions:
            request = {"op": "subscribe", "stream": name, "pos": True}
            if last_pos[name] is not None:
                request["since"] = last_pos[name]
            await line.send(json.dumps(request))
        if first:
            # The publisher starts once the first subscriptions are in place: a clustered node
            # answers only when JetStream has, and a subscription without `since` starts then.
            for _ in subscriptions:
                reply = await asyncio.wait_for(line.receive(), 10)
                if reply.get("ok") is not True:
                    raise RuntimeError(f"refused: {reply}")
                started_at(reply)
            started.set()
            first = False
        cut_after = rng.randint(options.min_lines, options.max_lines)
        if options.kills and stats["kills"] >= options.kills:
            cut_after = float("inf")  # cut enough: this connection sees the run out
        link_cut = options.link_down is not None and rng.random() < options.link_share
        seen_here = 0
        link_down = False
        try:
            while any(n < options.values - 1 for n in last_n.values()):
                if seen_here >= cut_after and not link_cut:
                    stats["kills"] += 1
                    break
                if seen_here >= cut_after and not link_down:
                    await run_command(options.link_down)
                    link_down = True
                    stats["link_cuts"] += 1
                    stats["kills"] += 1
                try:
                    wait = options.silence if link_down else 10
                    message = await asyncio.wait_for(line.receive(), wait)
                except asyncio.TimeoutError:
                    if link_down:
                        break  # the link is silent: what the kernel held has been read
                    raise
                if "ok" in message:
                    if message.get("error", {}).get("code") == "unavailable":
                        # A clustered node between NATS connections: try again, as a client would.
                        stats["unavailable"] += 1
                        break
                    if message.get("ok") is not True:
                        raise RuntimeError(f"refused: {message}")
                    started_at(message)
                    if "recovered" in message:
                        stats["resumes"] += 1
                        recovered_last[message["stream"]] = message["recovered"]
                        if not message["recovered"]:
                            stats["recovered_false"] += 1
                    continue
                if "value" not in message and message.get("recovered") is False:
                    # A clustered gap notice: values of the topic (of every topic without
                    # "sub" on a pattern) before its position may be gone.
                    stats["gap_notices"] += 1
                    bound = int(message["pos"].split("-")[1]) if "pos" in message else float("inf")
                    noticed = [message["stream"]] if message["stream"] in last_n else topics
                    for topic in noticed:
                        gap_until[topic] = max(gap_until.get(topic, 0), bound)
                    continue
                name = message.get("sub", message["stream"])
                topic = message["stream"]
                epoch, sequence = message["pos"].split("-")
                stats["epochs"].add(epoch)
                sequence = int(sequence)
                n = message["value"]["n"]
                stats["received"] += 1
                seen_here += 1
                if sequence <= last_seq[name]:
                    stats["disorder"].append([name, last_seq[name], sequence])
                last_seq[name] = sequence
                last_pos[name] = message["pos"]
                if n <= last_n[topic]:
                    stats["duplicates"].append([topic, last_n[topic], n])
                elif n != last_n[topic] + 1:
                    if recovered_last[name] and sequence > gap_until.get(topic, 0):
                        stats["silent_gaps"].append([topic, last_n[topic], n])
                    else:
                        stats["reported_gaps"] += 1
                last_n[topic] = max(last_n[topic], n)
        finally:
            line.reset()
            if link_down:
                await asyncio.sleep(rng.random() * options.pause)
                await run_command(options.link_up)
        await asyncio.sleep(rng.random() * options.pause)
    stats["epochs"] = sorted(stats["epochs"])
    return stats


async def main(options):
    topics = [f"r.{index}" for index in range(options.topics)]
    started = asyncio.Event()
    subscriber = asyncio.create_task(subscribe(options, topics, started))
    await asyncio.wait_for(started.wait(), 10)
    await asyncio.sleep(0.2)  # the first subscriptions are in place before the first value
    begun = time.monotonic()
    publisher = asyncio.create_task(publish(options, topics))
    # A publisher that fails ends the run at once rather than leaving the subscriber waiting.
    await asyncio.wait([subscriber, publisher], timeout=DEADLINE, return_when=asyncio.FIRST_EXCEPTION)
    if publisher.done() and publisher.exception():
        raise publisher.exception()
    stats = await asyncio.wait_for(subscriber, DEADLINE)
    sent = await publisher
    stats["seconds"] = round(time.monotonic() - begun, 3)
    stats["publish_seconds"] = round(sent, 3)
    stats["publish_rate"] = round(options.values * len(topics) / sent) if sent else 0
    print(json.dumps(stats))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--http-port", type=int, default=0)
    parser.add_argument("--transport", choices=["tcp", "ws"], default="tcp")
    parser.add_argument("--mode", choices=["exact", "pattern"], default="exact")
    parser.add_argument("--topics", type=int, default=20)
    parser.add_argument("--values", type=int, default=500, help="values per topic")
    parser.add_argument("--pace", type=int, default=5, help="rounds between 5 ms pauses")
    parser.add_argument("--rate", type=int, default=0,
                        help="values a second over all topics; 0 paces by --pace instead")
    parser.add_argument("--kills", type=int, default=0,
                        help="the most cuts; 0 cuts until the run ends")
    parser.add_argument("--subscriber-ports",
                        help="ports the subscriber connects to in turn; --port when not given")
    parser.add_argument("--subscriber-http-ports",
                        help="HTTP ports of the same nodes, for WebSocket")
    parser.add_argument("--min-lines", type=int, default=20)
    parser.add_argument("--max-lines", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.01, help="longest wait to reconnect")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--host", default="127.0.0.1", help="the subscriber's server address")
    parser.add_argument("--publisher-unix", help="the publisher's Unix socket")
    parser.add_argument("--link-down", help="a command that takes the subscriber's link down")
    parser.add_argument("--link-up", help="a command that brings it up again")
    parser.add_argument("--link-share", type=float, default=0.5,
                        help="the share of cuts that take the link down rather than reset")
    parser.add_argument("--receive-buffer", type=int, default=0,
                        help="the subscriber's SO_RCVBUF in bytes; 0 leaves the system's")
    parser.add_argument("--silence", type=float, default=0.3,
                        help="seconds without data after which a cut link counts as dead")
    try:
        asyncio.run(main(parser.parse_args()))
    except asyncio.TimeoutError:
        PARTIAL["epochs"] = sorted(PARTIAL.get("epochs", []))
        print(json.dumps(PARTIAL), file=sys.stderr)
        sys.exit(2)
