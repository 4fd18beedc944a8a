import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// During `--shutdown-grace` the HTTP port still answers, so that a load balancer's probe reads
/// 503 from `/healthz` instead of finding the port closed.
@Suite("Health during the shutdown grace", .timeLimit(.minutes(1)))
struct ShutdownHealthTests {
  /// Sends `request` to `port` and returns all the server wrote before it closed, or what
  /// went wrong ("refused" when nothing listens).
  static func exchange(_ request: String, port: UInt16) -> String {
    do {
      let client = try LineClient(port: port, readGreeting: false)
      defer { client.close() }
      try client.sendRaw(Array(request.utf8))
      guard client.waitForClose(timeout: .seconds(5)) else { return "no close" }
      return client.unreadText
    } catch {
      return "\(error)"
    }
  }

  /// The port of the `listening address="http HOST:PORT"` line.
  static func httpPort(_ server: ServerProcess) -> UInt16? {
    var port: UInt16?
    _ = eventually(timeout: .seconds(10)) {
      for line in server.output.split(separator: "\n") {
        guard let address = line.split(separator: "\"").first(where: { $0.hasPrefix("http ") })
        else { continue }
        port = UInt16(address.split(separator: ":").last ?? "")
      }
      return port != nil
    }
    return port
  }

  @Test func healthAnswers503OverTheSocketUntilTheGraceEnds() throws {
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--shutdown-grace", "10",
    ])
    let port = try #require(server.listeningPort(), "\(server.output)")
    let http = try #require(Self.httpPort(server), "\(server.output)")
    let health = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    #expect(Self.exchange(health, port: http).hasPrefix("HTTP/1.1 200"))

    // A client that does not close its side keeps the drain going, up to the grace.
    let lingering = try LineClient(port: port)
    defer { lingering.close() }
    let signalled = ContinuousClock.now
    server.signal(SIGTERM)
    #expect(server.waitForLog("shutting down"))
    for _ in 0..<3 {
      let answer = Self.exchange(health, port: http)
      #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
      #expect(answer.contains(#""status":"shutting down""#), "\(answer)")
      usleep(500_000)
    }
    // No new WebSocket session starts meanwhile.
    let upgrade = Self.exchange(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      port: http)
    #expect(upgrade.hasPrefix("HTTP/1.1 503"), "\(upgrade)")
    #expect(ContinuousClock.now - signalled < .seconds(10), "the probes ran within the grace")
    // Once the last line client closes, the drain is over: the server exits, port and all.
    lingering.close()
    #expect(server.waitForExit(timeout: .seconds(5)) == 0)
    #expect(Self.exchange(health, port: http).contains("refused"))
  }
}
