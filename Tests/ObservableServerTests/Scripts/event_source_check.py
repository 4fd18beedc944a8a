#!/usr/bin/env python3
"""Opens an EventSource on the server's /sse in headless Chromium and checks the values arrive.

    event_source_check.py --url http://127.0.0.1:HTTP_PORT --line-port TCP_PORT --stream news \
        [--drop-after 5 --hold 0.5]

The page is the server's own /healthz (same origin as /sse, so no CORS is involved). While
the page's EventSource listens for events named after the stream, values {"n": i} are
published to it over the line protocol every 100 ms. Prints a JSON summary; exits 0 when
--count values arrived in order as delivery lines, 1 when not, 2 when the browser could not
be driven. Chromium and its helpers are always killed before exiting.

With --drop-after N the browser reaches the server through a proxy (dropping_proxy.py) that
resets the connection once the page has N values and holds the browser's reconnect for --hold
seconds while values go on being published. The check then also asks that the browser
reconnected by itself, sent the last id it saw as Last-Event-ID, and still saw every value
once, in order: the server must have resumed from that id (it needs --history).
"""
import argparse
import json
import re
import shutil
import socket
import sys
import tempfile
import threading
import time
import urllib.parse

from websockets.sync.client import connect

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the import below
from live_page_check import page_socket, start_browser, stop_browser  # noqa: E402
from dropping_proxy import DroppingProxy  # noqa: E402

LISTEN = """window.received = []; window.ids = []; window.opened = 0; window.failures = 0;
const source = new EventSource("/sse?stream=" + encodeURIComponent(%s));
source.onopen = () => { window.opened += 1; };
source.onerror = () => { window.failures += 1; };
source.addEventListener(%s, (event) => {
  window.received.push(event.data); window.ids.push(event.lastEventId); });
"started" """
STATE = """JSON.stringify({opened: window.opened, failures: window.failures,
  received: window.received, ids: window.ids})"""


def evaluate(devtools, expression, counter=[0]):
    counter[0] += 1
    devtools.send(json.dumps({"id": counter[0], "method": "Runtime.evaluate",
                              "params": {"expression": expression, "returnByValue": True}}))
    while True:
        message = json.loads(devtools.recv(timeout=10))
        if message.get("id") == counter[0]:
            return message.get("result", {}).get("result", {}).get("value")


def navigate(devtools, url):
    devtools.send(json.dumps({"id": 0, "method": "Page.navigate", "params": {"url": url}}))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if evaluate(devtools, "document.readyState") == "complete" and \
                evaluate(devtools, "location.href") == url:
            return
        time.sleep(0.05)
    raise RuntimeError("the page did not load")


def publisher(port, stream, stop):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as line:
        index = 0
        while not stop.is_set():
            line.sendall((json.dumps({"op": "publish", "stream": stream,
                                      "value": {"n": index}}) + "\n").encode())
            index += 1
            stop.wait(0.1)


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--url", required=True)
    arguments.add_argument("--line-port", type=int, required=True)
    arguments.add_argument("--stream", required=True)
    arguments.add_argument("--count", type=int, default=5)
    arguments.add_argument("--timeout", type=float, default=20)
    arguments.add_argument("--drop-after", type=int, default=0)
    arguments.add_argument("--hold", type=float, default=0.5)
    options = arguments.parse_args()
    proxy = None
    url = options.url
    if options.drop_after:
        proxy = DroppingProxy(urllib.parse.urlsplit(options.url).port)
        url = f"http://127.0.0.1:{proxy.port}"
    profile = tempfile.mkdtemp(prefix="event-source-")
    process, address = start_browser(profile, 800, 600)
    stop = threading.Event()
    state = {}
    try:
        with connect(page_socket(address), max_size=None, open_timeout=10) as devtools:
            navigate(devtools, url + "/healthz")
            name = json.dumps(options.stream)
            evaluate(devtools, LISTEN % (name, name))
            threading.Thread(target=publisher, daemon=True,
                             args=(options.line_port, options.stream, stop)).start()
            deadline = time.monotonic() + options.timeout
            while time.monotonic() < deadline:
                state = json.loads(evaluate(devtools, STATE))
                if proxy and not proxy.drops and len(state["received"]) >= options.drop_after:
                    proxy.drop(hold=options.hold)
                elif len(state["received"]) >= options.count and (not proxy or proxy.drops):
                    break
                time.sleep(0.1)
    finally:
        stop.set()
        stop_browser(process)
        shutil.rmtree(profile, ignore_errors=True)
        if proxy:
            proxy.close()
    lines = [json.loads(data) for data in state.get("received", [])]
    numbers = [line.get("value", {}).get("n") for line in lines]
    ok = (state.get("opened", 0) >= 1 and len(lines) >= options.count
          and all(line.get("stream") == options.stream for line in lines)
          and numbers == list(range(numbers[0], numbers[0] + len(numbers))))
    summary = {"ok": ok, "state": state}
    if proxy:
        resumed_from = [found.group(1) for request in proxy.requests
                        if (found := re.search(rb"(?im)^Last-Event-ID: *([^\r\n]+)", request))]
        summary["resumedFrom"] = [value.decode() for value in resumed_from]
        summary["ok"] = ok = (ok and proxy.drops == 1 and state["opened"] >= 2
                              and len(resumed_from) >= 1
                              and resumed_from[0].decode() in state["ids"]
                              and state["ids"][-1] != resumed_from[0].decode())
    print(json.dumps(summary))
    return 0 if ok else 1


sys.exit(main())
