#!/usr/bin/env python3
"""A client of observable-server over TLS, with Python's ssl module (OpenSSL underneath, but
its own handshake driver and defaults): an independent peer for the server's TLS listeners.

    tls_peer.py --port P --ca ca.pem SCENARIO

Scenarios, each printing one JSON object on stdout:
  exchange   subscribe to a topic, publish to it, read the delivery: {"greeting", "value",
             "serial", "version"}
  compress   the same after `compress`, both directions raw deflate inside TLS:
             {"compressed": true, "value"}
  serial     the handshake only: {"serial"} of the server's certificate
  old        offer TLS 1.0 and 1.1 only: {"error"} with the ssl module's reason
Exit status 0 when the scenario ran (an expected refusal included), 1 otherwise.
"""

import argparse
import json
import socket
import ssl
import sys
import zlib


def connect(args, context):
    raw = socket.create_connection(("127.0.0.1", args.port), timeout=args.timeout)
    return context.wrap_socket(raw, server_hostname="localhost")


def context_for(args):
    context = ssl.create_default_context(cafile=args.ca)
    if args.cert:
        context.load_cert_chain(args.cert, args.key)
    return context


class Lines:
    """Reads lines from a TLS socket, inflating after `compress` when asked."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""
        self.inflater = None

    def line(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection")
            self.buffer += self.inflater.decompress(chunk) if self.inflater else chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def until(self, predicate):
        while True:
            line = self.line()
            if predicate(line):
                return line


def serial_of(sock):
    return sock.getpeercert().get("serialNumber", "")


def exchange(args, compress):
    sock = connect(args, context_for(args))
    lines = Lines(sock)
    greeting = lines.line()
    send = sock.sendall
    if compress:
        sock.sendall(b'{"op":"compress","algorithm":"deflate","id":1}\n')
        reply = lines.until(lambda line: line.get("id") == 1)
        if not reply.get("ok"):
            raise RuntimeError(f"compress refused: {reply}")
        deflater = zlib.compressobj(1, zlib.DEFLATED, -15)
        # What arrived after the reply, in the same read, is deflate already.
        lines.inflater = zlib.decompressobj(-15)
        lines.buffer = lines.inflater.decompress(lines.buffer)

        def send(data):
            sock.sendall(deflater.compress(data) + deflater.flush(zlib.Z_SYNC_FLUSH))

    send(b'{"op":"subscribe","stream":"tls.room","id":2}\n')
    lines.until(lambda line: line.get("id") == 2)
    send(b'{"op":"publish","stream":"tls.room","value":{"over":"tls"},"id":3}\n')
    delivery = lines.until(lambda line: line.get("stream") == "tls.room" and "value" in line)
    result = {
        "greeting": greeting,
        "value": delivery["value"],
        "serial": serial_of(sock),
        "version": sock.version(),
        "compressed": compress,
    }
    sock.close()
    return result


def old_versions(args):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(args.ca)
    # TLS 1.0 and 1.1 need OpenSSL's security level 0 to be offered at all.
    context.set_ciphers("DEFAULT:@SECLEVEL=0")
    context.minimum_version = ssl.TLSVersion.TLSv1
    context.maximum_version = ssl.TLSVersion.TLSv1_1
    try:
        connect(args, context).close()
    except (ssl.SSLError, OSError) as error:
        return {"error": str(error)}
    return {"error": None}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("scenario", choices=["exchange", "compress", "serial", "old"])
    args = parser.parse_args()
    if args.scenario == "exchange":
        result = exchange(args, compress=False)
    elif args.scenario == "compress":
        result = exchange(args, compress=True)
    elif args.scenario == "serial":
        sock = connect(args, context_for(args))
        result = {"serial": serial_of(sock)}
        sock.close()
    else:
        result = old_versions(args)
    print(json.dumps(result))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the test reads why from stderr
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
