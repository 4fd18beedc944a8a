import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// `--max-http-connections` reaches the server from the command line, and is checked there.
@Suite("The --max-http-connections flag", .timeLimit(.minutes(1)))
struct HTTPConnectionFlagTests {
  @Test func theFlagLimitsHTTPConnectionsAndNotLineClients() throws {
    let linePort = try freeLoopbackPort()
    let httpPort = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(linePort)", "--http", "127.0.0.1:\(httpPort)",
      "--max-connections", "1", "--max-http-connections", "1",
    ])
    #expect(server.waitForLog("127.0.0.1:\(httpPort)"), "\(server.output)")
    let slow = try LineClient(port: httpPort, readGreeting: false)
    defer { slow.close() }
    try slow.sendRaw(Array("GET / HTTP/1.1\r\n".utf8))
    // The slow client holds the one HTTP slot: the next HTTP client is refused, once the slow
    // one is counted in (accepting it may take a moment).
    var answer = ""
    let refused = eventually {
      guard let next = try? LineClient(port: httpPort, readGreeting: false) else { return false }
      defer { next.close() }
      answer = next.readToEnd().text
      return answer.hasPrefix("HTTP/1.1 503")
    }
    #expect(refused, "\(answer.prefix(100))")
    let line = try LineClient(port: linePort)
    defer { line.close() }
    #expect(try line.request("ping")["ok"] as? Bool == true)
  }

  @Test func zeroIsRefusedAsUsage() throws {
    let server = try ServerProcess(arguments: ["--max-http-connections", "0"])
    #expect(server.waitForExit(timeout: .seconds(5)) == 64)
    #expect(server.output.contains("--max-http-connections must be at least 1"), "\(server.output)")
  }
}
