import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// WebSocket peers that do not read: pongs count toward `--max-queued-bytes`, and a peer over
/// it is told so with a close frame before its socket closes. Driven by raw frames from
/// `websocket_limits.py` against the server run as a process, whose RSS the peer samples.
@Suite("WebSocket limits", .serialized, .timeLimit(.minutes(3)))
struct WebSocketLimitsTests {
  /// Pings sent while the peer reads nothing. The peer's 4 KiB receive window keeps the
  /// kernel's buffers small (about 64 KiB of pongs), so main held 15 MiB or more of these.
  static let floodBytes = 16 << 20

  @Test func pingsWithoutReadingBeforeAuthenticationEndAsSlowConsumer() throws {
    let server = try FloodedServer(["--token", "sesame"])
    let seen = try server.peer("ping_flood", ["--flood-bytes", "\(Self.floodBytes)"])
    #expect(seen["greeting_auth"] as? String == "required")
    Self.expectSlowConsumerClose(seen)
    // Before authenticating, 64 KiB may wait: the server must not hold the flood's pongs.
    let growth = (seen["rss_peak"] as? Int ?? .max) - (seen["rss_before"] as? Int ?? 0)
    #expect(growth < 8 << 20, "RSS grew \(growth) bytes after \(seen["sent"] ?? 0) of pings")
    #expect(try server.slowConsumers() == 1)
  }

  @Test func pingsWithoutReadingAfterAuthenticationEndAsSlowConsumer() throws {
    let server = try FloodedServer(["--token", "sesame", "--max-queued-bytes", "1048576"])
    let seen = try server.peer(
      "ping_flood", ["--token", "sesame", "--flood-bytes", "\(Self.floodBytes)"])
    Self.expectSlowConsumerClose(seen)
    let growth = (seen["rss_peak"] as? Int ?? .max) - (seen["rss_before"] as? Int ?? 0)
    #expect(growth < 8 << 20, "RSS grew \(growth) bytes after \(seen["sent"] ?? 0) of pings")
  }

  @Test func aSubscriberThatDoesNotReadGetsACloseFrameBeforeTheClose() throws {
    let server = try FloodedServer(["--max-queued-bytes", "1048576"])
    let seen = try server.peer(
      "slow_subscriber", ["--tcp-port", "\(server.tcpPort)", "--flood-bytes", "\(16 << 20)"])
    Self.expectSlowConsumerClose(seen)
    #expect(try server.slowConsumers() == 1)
  }

  @Test func aPeerThatAnswersNoPingGetsACloseFrameBeforeTheClose() throws {
    let server = try TestServer.withHTTP { $0.webSocketPingInterval = .milliseconds(200) }
    defer { server.stop() }
    let output = try PythonScript(name: "websocket_limits.py").run(
      ["--port", "\(server.httpPort)", "silent_reader"], importing: "websockets")
    let firstLine = output.split(separator: UInt8(ascii: "\n")).first ?? []
    let seen = try JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any] ?? [:]
    #expect(seen["close_code"] as? Int == 1011, "\(seen)")
    #expect(seen["close_reason"] as? String == "keepalive ping timeout")
    #expect(seen["data_after_close"] as? Int == 0)
    #expect(server.server.counters.snapshot.deadPeersTotal == 1)
  }

  /// The `slow_consumer` error, then close frame 1008 "slow consumer", then the end of the
  /// stream, not a reset and not silence.
  private static func expectSlowConsumerClose(_ seen: [String: Any]) {
    #expect(seen["close_code"] as? Int == 1008, "\(seen)")
    #expect(seen["close_reason"] as? String == "slow consumer")
    let notice = (seen["last_text"] as? String).flatMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect((notice?["error"] as? [String: Any])?["code"] as? String == "slow_consumer")
    #expect(seen["data_after_close"] as? Int == 0)
    #expect(seen["reset"] as? Bool == false)
    #expect(seen["timed_out"] as? Bool == false)
  }
}

/// The server as a process with a TCP and an HTTP port, so that a peer can read its RSS.
private struct FloodedServer {
  let server: ServerProcess
  let tcpPort: UInt16
  let httpPort: UInt16

  init(_ arguments: [String]) throws {
    tcpPort = try freeLoopbackPort()
    httpPort = try freeLoopbackPort()
    server = try ServerProcess(
      arguments: [
        "--listen", "127.0.0.1:\(tcpPort)", "--http", "127.0.0.1:\(httpPort)",
        "--log-level", "error",
      ] + arguments)
    let port = httpPort
    try #require(
      eventually(timeout: .seconds(10)) {
        (try? LineClient(port: port, readGreeting: false)) != nil
      })
  }

  /// Runs `websocket_limits.py` and returns the JSON object it printed.
  func peer(_ scenario: String, _ arguments: [String]) throws -> [String: Any] {
    let output = try PythonScript(name: "websocket_limits.py").run(
      ["--port", "\(httpPort)", "--server-pid", "\(server.process.processIdentifier)"] + arguments
        + [scenario], importing: "websockets", timeout: .seconds(100))
    let firstLine = output.split(separator: UInt8(ascii: "\n")).first ?? []
    return try JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any] ?? [:]
  }

  /// `slow_consumers_total`, once the connection it counts has closed.
  func slowConsumers() throws -> Int? {
    let client = try LineClient(port: tcpPort)
    defer { client.close() }
    if client.greeting["auth"] as? String == "required" { try client.request("auth sesame") }
    try client.send(#"{"op":"subscribe","stream":"stats"}"#)
    let stats =
      try client.read(until: { $0["stream"] as? String == "stats" && $0["value"] != nil })[
        "value"] as? [String: Any]
    return stats?["slow_consumers_total"] as? Int
  }
}
