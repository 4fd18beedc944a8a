import Glibc
import InProcessServer
import Logging
import TestSupport

@testable import ObservablePOSIX
@testable import ObservableServer

/// An in-process server on a free loopback port, shut down by ``stop()``.
final class TestServer {
  let server: ObservableServer
  let port: UInt16
  let addresses: [ListenAddress]

  /// Starts a server on 127.0.0.1 port 0 (plus whatever `configure` changes).
  init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
    (server, addresses, port) = try InProcessServer.start(configure)
  }

  /// A client connected to the first TCP address, greeting read.
  func connect(readGreeting: Bool = true) throws -> LineClient {
    try LineClient(port: port, readGreeting: readGreeting)
  }

  /// The `stats` value now, read through a fresh connection.
  func stats() throws -> [String: Any] {
    let client = try connect()
    defer { client.close() }
    try client.send(#"{"op":"subscribe","stream":"stats"}"#)
    return try client.read(until: { $0["stream"] as? String == "stats" && $0["value"] != nil })[
      "value"]
      as? [String: Any] ?? [:]
  }

  func stop() {
    server.shutdown()
  }

  deinit { server.shutdown() }
}
