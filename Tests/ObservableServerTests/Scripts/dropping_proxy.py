"""A loopback TCP proxy that a test tells to drop every connection it carries, as a network
failure would, for clients that must reconnect by themselves (a browser's EventSource).

    proxy = DroppingProxy(upstream_port)   # listens on proxy.port, forwards to upstream_port
    proxy.drop(hold=0.5)                    # resets every connection; new ones wait 0.5 s
    proxy.requests                          # the first bytes each connection sent, in order
    proxy.close()

One thread moves the bytes both ways with a selector. A dropped connection is reset on the
client's side (SO_LINGER 0, so the client sees a failure, not an end of stream) and closed
towards the server, which then runs its disconnects as for any vanished peer. After a drop,
connections accepted within `hold` seconds reach the server only once the hold has passed, so
that what is published meanwhile is missed by the client and must come back by its resume.
"""
import selectors
import socket
import struct
import threading
import time


class DroppingProxy:
    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.setblocking(False)
        self.port = self.listener.getsockname()[1]
        self.requests = []
        self.drops = 0
        self._seen = set()  # client sockets whose first bytes are in `requests`
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.listener, selectors.EVENT_READ, None)
        self._peers = {}  # socket -> the socket its bytes go to
        self._waiting = []  # (client, when to connect it upstream)
        self._hold_until = 0.0
        self._drop_requested = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def drop(self, hold=0.5):
        """Resets every connection now; connections made in the next `hold` s wait that long."""
        with self._lock:
            self._drop_requested = hold

    def close(self):
        self._stop.set()
        self._thread.join(timeout=5)
        for sock in list(self._peers) + [client for client, _ in self._waiting] + [self.listener]:
            sock.close()

    def _run(self):
        while not self._stop.is_set():
            with self._lock:
                hold, self._drop_requested = self._drop_requested, None
            if hold is not None:
                self._reset_all(hold)
            now = time.monotonic()
            for client, when in [entry for entry in self._waiting if entry[1] <= now]:
                self._waiting.remove((client, when))
                self._connect_upstream(client)
            for key, _ in self._selector.select(timeout=0.02):
                if key.fileobj is self.listener:
                    self._accept()
                elif key.fileobj in self._peers:
                    self._forward(key.fileobj, key.data)

    def _accept(self):
        try:
            client, _ = self.listener.accept()
        except BlockingIOError:
            return
        self._waiting.append((client, max(time.monotonic(), self._hold_until)))

    def _connect_upstream(self, client):
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=5)
        for sock in (client, upstream):
            sock.setblocking(False)
        self._peers[client], self._peers[upstream] = upstream, client
        self._selector.register(client, selectors.EVENT_READ, True)
        self._selector.register(upstream, selectors.EVENT_READ, False)

    def _forward(self, source, from_client):
        target = self._peers[source]
        try:
            data = source.recv(1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._close_pair(source, reset=False)
            return
        if from_client and source not in self._seen:
            self._seen.add(source)
            self.requests.append(data)
        target.setblocking(True)  # small test traffic: a blocking send is simplest and short
        try:
            target.sendall(data)
        except OSError:
            self._close_pair(source, reset=False)
            return
        target.setblocking(False)

    def _reset_all(self, hold):
        self.drops += 1
        self._hold_until = time.monotonic() + hold
        clients = [key.fileobj for key in self._selector.get_map().values() if key.data]
        for client in clients:
            self._close_pair(client, reset=True)

    def _close_pair(self, sock, reset):
        other = self._peers.pop(sock, None)
        if other is not None:
            self._peers.pop(other, None)
        if reset:
            # Linger 0: close sends a reset, as a broken network path looks to the client.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        for each in (sock, other):
            if each is not None:
                self._selector.unregister(each)
                self._seen.discard(each)
                each.close()
