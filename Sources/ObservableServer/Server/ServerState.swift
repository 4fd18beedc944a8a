import Locking
import Logging

/// What every connection of one server shares: its streams, counters, limits and log.
final class ServerState: Sendable {
  let configuration: ServerConfiguration
  let registry: StreamRegistry
  let counters: ServerCounters
  let logger: Logger
  let version: String

  init(
    configuration: ServerConfiguration,
    registry: StreamRegistry,
    counters: ServerCounters,
    logger: Logger,
    version: String
  ) {
    self.configuration = configuration
    self.registry = registry
    self.counters = counters
    self.logger = logger
    self.version = version
  }

  /// Admits a new connection unless the server is full or shutting down.
  func admit(_ connection: Connection) -> Bool {
    let admitted = open.withLock { table in
      guard table.accepting, table.connections.count < configuration.maxConnections else {
        return false
      }
      table.connections[ObjectIdentifier(connection)] = connection
      return true
    }
    if admitted {
      counters.update {
        $0.connections += 1
        $0.connectionsTotal += 1
      }
    }
    return admitted
  }

  /// Forgets a connection that has closed.
  func remove(_ connection: Connection) {
    let removed = open.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
    if removed != nil { counters.update { $0.connections -= 1 } }
  }

  /// Stops admitting connections and returns those still open.
  func closeAdmission() -> [Connection] {
    open.withLock { table in
      table.accepting = false
      return Array(table.connections.values)
    }
  }

  /// The connections open now.
  var openConnections: [Connection] { open.withLock { Array($0.connections.values) } }

  /// How many connections are open.
  var openConnectionCount: Int { open.withLock { $0.connections.count } }

  private let open = Locked(ConnectionTable())
}

private struct ConnectionTable {
  var connections: [ObjectIdentifier: Connection] = [:]
  var accepting = true
}
