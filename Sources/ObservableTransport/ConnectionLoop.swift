import ObservablePOSIX
import ObservableSession

/// An event loop that serves connections, with what its connections share on it.
package struct ConnectionLoop: Sendable {
  package init(loop: EventLoop, queuedOutput: QueuedOutput, heapTrim: HeapTrim) {
    self.loop = loop
    self.queuedOutput = queuedOutput
    self.heapTrim = heapTrim
    connections = OpenConnections(loop: loop)
    disconnects = PendingDisconnects(loop: loop)
  }

  /// The loop.
  package let loop: EventLoop
  /// The bytes queued for every connection of the server, bounded all together.
  let queuedOutput: QueuedOutput
  /// Where closing connections report the memory they release.
  let heapTrim: HeapTrim
  /// Storage for batched publishes, lent to each session in turn.
  let scratch = PublishScratch()
  /// The connections open on the loop.
  package let connections: OpenConnections
  /// The disconnects of closed connections' subscriptions, run a slice per turn.
  package let disconnects: PendingDisconnects
}

/// The connections open on one event loop, so shutdown can close them all there.
package final class OpenConnections: @unchecked Sendable {
  // Unchecked: made with its loop, then used on that loop's thread only.

  init(loop: EventLoop) {
    self.loop = loop
  }

  /// Adds a connection that opened.
  func insert(_ connection: Connection) {
    loop.assertInLoop()
    members[ObjectIdentifier(connection)] = connection
  }

  /// Removes a connection that closed.
  func remove(_ connection: Connection) {
    loop.assertInLoop()
    members[ObjectIdentifier(connection)] = nil
  }

  /// Every connection open now.
  package var all: [Connection] {
    loop.assertInLoop()
    return Array(members.values)
  }

  private let loop: EventLoop
  private var members: [ObjectIdentifier: Connection] = [:]
}
