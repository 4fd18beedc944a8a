import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// The protocol over `/ws`, driven by Python's `websockets` package (an independent client)
/// and by raw frames for what a conforming client never sends.
@Suite("WebSocket peer", .timeLimit(.minutes(1)))
struct WebSocketPeerTests {
  @Test func theProtocolWorksAsOverTCP() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let seen = try server.webSocketPeer("protocol")
    let greeting = try #require(seen["greeting"] as? [String: Any])
    #expect(greeting["hello"] as? String == "observable-server")
    #expect((seen["clock_reply"] as? [String: Any])?["ok"] as? Bool == true)
    #expect((seen["clock_value"] as? [String: Any])?["value"] is String)
    #expect((seen["pattern_reply"] as? [String: Any])?["ok"] as? Bool == true)
    #expect((seen["retained_value"] as? [String: Any])?["value"] as? String == "first")
    let fresh = (seen["published_value"] as? [String: Any])?["value"] as? [String: Any]
    #expect(fresh?["n"] as? Int == 5)
    #expect((seen["error_reply"] as? [String: Any])?["ok"] as? Bool == false)
    let compress = (seen["compress_reply"] as? [String: Any])?["error"] as? [String: Any]
    #expect(compress?["code"] as? String == "unsupported")
    #expect((seen["fragmented_reply"] as? [String: Any])?["ok"] as? Bool == true)
    #expect(seen["pong_seconds"] is Double)
    #expect(seen["close_code"] as? Int == 1000)
  }

  @Test func brokenFramesCloseWithTheirCodes() throws {
    let server = try TestServer.withHTTP { $0.maxLineBytes = 1024 }
    defer { server.stop() }
    let seen = try server.webSocketPeer("raw", ["--max-line-bytes", "1024"])
    #expect(seen["bad_utf8"] as? Int == 1007)
    #expect(seen["bad_utf8_in_fragments"] as? Int == 1007)
    #expect(seen["oversized"] as? Int == 1009)
    #expect(seen["unmasked"] as? Int == 1002)
    #expect(seen["binary"] as? Int == 1003)
    // The pong for the ping sent between fragments comes before the reply to the message.
    let interleaved = try #require(seen["interleaved"] as? [[Any]])
    #expect(interleaved.first?.first as? Int == 10 && interleaved.first?.last as? String == "mid")
    #expect((interleaved.last?.last as? String)?.contains(#""id":41"#) == true)
    #expect(seen["close_reply"] as? Int == 1000)
    #expect(seen["closed_after_close"] as? Bool == true)
  }

  @Test func permessageDeflateWithAndWithoutContextTakeover() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let seen = try server.webSocketPeer("deflate")
    for name in ["takeover", "no_takeover"] {
      let run = try #require(seen[name] as? [String: Any], "\(name)")
      #expect((run["extension"] as? String)?.hasPrefix("permessage-deflate") == true, "\(name)")
      #expect(run["in_order"] as? Bool == true, "\(name)")
    }
    let noTakeover = (seen["no_takeover"] as? [String: Any])?["extension"] as? String
    #expect(noTakeover?.contains("server_no_context_takeover") == true)
  }

  @Test func anAbruptCloseRunsEveryDisconnect() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let seen = try server.webSocketPeer("abrupt", allowing: [SIGKILL])
    #expect(seen["subscribed"] as? Int == 3)
    var stats: [String: Any] = [:]
    // The stats connection itself subscribes once, to `stats`.
    let settled = try eventually {
      stats = try server.stats()
      return stats["subscriptions"] as? Int == 1
        && stats["websocket_connections"] as? Int == 0
    }
    #expect(settled, "\(stats)")
    #expect(stats["subscribes_total"] as? Int == 4)
    #expect(
      (stats["disconnects_total"] as? Int).map { $0 + 1 } == stats["subscribes_total"] as? Int)
    #expect(stats["websocket_connections_total"] as? Int == 1)
  }

  @Test func aPeerThatStopsAnsweringPingsIsDropped() throws {
    let server = try TestServer.withHTTP { $0.webSocketPingInterval = .milliseconds(200) }
    defer { server.stop() }
    let seen = try server.webSocketPeer("silent", ["--wait", "5"])
    #expect(seen["dropped"] as? Bool == true)
    #expect((seen["pings"] as? Int ?? 0) >= 1)
    #expect((seen["seconds"] as? Double ?? 99) < 2)
    #expect(seen["alive"] as? Bool == true)
    #expect((seen["answered"] as? Int ?? 0) >= 2)
    #expect(server.server.counters.snapshot.deadPeersTotal == 1)
  }

  @Test func aTokenIsRequiredFirstAndAWrongOneClosesWithPolicyViolation() throws {
    let server = try TestServer.withHTTP { $0.token = "sesame" }
    defer { server.stop() }
    let seen = try server.webSocketPeer("auth", ["--token", "sesame"])
    #expect((seen["greeting"] as? [String: Any])?["auth"] as? String == "required")
    #expect((seen["before_auth"] as? [String: Any])?["ok"] as? Bool == false)
    #expect((seen["auth_reply"] as? [String: Any])?["ok"] as? Bool == true)
    #expect((seen["after_auth"] as? [String: Any])?["ok"] as? Bool == true)
    // Before authenticating a peer may send only short messages, as over TCP; after, long ones.
    #expect((seen["long_after_auth"] as? [String: Any])?["ok"] as? Bool == true)
    #expect(seen["long_before_auth_close"] as? Int == 1009)
    // The error reply comes before the close frame.
    let wrong = (seen["wrong_token_reply"] as? [String: Any])?["error"] as? [String: Any]
    #expect(wrong?["code"] as? String == "unauthorized")
    #expect(seen["wrong_token_close"] as? Int == 1008)
  }
}
