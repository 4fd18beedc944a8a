import Glibc

/// Brings many fresh connections to the point where measuring can start: each one sends its
/// request (a subscribe, say) and waits until the server answers it with `"ok":true`.
///
/// Nothing may be published before every subscription is confirmed, or the first messages would
/// count as lost; so setup is its own phase, outside the measured time. Lines after the answer
/// (a `stats` value, say) stay in the connection for the caller.
enum Handshake {
  /// Sends `request(i)` on connection `i` and waits for its answer; when `request` returns
  /// `nil`, waits for the server's greeting instead.
  static func run(
    _ connections: [ClientConnection],
    deadline: Deadline,
    request: (Int) -> String?
  ) throws(BenchError) {
    var waiting: [(index: Int, expectsReply: Bool)] = []
    waiting.reserveCapacity(connections.count)
    for (index, connection) in connections.enumerated() {
      let line = request(index)
      if let line { connection.queueLine(line) }
      waiting.append((index, line != nil))
    }
    var descriptors: [pollfd] = []
    while !waiting.isEmpty {
      try deadline.check("waiting for the server to answer \(waiting.count) connections")
      descriptors.removeAll(keepingCapacity: true)
      for entry in waiting {
        let connection = connections[entry.index]
        descriptors.append(
          pollfd(fd: connection.descriptor, events: connection.pollEvents, revents: 0))
      }
      let ready = poll(&descriptors, nfds_t(descriptors.count), deadline.pollTimeout())
      if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
      guard ready > 0 else { continue }
      var stillWaiting: [(index: Int, expectsReply: Bool)] = []
      for (position, entry) in waiting.enumerated() {
        let events = descriptors[position].revents
        if events != 0,
          try answered(connections[entry.index], events: events, expectsReply: entry.expectsReply)
        {
          continue
        }
        stillWaiting.append(entry)
      }
      waiting = stillWaiting
    }
  }

  /// Handles readiness on one connection; returns whether its answer has arrived.
  private static func answered(
    _ connection: ClientConnection, events: Int16, expectsReply: Bool
  ) throws(BenchError) -> Bool {
    if events & Int16(POLLOUT) != 0 { try connection.flush() }
    guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return false }
    if case .closed = try connection.read() {
      throw .unexpected("the server closed a connection before answering its first request")
    }
    while let line = connection.nextLine() {
      if line.hasPrefix(LineShape.okFalse) { throw .unexpected(line.text) }
      if expectsReply ? line.hasPrefix(LineShape.okTrue) : line.contains(#""hello":"#) {
        return true
      }
    }
    return false
  }

}
