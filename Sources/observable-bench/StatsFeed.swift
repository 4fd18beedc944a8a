import Glibc

/// The server's own counters, read from its `stats` stream on a connection of their own.
///
/// A value is computed once a second by a timer of the server's, so ``settled(deadline:)``
/// skips the one that may have been computed before the caller's last action.
final class StatsFeed {
  /// The counters the soak checks, from one `stats` value.
  struct Counters: Equatable {
    var connections: Int
    var subscriptions: Int
    var subscribesTotal: Int
    var disconnectsTotal: Int
    var slowConsumersTotal: Int
    var authTimeoutsTotal: Int
  }

  /// Subscribes to `stats` on `address`, authenticating with `token` first when given.
  init(address: LoopbackAddress, token: String?, deadline: Deadline) throws(BenchError) {
    connection = try ClientConnection(to: address)
    if let token {
      try Handshake.run([connection], deadline: deadline) { _ in
        #"{"op":"auth","token":"\#(token)"}"#
      }
    }
    try Handshake.run([connection], deadline: deadline) { _ in LineShape.subscribe("stats") }
  }

  /// The next value to arrive.
  func next(deadline: Deadline) throws(BenchError) -> Counters {
    while true {
      while let line = connection.nextLine() {
        guard line.contains(#""stream":"stats""#) else { continue }
        guard let connections = line.integer(after: "connections"),
          let subscriptions = line.integer(after: "subscriptions"),
          let subscribes = line.integer(after: "subscribes_total"),
          let disconnects = line.integer(after: "disconnects_total")
        else { throw .unexpected("a stats value without the soak's counters: \(line.text)") }
        return Counters(
          connections: connections, subscriptions: subscriptions, subscribesTotal: subscribes,
          disconnectsTotal: disconnects,
          slowConsumersTotal: line.integer(after: "slow_consumers_total") ?? 0,
          authTimeoutsTotal: line.integer(after: "auth_timeouts_total") ?? 0)
      }
      try deadline.check("waiting for a stats value")
      var descriptor = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, deadline.pollTimeout()) > 0 else { continue }
      if case .closed = try connection.read() {
        throw .unexpected("the server closed the stats connection")
      }
    }
  }

  /// A value computed after this call began: what was buffered is dropped, and the value
  /// after the next one cannot predate the call.
  func settled(deadline: Deadline) throws(BenchError) -> Counters {
    try drain()
    _ = try next(deadline: deadline)
    return try next(deadline: deadline)
  }

  /// Reads and drops every value waiting, without blocking; called during long phases so
  /// that values piling up unread never make the server close this connection as slow.
  func drain() throws(BenchError) {
    while true {
      switch try connection.read() {
      case .bytes: while connection.nextLine() != nil {}
      case .wouldBlock: return
      case .closed: throw .unexpected("the server closed the stats connection")
      }
    }
  }

  private let connection: ClientConnection
}
