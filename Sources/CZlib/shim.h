#ifndef OBSERVABLE_CZLIB_SHIM_H
#define OBSERVABLE_CZLIB_SHIM_H

// ZLIB_CONST makes z_stream.next_in a pointer to const, so Swift can point zlib at
// read-only input buffers without casting away immutability.
#define ZLIB_CONST
#include <zlib.h>

// deflateInit2 and inflateInit2 are function-like macros that Swift cannot import; these
// wrappers pass zlib's version and z_stream size exactly as the macros do, so the library
// can still detect a header/library mismatch.

/// Starts a raw deflate stream (negative window bits: no zlib header or trailer).
static inline int observable_deflate_init_raw(z_streamp stream, int level, int window_bits,
                                              int mem_level) {
  return deflateInit2(stream, level, Z_DEFLATED, window_bits, mem_level, Z_DEFAULT_STRATEGY);
}

/// Starts a raw inflate stream (negative window bits: no zlib header or trailer).
static inline int observable_inflate_init_raw(z_streamp stream, int window_bits) {
  return inflateInit2(stream, window_bits);
}

#endif
