import Foundation
import TestSupport

@testable import ObservableServer

/// A ``TestServer`` that also serves HTTP on a free loopback port.
extension TestServer {
  /// Starts a server with `--http 127.0.0.1:0` besides its TCP listener.
  static func withHTTP(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws
    -> TestServer
  {
    try TestServer {
      $0.httpListen = [.tcp(host: "127.0.0.1", port: 0)]
      configure(&$0)
    }
  }

  /// The port of the first HTTP address.
  var httpPort: UInt16 {
    server.httpAddresses.lazy.compactMap { address -> UInt16? in
      if case .tcp(_, let port) = address { return port }
      return nil
    }.first ?? 0
  }

  /// Runs `websocket_peer.py` against this server and returns the JSON object it printed.
  func webSocketPeer(
    _ scenario: String, _ arguments: [String] = [], allowing statuses: Set<Int32> = []
  ) throws -> [String: Any] {
    let output = try PythonScript(name: "websocket_peer.py").run(
      ["--port", "\(httpPort)"] + arguments + [scenario], importing: "websockets",
      allowing: statuses)
    let firstLine = output.split(separator: UInt8(ascii: "\n")).first ?? []
    return try JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any] ?? [:]
  }

  /// Sends `request` raw to the HTTP port and returns everything the server wrote before it
  /// closed (empty if it did not close within `timeout`).
  func httpExchange(_ request: String, timeout: Duration = .seconds(5)) throws -> String {
    let client = try LineClient(port: httpPort, readGreeting: false)
    defer { client.close() }
    if !request.isEmpty { try client.sendRaw(Array(request.utf8)) }
    guard client.waitForClose(timeout: timeout) else { return "" }
    return client.unreadText
  }
}
