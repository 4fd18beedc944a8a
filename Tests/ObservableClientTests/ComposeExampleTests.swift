import Foundation
import Glibc
import TestSupport
import Testing

/// The example in the comment of `Docker/compose.cluster.yaml`, run as printed against a real
/// server process (one node: the shorthand is the same with or without a cluster).
@Suite("Docker/compose.cluster.yaml's example", .timeLimit(.minutes(1)))
struct ComposeExampleTests {
  /// The `printf '…' | nc …` lines of the file's leading comment.
  static func exampleLines() throws -> [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(
      contentsOf: root.appendingPathComponent("Docker/compose.cluster.yaml"), encoding: .utf8)
    return text.split(separator: "\n").map(String.init)
      .filter { $0.hasPrefix("#") && $0.contains("printf '") && $0.contains("| nc") }
  }

  @Test("the publishing line retains {\"t\":21} on room.1, and its nc ends with stdin (-N)")
  func publishRetains() async throws {
    let lines = try Self.exampleLines()
    let publisher = try #require(lines.first { !$0.hasSuffix("&") })
    // Without -N, OpenBSD nc keeps the connection open after printf ends, and never exits.
    #expect(publisher.contains("nc -N "))
    let quoted = try #require(
      publisher.split(separator: "'", omittingEmptySubsequences: false).dropFirst().first)
    let request = quoted.replacingOccurrences(of: #"\n"#, with: "\n")
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port)
    let replies = try Self.exchange(request, port: port)
    #expect(replies.contains(#""ok":true"#), "\(replies)")
    // A subscriber from now on gets the retained value first.
    let sub = try CommandRun(["sub", "room.1", "--count", "1"], port: port)
    #expect(sub.lines == [#"room.1 {"t":21}"#])
    _ = server
  }

  /// What `printf request | nc -N 127.0.0.1 port` prints: sends `request`, ends the sending
  /// side, and reads until the server closes, up to 5 s.
  static func exchange(_ request: String, port: UInt16) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let bytes = Array(request.utf8)
    guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
      throw POSIXError(.EPIPE)
    }
    shutdown(fd, Int32(SHUT_WR))
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(fd, &buffer, buffer.count)
      guard count > 0 else { break }
      received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
  }
}
