import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// `GET /sse` with real clients: an `EventSource` in headless Chromium, `curl` over https, and
/// the real server's debug log, which must never show the token.
@Suite("Server-Sent Events clients", .timeLimit(.minutes(2)))
struct ServerSentEventsClientTests {
  @Test func chromiumsEventSourceReceivesValuesInOrder() throws {
    try RequiredTool.require(ChildProcess.isInstalled("chromium-headless-shell"), "chromium")
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let output = try PythonScript(name: "event_source_check.py").run(
      [
        "--url", "http://127.0.0.1:\(server.httpPort)", "--line-port", "\(server.port)",
        "--stream", "news.1", "--count", "5",
      ], importing: "websockets", timeout: .seconds(60), allowing: [1])
    let summary = try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:]
    #expect(summary["ok"] as? Bool == true, "\(summary)")
  }

  /// The issue's test: the connection drops mid-stream (a proxy resets it), the browser
  /// reconnects by itself after the stream's `retry:` with `Last-Event-ID`, and the page sees
  /// every value once, in order, including those published while it was away.
  @Test func chromiumsEventSourceResumesWithoutAGapAfterTheConnectionDrops() throws {
    try RequiredTool.require(ChildProcess.isInstalled("chromium-headless-shell"), "chromium")
    let server = try TestServer.withHTTP {
      $0.historyPerTopic = 1_000
      $0.serverSentEventsRetry = .milliseconds(100)
    }
    defer { server.stop() }
    let output = try PythonScript(name: "event_source_check.py").run(
      [
        "--url", "http://127.0.0.1:\(server.httpPort)", "--line-port", "\(server.port)",
        "--stream", "news.1", "--count", "15", "--drop-after", "5", "--hold", "0.5",
        "--timeout", "40",
      ], importing: "websockets", timeout: .seconds(90), allowing: [1])
    let summary = try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:]
    #expect(summary["ok"] as? Bool == true, "\(summary)")
  }

  @Test func curlReceivesEventsOverHTTPS() throws {
    try RequiredTool.require(ChildProcess.isInstalled("curl"), "curl")
    try RequiredTool.require(TestCertificates.isAvailable, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates, https: true)
    defer { server.stop() }
    let curl = try ChildProcess(
      tool: "curl",
      [
        "-N", "-s", "--max-time", "20", "--cacert", certificates.path("ca.pem"),
        "https://localhost:\(server.httpsPort)/sse?stream=secure",
      ])
    defer { curl.signal(SIGKILL) }
    let publisher = try server.connect()
    defer { publisher.close() }
    let event = "event:secure\ndata:{\"stream\":\"secure\",\"value\":1}\n\n"
    #expect(
      curl.wait { curl in
        _ = try? publisher.request(#"{"op":"publish","stream":"secure","value":1}"#)
        return curl.stdout.contains(event)
      }, "\(curl.stderr)")
  }

  @Test func theTokenNeverReachesTheLog() throws {
    let linePort = try freeLoopbackPort()
    let httpPort = try freeLoopbackPort()
    let token = "sse-secret-4711"
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(linePort)", "--http", "127.0.0.1:\(httpPort)",
      "--token", token, "--log-level", "debug",
    ])
    #expect(server.waitForLog("127.0.0.1:\(httpPort)"), "\(server.output)")
    for (query, headers) in [
      ("stream=t&token=\(token)", ""), ("stream=t", "Authorization: Bearer \(token)\r\n"),
      ("stream=t&token=wrong-\(token)", ""),
    ] {
      let client = try LineClient(port: httpPort, readGreeting: false)
      try client.sendRaw(
        Array("GET /sse?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n".utf8))
      _ = try client.readAvailable()
      client.close()
    }
    #expect(server.waitForLog("connection closed"))
    #expect(!server.output.contains(token), "\(server.output)")
    server.signal(SIGTERM)
    _ = server.waitForExit()
  }
}
