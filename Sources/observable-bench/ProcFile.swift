import Glibc

/// Reads files under /proc, whose reported size is 0, so they are read until end of file.
enum ProcFile {
  static func read(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var contents: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      contents.append(contentsOf: chunk[..<count])
    }
    return String(decoding: contents, as: UTF8.self)
  }
}
