#!/usr/bin/env python3
"""Independent permessage-deflate peer (RFC 7692 with Python's zlib) for the tests.

Framing on stdin and stdout: each frame is a 4-byte big-endian length, then that many bytes.
All of stdin is read before anything is written, so the caller cannot deadlock on pipes.

  message_deflate_peer.py inflate BITS TAKEOVER  each input frame is one message's payload
      as sent (the sync flush's 00 00 ff ff removed); the output frame is the message.
  message_deflate_peer.py deflate BITS TAKEOVER  each input frame is one message; the output
      frame is its payload as a sender puts it on the wire.

BITS is the window (8-15); TAKEOVER is 1 to keep one stream for all messages, 0 for a new
stream per message.
"""

import struct
import sys
import zlib

TAIL = b"\x00\x00\xff\xff"


def read_frames(data):
    frames, offset = [], 0
    while offset < len(data):
        (length,) = struct.unpack_from(">I", data, offset)
        frames.append(data[offset + 4:offset + 4 + length])
        offset += 4 + length
    return frames


def main():
    mode, bits, takeover = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
    frames = read_frames(sys.stdin.buffer.read())
    out = []
    if mode == "inflate":
        stream = zlib.decompressobj(wbits=-bits)
        for frame in frames:
            if not takeover:
                stream = zlib.decompressobj(wbits=-bits)
            out.append(stream.decompress(frame + TAIL))
    elif mode == "deflate":
        # zlib refuses a raw deflate window of 8 bits, as RFC 7692 implementations know.
        make = lambda: zlib.compressobj(6, zlib.DEFLATED, -max(bits, 9))
        stream = make()
        for frame in frames:
            if not takeover:
                stream = make()
            data = stream.compress(frame) + stream.flush(zlib.Z_SYNC_FLUSH)
            if not data.endswith(TAIL):
                raise ValueError("sync flush did not end in 00 00 ff ff")
            out.append(data[:-4])
    else:
        sys.stderr.write("usage: message_deflate_peer.py inflate|deflate BITS TAKEOVER\n")
        return 2
    for frame in out:
        sys.stdout.buffer.write(struct.pack(">I", len(frame)) + frame)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
