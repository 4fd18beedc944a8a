#!/usr/bin/env python3
"""Measures issue 20's items 1 and 3 against a running server (one event loop, so every client
shares it): the time of one `list` page with many topics, the longest wait of a bystander's ping
while one client pipelines 20 lists, and the longest wait while a connection holding many
subscriptions closes.

Start the server first, for example:

  .build/release/observable-server --listen 127.0.0.1:7070 --threads 1 \
      --max-subscriptions 1000010 --max-queued-bytes 268435456 \
      --max-retained-bytes 1073741824 --log-level warning &
  python3 Tests/ObservableServerTests/Scripts/list_teardown_figures.py --port 7070 \
      --topics 300000 --subscriptions 1000000

Prints one line per figure, and a JSON object last.
"""
import argparse, json, socket, statistics, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--topics", type=int, default=300_000)
ap.add_argument("--subscriptions", type=int, default=1_000_000)
a = ap.parse_args()


class Client:
    def __init__(self):
        self.sock = socket.create_connection(("127.0.0.1", a.port), timeout=120)
        self.buf = b""
        self.line()  # the greeting

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError("server closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def request(self, text):
        self.sock.sendall(text.encode() + b"\n")
        return json.loads(self.line())

    def pipeline(self, lines, chunk=10_000):
        """Sends lines in chunks, counting the replies (one line each) rather than parsing."""
        for start in range(0, len(lines), chunk):
            part = lines[start:start + chunk]
            self.sock.sendall("".join(part).encode())
            expected = len(part)
            seen = self.buf.count(b"\n")
            while seen < expected:
                data = self.sock.recv(1 << 20)
                if not data:
                    raise EOFError("server closed the connection")
                self.buf += data
                seen = self.buf.count(b"\n")
            parts = self.buf.split(b"\n")
            self.buf = b"\n".join(parts[expected:])


def name(index):
    return f"t.{index:07d}"


def longest_ping(bystander, done, label):
    """Pings until done() and returns the longest wait; notes the five longest and the count."""
    waits = []
    while True:
        sent = time.monotonic()
        bystander.request('{"op":"ping"}')
        waits.append(time.monotonic() - sent)
        if done():
            break
    figures[label + "_pings"] = len(waits)
    figures[label + "_longest5_ms"] = [round(w * 1000, 1) for w in sorted(waits)[-5:]]
    return max(waits)


figures = {}
maker = Client()
maker.pipeline([f"retain {name(i)} 1\n" for i in range(a.topics)])

# One page at a time, from all over the registry, unfiltered and by a prefix pattern.
lister = Client()
for label, template in (("list_page_ms", '{"op":"list","after":"%s"}'),
                        ("list_page_pattern_ms", '{"op":"list","stream":"t.*","after":"%s"}')):
    times = []
    for i in range(20):
        request = template % name(i * (a.topics // 20))
        sent = time.monotonic()
        reply = lister.request(request)
        times.append((time.monotonic() - sent) * 1000)
        assert len(reply["streams"]) == 1000, reply.get("error")
    figures[label] = round(statistics.median(times), 2)
    figures[label.replace("_ms", "_max_ms")] = round(max(times), 2)
# A pattern that starts with a wildcard: a page looks at 10,000 topics at most.
sent = time.monotonic()
lister.request('{"op":"list","stream":"*.0000010"}')
figures["list_page_wildcard_first_ms"] = round((time.monotonic() - sent) * 1000, 2)

# 20 pipelined lists while a bystander pings.
bystander = Client()
finished = threading.Event()


def pipelined_lists():
    requests = "".join('{"op":"list","after":"%s"}\n' % name(i * (a.topics // 20)) for i in range(20))
    lister.sock.sendall(requests.encode())
    # Newlines counted in raw chunks: splitting a megabyte of replies line by line would hold
    # Python's lock long enough to delay the bystander's pings, and measure the script.
    lines = lister.buf.count(b"\n")
    while lines < 20:
        lines += lister.sock.recv(1 << 20).count(b"\n")
    finished.set()


# The same pings with nothing else to do: what the machine itself adds (scheduling on a busy
# host shows here, not in the server).
idle_until = time.monotonic() + 2
figures["ping_idle_ms"] = round(longest_ping(bystander, lambda: time.monotonic() > idle_until, "idle") * 1000, 2)

thread = threading.Thread(target=pipelined_lists)
thread.start()
figures["ping_during_20_lists_ms"] = round(longest_ping(bystander, finished.is_set, "lists") * 1000, 2)
thread.join()

# A connection holding many subscriptions closes while the bystander pings.
holder = Client()
holder.pipeline([f"subscribe s.{i}\n" for i in range(a.subscriptions)])
started = time.monotonic()
holder.sock.close()
checked = [0.0]


def all_disconnected():
    # The topics the subscriptions made are dropped with their last subscriber.
    if time.monotonic() - checked[0] < 0.02:
        return False
    checked[0] = time.monotonic()
    reply = bystander.request('{"op":"list","stream":"s.*"}')
    return not reply["streams"] and "next" not in reply


figures["ping_during_close_ms"] = round(longest_ping(bystander, all_disconnected, "close") * 1000, 2)
figures["teardown_s"] = round(time.monotonic() - started, 2)
figures["topics"] = a.topics
figures["subscriptions"] = a.subscriptions
for key, value in figures.items():
    print(f"{key}: {value}")
print(json.dumps(figures))
