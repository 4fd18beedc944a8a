import Locking

/// The bytes waiting to be written to one connection, appended from any thread.
///
/// Streams append under their own locks, so appending only copies bytes and decides whether
/// the connection's loop must be asked to flush. The total waiting is capped: past the cap the
/// outbox refuses further bytes and the connection is closed as a slow consumer, so memory
/// never grows past the cap.
final class Outbox: Sendable {
  /// What an append did.
  enum AppendOutcome {
    /// Queued; a flush is already scheduled or running.
    case queued
    /// Queued; the caller must schedule a flush on the connection's loop.
    case needsFlush
    /// Refused: the cap was reached now; the caller must close the connection.
    case overflowed
    /// Refused: the connection is closing or already overflowed.
    case refused
  }

  init(limit: Int) {
    state = Locked(OutboxState(limit: limit))
  }

  /// Changes the cap, for bytes appended from now on.
  func setLimit(_ limit: Int) {
    state.withLock { $0.limit = limit }
  }

  /// Appends `bytes` unless that would pass the cap.
  func append(_ bytes: UnsafeRawBufferPointer) -> AppendOutcome {
    state.withLock { state in
      guard state.accepting else { return .refused }
      guard state.pending.count + state.inFlight + bytes.count <= state.limit else {
        state.accepting = false
        state.pending = []
        return .overflowed
      }
      state.pending.append(bytes: bytes)
      guard !state.flushScheduled else { return .queued }
      state.flushScheduled = true
      return .needsFlush
    }
  }

  /// Takes everything pending, leaving `spare` (emptied) in its place so its capacity is reused.
  /// `inFlight` is what the caller still holds unwritten.
  func take(replacingWith spare: inout [UInt8], inFlight: Int) {
    spare.removeAll(keepingCapacity: true)
    state.withLock { state in
      swap(&state.pending, &spare)
      state.inFlight = inFlight + spare.count
    }
  }

  /// Records that the writer holds `inFlight` unwritten bytes; when it holds none and nothing is
  /// pending, ends the flush and returns `true`.
  func finishFlushIfIdle(inFlight: Int) -> Bool {
    state.withLock { state in
      state.inFlight = inFlight
      guard inFlight == 0, state.pending.isEmpty else { return false }
      state.flushScheduled = false
      return true
    }
  }

  /// Records that the writer holds `unwritten` bytes, frames it wrote outside the outbox (a
  /// WebSocket pong) included, so they count toward the cap. Past the cap, refuses every
  /// further append as an overflowing append does, and returns `false`: the caller must close
  /// the connection as a slow consumer.
  func holdUnwritten(_ unwritten: Int) -> Bool {
    state.withLock { state in
      guard state.pending.count + unwritten <= state.limit else {
        state.accepting = false
        state.pending = []
        return false
      }
      state.inFlight = unwritten
      return true
    }
  }

  /// Whether anything is waiting to be taken.
  var hasPending: Bool { state.withLock { !$0.pending.isEmpty } }

  /// Refuses every further append.
  func close() {
    state.withLock { state in
      state.accepting = false
      state.pending = []
    }
  }

  private let state: Locked<OutboxState>
}

private struct OutboxState {
  var limit: Int
  var pending: [UInt8] = []
  var inFlight = 0
  var flushScheduled = false
  var accepting = true
}
