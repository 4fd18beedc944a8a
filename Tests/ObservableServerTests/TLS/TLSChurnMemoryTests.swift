import Foundation
import Glibc
import TLS
import TestSupport
import Testing

/// A TLS server sees handshakes come and go, finished or failed: its memory must depend on the
/// connections open now, not on those it has served. A leaked `SSL` and its buffers would be
/// some 20 KB a connection.
@Suite("Memory under TLS connection churn", .serialized, .timeLimit(.minutes(3)))
struct TLSChurnMemoryTests {
  @Test func tlsConnectionsThatCloseLeaveNoMemoryBehind() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "tls://127.0.0.1:\(port)", "--tls-cert", certificates.path("server.pem"),
      "--tls-key", certificates.path("server.key"), "--log-level", "error",
    ])
    let context = try TLSLineClient.context(certificates)
    _ = eventually { (try? TLSLineClient(port: port, context: context)) != nil }
    try Self.churn(port: port, context: context, connections: 600)
    let warmed = try #require(server.residentBytes)
    try Self.churn(port: port, context: context, connections: 1_800)
    let after = try #require(server.residentBytes)
    // 1,800 connections, a third of them failed handshakes: leaking a session's 20 KB each
    // would add 24 MB, leaking even 1 KB each 1.2 MB more than the bound allows for noise.
    #expect(after - warmed < 3 << 20, "RSS \(warmed) → \(after) bytes")
  }

  /// Opens `connections` clients, 100 at a time: two in three finish the handshake, subscribe
  /// and close (by FIN or RST), one in three sends plain text and is refused.
  private static func churn(port: UInt16, context: TLSContext, connections: Int) throws {
    for start in stride(from: 0, to: connections, by: 100) {
      var open: [Int32] = []
      var secure: [TLSLineClient] = []
      for index in start..<min(start + 100, connections) {
        if index % 3 == 2 {
          let plain = try LineClient(port: port, readGreeting: false)
          try plain.send("subscribe clock")
          open.append(dup(plain.fd))
          continue
        }
        let client = try TLSLineClient(port: port, context: context)
        _ = try client.readLine()
        try client.send("subscribe churn.\(index)")
        _ = try client.readLine(containing: #""ok":true"#)
        secure.append(client)
      }
      for (index, client) in secure.enumerated() where index.isMultiple(of: 2) {
        client.resetOnClose()
      }
      secure.removeAll()
      for fd in open { close(fd) }
      // The server closed this batch before the next opens, so peaks stay alike.
      let probe = try TLSLineClient(port: port, context: context)
      _ = try probe.readLine()
      try #require(
        eventually(timeout: .seconds(20)) {
          try? probe.send(#"{"op":"list","id":"l"}"#)
          let list = (try? probe.readLine(containing: #""id":"l""#)) ?? ""
          return !list.contains("churn.")
        })
    }
  }
}
