import Locking
import ObservableStreams

/// Holds a new subscription's values while its reply waits in the ``ReplyQueue`` behind one
/// the cluster owes, so that the reply goes out first, as on a single node.
///
/// Values come from any thread (a retained value from JetStream, live ones from NATS or local
/// publishers); the session opens the hold on its loop right after it sends the reply, and
/// what was held follows it in order. Later values pass straight through.
package final class HeldValues: Sendable {
  /// Bytes held at most; past it values are dropped and counted, as for a slow client, so a
  /// reply the cluster is slow to give cannot make a busy subscription hold unbounded memory.
  static let limit = 1 << 20

  private let observer: StreamObserver
  /// Bytes this hold keeps at most.
  private let limit: Int
  private let dropped: @Sendable (Int) -> Void
  private let state = Locked(HeldState())

  /// A closed hold before `observer` of `limit` bytes; `dropped` gets the number of lines
  /// dropped past it.
  init(
    _ observer: StreamObserver, limit: Int = HeldValues.limit,
    dropped: @escaping @Sendable (Int) -> Void
  ) {
    self.observer = observer
    self.limit = limit
    self.dropped = dropped
  }

  /// The observer to subscribe in place of the session's own.
  var relay: StreamObserver {
    StreamObserver { [self] lines in receive(lines) }
  }

  private func receive(_ lines: [UInt8]) {
    let accepted = state.withLock { state -> Bool in
      if state.open {
        observer.next(lines)
        return true
      }
      guard state.bytes + lines.count <= limit else { return false }
      state.lines.append(lines)
      state.bytes += lines.count
      return true
    }
    if !accepted { dropped(lines.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }) }
  }

  /// Passes on what was held, in order, and lets later values through; once.
  func open() {
    state.withLock { state in
      guard !state.open else { return }
      for lines in state.lines { observer.next(lines) }
      state.lines = []
      state.bytes = 0
      state.open = true
    }
  }
}

private struct HeldState {
  var open = false
  var lines: [[UInt8]] = []
  var bytes = 0
}
