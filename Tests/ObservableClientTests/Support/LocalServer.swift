import Glibc
import InProcessServer
import Locking
import Logging
import ObservableClient

@testable import ObservableServer

/// An in-process `observable-server` on a free loopback port, shut down when it goes away.
final class LocalServer {
  let server: ObservableServer
  let port: UInt16

  /// Starts a server on 127.0.0.1 port 0, with whatever `configure` changes.
  init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
    (server, _, port) = try InProcessServer.start(configure)
  }

  deinit { server.shutdown() }

  /// The address clients connect to.
  var address: String { "127.0.0.1:\(port)" }

  /// A connected client with a quick reconnect policy and no logging.
  func client(_ configure: (inout ClientConfiguration) -> Void = { _ in }) async throws
    -> ObservableClient
  {
    let client = try ObservableClient(address, configuration: .quiet(configure))
    try await client.connect()
    return client
  }
}

extension ClientConfiguration {
  /// Fast reconnection and no log output, changed by `configure`.
  static func quiet(_ configure: (inout ClientConfiguration) -> Void = { _ in })
    -> ClientConfiguration
  {
    var configuration = ClientConfiguration(
      reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200)),
      logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    configure(&configuration)
    return configuration
  }
}

/// Values an observer received, from whatever thread it was called on.
final class Received<T: Sendable>: Sendable {
  private let values = Locked<[T]>([])

  /// Records one value.
  func append(_ value: T) { values.withLock { $0.append(value) } }

  /// Everything received so far.
  var all: [T] { values.withLock { $0 } }

  /// How many values arrived.
  var count: Int { values.withLock { $0.count } }
}

/// The subscriber count `list` shows for `name`, 0 when it is not listed.
func subscribers(_ name: String, via client: ObservableClient) async throws -> Int {
  try await client.list().first { $0.name == name }?.subscribers ?? 0
}
