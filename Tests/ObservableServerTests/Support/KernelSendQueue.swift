import Glibc

/// What the kernel holds unsent or unacknowledged in the server's own TCP sockets, read from
/// `/proc/net/tcp` and `/proc/net/tcp6`: the bytes a client that reads nothing has not taken,
/// outside every bound the server counts.
enum KernelSendQueue {
  /// The most bytes queued in one established socket whose local port is `port`: on the
  /// loopback interface, the server's side of each of its connections.
  static func largest(onPort port: UInt16) -> Int {
    ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { path -> [Int] in
      guard let table = wholeFile(path) else { return [] }
      return table.split(separator: "\n").dropFirst().compactMap { row in
        // sl local_address rem_address st tx_queue:rx_queue …, in hexadecimal.
        let fields = row.split(separator: " ")
        guard fields.count > 4, fields[3] == "01",
          let local = fields[1].split(separator: ":").last, UInt16(local, radix: 16) == port,
          let queued = fields[4].split(separator: ":").first
        else { return nil }
        return Int(queued, radix: 16)
      }
    }.max() ?? 0
  }

  /// The text of `path`, read to its end: Foundation reads a file of `/proc`, which reports
  /// no size, only up to its first page, where the server's sockets may not be.
  private static func wholeFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var text: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(fd, &chunk, chunk.count)
      guard count > 0 else { return count == 0 ? String(decoding: text, as: UTF8.self) : nil }
      text += chunk[..<count]
    }
  }
}
