#!/usr/bin/env python3
"""Opens the server's live page in headless Chromium and checks what it shows.

    live_page_check.py --url http://127.0.0.1:PORT/ --subscribe clock --subscribe 'room.*' \
        --publish room.1 --expect-stream clock --expect-stream room.1 --screenshot page.png

Needs only the server's URL: the page is loaded from it, preset through its URL fragment
(#token=...&subscribe=...), and, with --publish TOPIC, values are published to TOPIC over the
server's own /ws (Python's websockets package) while the page watches. The DOM is read through
the DevTools protocol in real time until every expectation holds or --timeout passes.
Prints a JSON summary of what the page showed; exits 0 when every expectation held, 1 when
not, 2 when the browser could not be driven. Chromium and its helpers are always killed
before exiting.
"""
import argparse
import asyncio
import base64
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

from websockets.asyncio.client import connect
from websockets.sync.client import connect as connect_sync

BROWSERS = ["chromium-headless-shell", "chromium", "google-chrome"]
STATE = """JSON.stringify({
  ready: document.documentElement.dataset.ready === "1",
  status: document.getElementById("status").dataset.state,
  error: document.getElementById("error").dataset.code || null,
  streams: Object.fromEntries([...document.querySelectorAll("#streams tr[data-stream-row]")]
    .map((row) => [row.dataset.streamRow, Number(row.dataset.subscribers)])),
  values: [...document.querySelectorAll("#subscriptions li[data-stream]")].reduce((counts, li) =>
    (counts[li.dataset.stream] = (counts[li.dataset.stream] || 0) + 1, counts), {}),
  lastValues: Object.fromEntries([...document.querySelectorAll("#subscriptions li[data-stream]")]
    .reverse().map((li) => [li.dataset.stream, li.dataset.value])),
  figures: Object.fromEntries([...document.querySelectorAll("[data-figure]")]
    .map((el) => [el.dataset.figure, el.dataset.value === undefined ? null : Number(el.dataset.value)])),
  stats: [...document.querySelectorAll("#all-figures tr[data-stat]")].map((row) => row.dataset.stat),
  charts: Object.fromEntries([...document.querySelectorAll("canvas[data-chart]")]
    .map((el) => [el.dataset.chart, Number(el.dataset.points || 0)])),
  viaPattern: Object.fromEntries([...document.querySelectorAll("#streams tr[data-via-pattern]")]
    .map((row) => [row.dataset.streamRow, row.dataset.viaPattern])),
  inspector: (() => {
    const panel = document.getElementById("inspector"), retained = document.getElementById("inspect-retained");
    return panel.hidden ? null : { stream: panel.dataset.stream, retained: retained.dataset.state,
      value: retained.dataset.state === "value" ? retained.textContent : null,
      history: [...document.querySelectorAll("#inspect-history li")].map((li) => li.dataset.pos),
      outcome: document.getElementById("inspect-result").dataset.outcome || null,
      clearDisabled: document.getElementById("inspect-clear").disabled };
  })(),
})"""
# Clicks a button the page shows, when it is there; answers whether it was.
CLICK = """(() => { const el = document.querySelector(%s); if (!el || el.disabled) return false;
  el.click(); return true; })()"""


class DevTools:
    """One page's DevTools session: numbered commands, events kept for inspection."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0
        self.exceptions = []

    def call(self, method, timeout=10, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message.get("method") == "Runtime.exceptionThrown":
                self.exceptions.append(message["params"]["exceptionDetails"].get("text", "?"))
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})


def start_browser(profile, width, height, trust_any_certificate=False):
    browser = next((shutil.which(name) for name in BROWSERS if shutil.which(name)), None)
    if not browser:
        sys.exit(2)
    process = subprocess.Popen(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={profile}", "--remote-debugging-port=0",
         f"--window-size={width},{height}"]
        # A test authority the browser does not know: https pages and wss sockets load anyway.
        + (["--ignore-certificate-errors"] if trust_any_certificate else []) + ["about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        # Debian's chromium commands are shell scripts that run the browser as a child, and the
        # browser starts helpers of its own: a session of their own lets stop() end them all.
        start_new_session=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        found = re.search(r"DevTools listening on ws://([^/]+)/", line)
        if found:
            threading.Thread(target=process.stderr.read, daemon=True).start()  # keep it drained
            return process, found.group(1)
        if not line and process.poll() is not None:
            break
    stop_browser(process)
    sys.exit(2)


def stop_browser(process):
    """Kills the browser's whole process group and reaps the process started."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def page_socket(address):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"http://{address}/json/list", timeout=5) as response:
            pages = [t for t in json.load(response) if t.get("type") == "page"]
        if pages:
            return pages[0]["webSocketDebuggerUrl"]
        time.sleep(0.1)
    raise RuntimeError("no page target")


def publisher(url, token, topic, stop, sent, failures, ca=None):
    """Publishes {"n": i} to topic over /ws every 200 ms until stop is set; a failure is kept
    in failures for the summary.

    The asyncio client, not the sync one: the sync client reads in a thread of its own while
    the caller writes, and over TLS 1.3 a write racing the read of the server's session
    tickets is lost now and then (the request never leaves), with any OpenSSL server."""
    try:
        asyncio.run(publish(url, token, topic, stop, sent, ca))
    except Exception as error:  # reported in the summary, so that a failed check says why
        failures.append(repr(error))


async def publish(url, token, topic, stop, sent, ca):
    parts = urllib.parse.urlsplit(url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    secure = {"ssl": ssl.create_default_context(cafile=ca)} if scheme == "wss" else {}
    async with connect(f"{scheme}://{parts.netloc}/ws", open_timeout=10, **secure) as socket:
        await asyncio.wait_for(socket.recv(), 10)  # the greeting
        if token:
            await socket.send(json.dumps({"op": "auth", "token": token}))
        index = 0
        while not stop.is_set():
            await socket.send(json.dumps({"op": "publish", "stream": topic, "value": {"n": index}}))
            sent.append(index)
            index += 1
            await asyncio.sleep(0.2)


def satisfied(state, options):
    # A refused token closes the connection (1008), as over TCP: the error shows whatever the
    # page's connection state.
    if options.expect_error:
        return bool(state.get("ready")) and state.get("error") == options.expect_error
    if not state.get("ready") or state.get("status") != "open":
        return False
    if state.get("error"):
        return False
    enough = all(state["values"].get(name, 0) >= options.min_values for name in options.expect_stream)
    figures = not options.expect_figures or all(v is not None for v in state["figures"].values())
    stats = all(key in state["stats"] for key in options.expect_stat)
    charts = all(points >= options.expect_chart_points for points in state["charts"].values())
    via = all(name in state["viaPattern"] for name in options.expect_via_pattern)
    return enough and figures and stats and charts and via and inspected(state, options)


def inspected(state, options):
    """Whether the topic inspector shows what the options expect (true when none is asked)."""
    if not options.inspect:
        return True
    inspector = state.get("inspector") or {}
    if inspector.get("stream") != options.inspect or inspector.get("retained") == "loading":
        return False
    if options.expect_clear:
        return inspector.get("outcome") == options.expect_clear
    if options.expect_retained is not None:
        shown = inspector.get("value")
        return shown is not None and json.loads(shown) == json.loads(options.expect_retained)
    return inspector.get("retained") == "none"


def act(tools, state, options):
    """Clicks what the options ask for once the page shows it: Inspect, then Clear."""
    if not options.inspect or not state.get("ready"):
        return
    inspector = state.get("inspector") or {}
    if inspector.get("stream") != options.inspect:
        selector = json.dumps(f'[data-inspect="{options.inspect}"]')
        tools.call("Runtime.evaluate", expression=CLICK % selector, returnByValue=True)
    elif options.expect_clear and inspector.get("retained") == "value" and not inspector.get("outcome"):
        tools.call("Runtime.evaluate", expression=CLICK % json.dumps("#inspect-clear"),
                   returnByValue=True)


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--url", required=True)
    arguments.add_argument("--token")
    arguments.add_argument("--user", help="the file user the token belongs to")
    arguments.add_argument("--subscribe", action="append", default=[])
    arguments.add_argument("--publish")
    arguments.add_argument("--ca", help="the authority of an https server's certificate")
    arguments.add_argument("--expect-stream", action="append", default=[])
    arguments.add_argument("--min-values", type=int, default=2)
    arguments.add_argument("--expect-figures", action="store_true")
    arguments.add_argument("--expect-error")
    arguments.add_argument("--expect-stat", action="append", default=[],
                           help="a stats figure the 'Every figure' table must list")
    arguments.add_argument("--expect-chart-points", type=int, default=0)
    arguments.add_argument("--expect-via-pattern", action="append", default=[],
                           help="a topic the streams table shows as reached only by a pattern")
    arguments.add_argument("--inspect", help="a topic to open in the inspector")
    arguments.add_argument("--expect-retained", help="the JSON the inspector shows as retained")
    arguments.add_argument("--expect-clear",
                           help="click Clear and expect this outcome: cleared, nothing, forbidden")
    arguments.add_argument("--screenshot")
    arguments.add_argument("--width", type=int, default=1200)
    arguments.add_argument("--height", type=int, default=900)
    arguments.add_argument("--timeout", type=float, default=20)
    options = arguments.parse_args()

    fragment = urllib.parse.urlencode(
        ([("user", options.user)] if options.user else [])
        + ([("token", options.token)] if options.token else [])
        + [("subscribe", name) for name in options.subscribe])
    profile = tempfile.mkdtemp(prefix="live-page-")
    process, address = start_browser(
        profile, options.width, options.height, trust_any_certificate=options.ca is not None)
    stop, sent, failures = threading.Event(), [], []
    try:
        with connect_sync(page_socket(address), max_size=None, open_timeout=10) as socket:
            return drive(DevTools(socket), options, fragment, stop, sent, failures)
    finally:
        stop.set()
        stop_browser(process)
        shutil.rmtree(profile, ignore_errors=True)


def drive(tools, options, fragment, stop, sent, failures):
    """Loads the page, publishes if asked, and waits for the expectations; returns the exit."""
    state = {}
    tools.call("Runtime.enable")
    tools.call("Page.enable")
    tools.call("Emulation.setDeviceMetricsOverride", width=options.width,
               height=options.height, deviceScaleFactor=1, mobile=options.width < 600)
    tools.call("Page.navigate", url=options.url.split("#")[0] + "#" + fragment)
    if options.publish:
        threading.Thread(target=publisher, daemon=True,
                         args=(options.url, options.token, options.publish, stop, sent,
                               failures, options.ca)).start()
    deadline = time.monotonic() + options.timeout
    while time.monotonic() < deadline:
        result = tools.call("Runtime.evaluate", expression=STATE, returnByValue=True)
        value = result.get("result", {}).get("value")
        state = json.loads(value) if isinstance(value, str) else {}
        if satisfied(state, options):
            break
        act(tools, state, options)
        time.sleep(0.2)
    ok = satisfied(state, options) and not tools.exceptions
    if options.screenshot:
        shot = tools.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        with open(options.screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
    print(json.dumps({"ok": ok, "state": state, "published": len(sent),
                      "publisher_failures": failures, "exceptions": tools.exceptions}))
    return 0 if ok else 1


if __name__ == "__main__":  # event_source_check.py imports its browser functions
    sys.exit(main())
