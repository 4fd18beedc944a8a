/// An event loop that serves connections, with what its connections share on it.
struct ConnectionLoop: Sendable {
  /// The loop.
  let loop: EventLoop
  /// The bytes queued for every connection of the server, bounded all together.
  let queuedOutput: QueuedOutput
  /// Where closing connections report the memory they release.
  let heapTrim: HeapTrim
  /// Storage for batched publishes, lent to each session in turn.
  let scratch = PublishScratch()
  /// The connections open on the loop.
  let connections = OpenConnections()
}

/// The connections open on one event loop, so shutdown can close them all there.
final class OpenConnections: @unchecked Sendable {
  // Unchecked: made with its loop, then used on that loop's thread only.

  /// Adds a connection that opened.
  func insert(_ connection: Connection) {
    members[ObjectIdentifier(connection)] = connection
  }

  /// Removes a connection that closed.
  func remove(_ connection: Connection) {
    members[ObjectIdentifier(connection)] = nil
  }

  /// Every connection open now.
  var all: [Connection] { Array(members.values) }

  private var members: [ObjectIdentifier: Connection] = [:]
}
