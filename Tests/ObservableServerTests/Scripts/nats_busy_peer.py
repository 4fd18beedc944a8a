"""A NATS server that is busy, not dead, for one node's link: it completes the handshake,
then for BUSY seconds sends a stream of MSG frames and holds every PONG, as a real server's
PONG waits behind the deliveries it queued first; then it goes silent (nothing sent, nothing
answered), as a stopped server does. Each connection and each phase is a line on stdout:
`connection N`, `busy over pings=K connections=N`. Loopback only; ends after DURATION."""

import argparse
import socket
import sys
import threading
import time

INFO = (
    b'INFO {"server_id":"busy-peer","server_name":"busy-peer","version":"2.10.0",'
    b'"proto":1,"max_payload":1048576,"headers":true,"jetstream":false}\r\n'
)
# A message for a sid the node never made: it is read and parsed, then dropped.
MESSAGE = b"MSG obs.busy 999999 16\r\n0123456789abcdef\r\n"


def say(line):
    print(line, flush=True)


def serve(connection, number, busy, state):
    connection.sendall(INFO)
    buffered = b""
    # The handshake: CONNECT, SUBs, then the PING that the first PONG answers.
    while b"PING\r\n" not in buffered:
        chunk = connection.recv(65536)
        if not chunk:
            return
        buffered += chunk
    connection.sendall(b"PONG\r\n")
    say(f"connection {number}")
    connection.setblocking(False)
    pings = 0
    until = time.monotonic() + busy
    while time.monotonic() < until:
        try:
            chunk = connection.recv(65536)
            if not chunk:
                return
            pings += chunk.count(b"PING\r\n")
        except BlockingIOError:
            pass
        try:
            connection.send(MESSAGE * 64)
        except BlockingIOError:
            pass
        time.sleep(0.01)
    with state["lock"]:
        say(f"busy over pings={pings} connections={state['connections']}")
    # Silent from here: the node must find this connection dead by its pings.


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--busy", type=float, required=True)
    parser.add_argument("--duration", type=float, default=60)
    options = parser.parse_args()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    say(f"port {listener.getsockname()[1]}")
    state = {"lock": threading.Lock(), "connections": 0}
    held = []
    end = time.monotonic() + options.duration
    while time.monotonic() < end:
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            continue
        held.append(connection)
        with state["lock"]:
            state["connections"] += 1
            number = state["connections"]
        # Only the first connection is busy; a later one is answered at once, then silent.
        busy = options.busy if number == 1 else 0
        threading.Thread(
            target=serve, args=(connection, number, busy, state), daemon=True
        ).start()
    sys.exit(0)


if __name__ == "__main__":
    main()
