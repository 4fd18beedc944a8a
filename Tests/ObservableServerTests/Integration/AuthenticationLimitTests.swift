import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// With a token set, a client that has not authenticated can hold almost nothing, and cannot
/// try tokens in a loop.
@Suite("Before authentication", .timeLimit(.minutes(2)))
struct AuthenticationLimitTests {
  static func server() throws -> TestServer {
    try TestServer {
      $0.token = "s3cret"
      $0.authTimeout = .milliseconds(300)
    }
  }

  @Test func clientThatNeverAuthenticatesIsToldAndClosed() throws {
    let server = try Self.server()
    let idle = try server.connect()
    let notice = try idle.readJSON(timeout: .seconds(5))
    #expect((notice["error"] as? [String: Any])?["code"] as? String == "unauthorized")
    #expect(idle.waitForClose())
    #expect(server.server.counters.snapshot.authTimeoutsTotal == 1)
    // An authenticated client is not timed out.
    let client = try server.connect()
    try client.request("auth s3cret")
    #expect(throws: LineClient.Timeout.self) { try client.readLine(timeout: .seconds(1)) }
    #expect(try client.request("ping")["ok"] as? Bool == true)
  }

  @Test func wrongTokenClosesTheConnectionAfterItsErrorLine() throws {
    let server = try Self.server()
    let client = try server.connect()
    // The ping in the same write is never answered: nothing after a wrong token is read.
    try client.sendRaw(Array("auth wrong\nping\n".utf8))
    let reply = try client.readJSON()
    #expect((reply["error"] as? [String: Any])?["code"] as? String == "unauthorized")
    #expect(client.waitForClose())
    #expect(client.unreadText.isEmpty)
    #expect(server.server.counters.snapshot.authFailuresTotal == 1)
  }

  @Test func unauthenticatedLinesAreShortUntilAuthentication() throws {
    let server = try Self.server()
    let client = try server.connect()
    let long = "publish t \"" + String(repeating: "v", count: 5_000) + "\""
    let refused = try client.request(long)
    #expect((refused["error"] as? [String: Any])?["code"] as? String == "line_too_long")
    try client.request("auth s3cret")
    #expect(try client.request(long)["ok"] as? Bool == true)
  }

  @Test func unauthenticatedClientThatNeverReadsHoldsLittle() throws {
    let server = try TestServer {
      $0.token = "s3cret"
      $0.authTimeout = .seconds(30)
    }
    let client = try server.connect()
    var small: Int32 = 4096
    setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    // 60,000 refused pings queue 6 MB of error replies: under the 8 MiB an authenticated client
    // may have queued, far over what an unauthenticated one may.
    let pings = Array(String(repeating: "ping\n", count: 60_000).utf8)
    var offset = 0
    let deadline = ContinuousClock.now + .seconds(20)
    while offset < pings.count, ContinuousClock.now < deadline {
      let sent = pings[offset...].withUnsafeBytes {
        Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      if sent > 0 { offset += sent } else if errno != EAGAIN && errno != EINTR { break }
      if sent <= 0 { usleep(1_000) }
    }
    #expect(
      eventually(timeout: .seconds(10)) { server.server.counters.snapshot.slowConsumersTotal == 1 })
    #expect(eventually { server.server.connectionCount == 0 })
  }

  @Test func subscriptionsPerConnectionAreLimited() throws {
    let server = try TestServer { $0.maxSubscriptions = 3 }
    let client = try server.connect()
    for name in ["a", "b.*", "clock"] {
      #expect(try client.request("subscribe \(name)")["ok"] as? Bool == true)
    }
    let refused = try client.request("subscribe d")
    #expect((refused["error"] as? [String: Any])?["code"] as? String == "limit_exceeded")
    #expect(server.server.counters.snapshot.subscriptionLimitTotal == 1)
    try client.request("unsubscribe a")
    #expect(try client.request("subscribe d")["ok"] as? Bool == true)
  }
}
