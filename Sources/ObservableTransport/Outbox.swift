import Locking

/// The bytes waiting to be written to one connection, appended from any thread.
///
/// Streams append under their own locks, so appending only takes a reference to the array
/// (``OutboxChunks``: every subscriber of a value holds the same one) and decides whether
/// the connection's loop must be asked to flush. The total waiting is capped: past the cap the
/// outbox refuses further bytes and the connection is closed as a slow consumer, so memory
/// never grows past the cap. What the outbox holds also counts toward the server-wide
/// ``QueuedOutput``, when it is given one.
package final class Outbox: Sendable {
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

  init(limit: Int, account: QueuedOutput? = nil) {
    state = Locked(OutboxState(limit: limit))
    self.account = account
  }

  /// Changes the cap, for bytes appended from now on.
  func setLimit(_ limit: Int) {
    state.withLock { $0.limit = limit }
  }

  /// Appends `bytes`, whole units of the connection's framing, unless that would pass the cap.
  func append(_ bytes: [UInt8]) -> AppendOutcome {
    state.withLock { state in
      guard state.accepting else { return .refused }
      guard state.pending.byteCount + state.inFlight + bytes.count <= state.limit,
        account?.wouldPassCeiling(adding: bytes.count) != true
      else {
        state.accepting = false
        state.pending = OutboxChunks()
        settle(&state)
        return .overflowed
      }
      state.pending.append(bytes, census: account?.chunkCensus)
      settle(&state)
      guard !state.flushScheduled else { return .queued }
      state.flushScheduled = true
      return .needsFlush
    }
  }

  /// Takes everything pending as the chunks it was queued in, leaving `spare` (emptied) in
  /// their place so its capacity is reused. `inFlight` is what the caller still holds unwritten.
  func take(chunks spare: inout OutboxChunks, inFlight: Int) {
    spare.removeAll()
    state.withLock { state in
      swap(&state.pending, &spare)
      state.inFlight = inFlight + spare.byteCount
      settle(&state)
    }
  }

  /// Takes everything pending as one buffer, `spare` emptied and refilled, so its capacity is
  /// reused; `chunks` is scratch for the chunks taken, released before it returns.
  func take(replacingWith spare: inout [UInt8], chunks: inout OutboxChunks, inFlight: Int) {
    take(chunks: &chunks, inFlight: inFlight)
    spare.removeAll(keepingCapacity: true)
    chunks.copyBytes(to: &spare)
    chunks.removeAll()
  }

  /// Takes everything pending as one buffer; for tests.
  func take(replacingWith spare: inout [UInt8], inFlight: Int) {
    var chunks = OutboxChunks()
    take(replacingWith: &spare, chunks: &chunks, inFlight: inFlight)
  }

  /// Records that the writer holds `inFlight` unwritten bytes; when it holds none and nothing is
  /// pending, ends the flush and returns `true`.
  func finishFlushIfIdle(inFlight: Int) -> Bool {
    state.withLock { state in
      state.inFlight = inFlight
      settle(&state)
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
      guard state.pending.byteCount + unwritten <= state.limit else {
        state.accepting = false
        state.pending = OutboxChunks()
        return false
      }
      state.inFlight = unwritten
      return true
    }
  }

  /// Whether anything is waiting to be taken.
  var hasPending: Bool { state.withLock { !$0.pending.isEmpty } }

  /// The bytes pending and in flight: what the connection holds for its client.
  var queuedBytes: Int { state.withLock { $0.pending.byteCount + $0.inFlight } }

  /// Refuses every further append.
  func close() {
    state.withLock { state in
      state.accepting = false
      state.pending = OutboxChunks()
      state.inFlight = 0
      state.closed = true
      settle(&state)
    }
  }

  /// Brings the server-wide account up to what the outbox holds now. Under the outbox's lock.
  private func settle(_ state: inout OutboxState) {
    guard let account else { return }
    // A closed outbox holds nothing, whatever a send still in flight reports later.
    let held = state.closed ? 0 : state.pending.byteCount + state.inFlight
    account.add(held - state.accounted)
    state.accounted = held
  }

  private let state: Locked<OutboxState>
  private let account: QueuedOutput?
}

private struct OutboxState {
  var limit: Int
  var pending = OutboxChunks()
  var inFlight = 0
  /// What the server-wide account holds for this outbox.
  var accounted = 0
  var flushScheduled = false
  var accepting = true
  var closed = false
}
