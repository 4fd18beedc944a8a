import Glibc

/// Finding one byte in raw memory with `memchr`, which scans many bytes per step, for the
/// layers above that import no Glibc (the line framer looks for every `\n` with it).
package enum ByteSearch {
  /// The address of the first `byte` in the `count` bytes at `start`, or nil.
  @inlinable @inline(__always)
  package static func first(_ byte: UInt8, in start: UnsafeRawPointer, count: Int)
    -> UnsafeRawPointer?
  {
    memchr(start, Int32(byte), count).map { UnsafeRawPointer($0) }
  }
}
