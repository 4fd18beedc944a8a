#!/usr/bin/env python3
"""Independent raw-deflate peer (Python's zlib) for the interoperability tests.

Framing on stdin and stdout: each frame is a 4-byte big-endian length, then that many bytes.
All of stdin is read before anything is written, so a caller that writes everything first
and reads afterwards cannot deadlock on full pipes.

  deflate_peer.py inflate  each input frame is the compressed bytes of one message, ending
                           in a sync flush; the output frame is what that frame alone
                           decompressed to, proving every flush was decodable on its own.
  deflate_peer.py deflate  each input frame is one plaintext message; the output frame is
                           its compression with a sync flush, from one stream for all frames.
"""

import struct
import sys
import zlib


def read_frames(data):
    frames = []
    offset = 0
    while offset < len(data):
        if offset + 4 > len(data):
            raise ValueError("truncated frame header")
        (length,) = struct.unpack_from(">I", data, offset)
        offset += 4
        if offset + length > len(data):
            raise ValueError("truncated frame body")
        frames.append(data[offset:offset + length])
        offset += length
    return frames


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("inflate", "deflate"):
        sys.stderr.write("usage: deflate_peer.py inflate|deflate\n")
        return 2
    frames = read_frames(sys.stdin.buffer.read())
    out = []
    if sys.argv[1] == "inflate":
        stream = zlib.decompressobj(wbits=-15)
        for frame in frames:
            out.append(stream.decompress(frame))
        if stream.unconsumed_tail or stream.unused_data:
            sys.stderr.write("input left over after decompression\n")
            return 1
    else:
        stream = zlib.compressobj(level=6, method=zlib.DEFLATED, wbits=-15)
        for frame in frames:
            out.append(stream.compress(frame) + stream.flush(zlib.Z_SYNC_FLUSH))
    for frame in out:
        sys.stdout.buffer.write(struct.pack(">I", len(frame)))
        sys.stdout.buffer.write(frame)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
