import Glibc
import ObservablePOSIX

/// A client-side liveness probe: connect, read the greeting, send `ping`, read the answer.
public enum HealthCheck {
  /// Why a probe failed.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Succeeds when a server at `address` greets and answers `ping` within `timeout`. An
  /// `unauthorized` answer counts: the server is alive even if it wants a token first.
  public static func ping(_ address: ListenAddress, timeout: Duration) throws {
    let resolved = try SocketAddress(address)
    let fd = socket(resolved.family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SystemError(call: "socket", code: errno) }
    defer { close(fd) }
    var limit = timeval(
      tv_sec: Int(timeout.components.seconds),
      tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    _ = try resolved.withSockaddr { pointer, length throws(SystemError) in
      try blockingSyscall("connect") { connect(fd, pointer, length) }
    }
    var received: [UInt8] = []
    let greeting = try readLine(fd, &received)
    guard greeting.contains(#""hello":"observable-server""#) else {
      throw Failure(description: "unexpected greeting: \(greeting.prefix(200))")
    }
    let request = Array(#"{"op":"ping","id":"health-check"}"#.utf8) + [0x0A]
    _ = try request.withUnsafeBytes { bytes throws(SystemError) in
      try blockingSyscall("send") { send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }
    let answer = try readLine(fd, &received)
    guard answer.contains(#""op":"ping""#) else {
      throw Failure(description: "unexpected answer: \(answer.prefix(200))")
    }
  }

  private static func readLine(_ fd: Int32, _ received: inout [UInt8]) throws -> String {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      if let newline = received.firstIndex(of: 0x0A) {
        let line = String(decoding: received[..<newline], as: UTF8.self)
        received.removeSubrange(...newline)
        return line
      }
      guard received.count < 1 << 20 else { throw Failure(description: "line too long") }
      let count = try blockingSyscall("recv") { recv(fd, &chunk, chunk.count, 0) }
      guard count > 0 else { throw Failure(description: "connection closed before an answer") }
      received.append(contentsOf: chunk[..<count])
    }
  }
}
