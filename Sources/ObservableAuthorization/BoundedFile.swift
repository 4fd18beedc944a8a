#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A configuration file's bytes, read with `open` and `read` (no Foundation) up to a limit, so
/// that a path to a huge file or to `/dev/zero` cannot take the server's memory.
package enum BoundedFile {
  /// The whole file at `path`, or `nil` when it cannot be read or holds more than `limit` bytes.
  package static func contents(of path: String, limit: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while bytes.count <= limit {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return bytes }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      bytes.append(contentsOf: chunk[..<count])
    }
    return nil
  }
}
