import CLinux
import Glibc
import Locking
import ObservablePOSIX

/// The changes waiting for the writer thread: bounded, taken a whole queue at a time.
///
/// Enqueuing never blocks and makes no system call unless the writer sleeps; the writer sleeps
/// in a blocking read of an eventfd, which an enqueue or the close writes to.
final class WriteQueue: Sendable {
  /// Changes enqueued together, with the completion that learns their outcome.
  struct Pending: Sendable {
    var changes: [StoreChange]
    var completion: (@Sendable (StoreWriteOutcome) -> Void)?
  }

  private struct State {
    var pending: [Pending] = []
    var changeCount = 0
    var byteCount = 0
    var closed = false
    var writerAsleep = false
  }

  /// The most changes that may wait at once; the batch being written does not count.
  let limit: Int
  /// The most bytes (``StoreChange/bytes``) they may hold at once.
  let byteLimit: Int
  private let state = Locked(State())
  private let wakeup: Int32

  /// An empty queue of at most `limit` changes holding at most `byteLimit` bytes.
  init(limit: Int, byteLimit: Int) throws(SystemError) {
    self.limit = limit
    self.byteLimit = byteLimit
    wakeup = try blockingSyscall("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) }
  }

  deinit {
    Glibc.close(wakeup)
  }

  /// Adds `changes`, unless that would pass a limit (a group larger than a limit is
  /// taken when the queue is empty, so that it can ever be written) or the queue is closed.
  func enqueue(_ changes: [StoreChange], completion: (@Sendable (StoreWriteOutcome) -> Void)?)
    -> EnqueueOutcome
  {
    let (outcome, wake) = state.withLock { state -> (EnqueueOutcome, Bool) in
      if state.closed { return (.closed, false) }
      let bytes = changes.reduce(0) { $0 + $1.bytes }
      if state.changeCount > 0,
        state.changeCount + changes.count > limit || state.byteCount + bytes > byteLimit
      {
        return (.full, false)
      }
      state.pending.append(Pending(changes: changes, completion: completion))
      state.changeCount += changes.count
      state.byteCount += bytes
      defer { state.writerAsleep = false }
      return (.queued, state.writerAsleep)
    }
    if wake { signal() }
    return outcome
  }

  /// Refuses further changes; the writer takes what is queued, then ``take()`` returns `nil`.
  func close() {
    let wake = state.withLock { state in
      state.closed = true
      defer { state.writerAsleep = false }
      return state.writerAsleep
    }
    if wake { signal() }
  }

  /// Everything queued, waiting for some when there is none; `nil` once the queue is closed
  /// and empty. For the writer thread only.
  func take() -> [Pending]? {
    while true {
      let taken = state.withLock { state -> [Pending]? in
        if !state.pending.isEmpty {
          defer {
            state.pending = []
            state.changeCount = 0
            state.byteCount = 0
          }
          return state.pending
        }
        if state.closed { return [] }
        state.writerAsleep = true
        return nil
      }
      if let taken { return taken.isEmpty ? nil : taken }
      var count: UInt64 = 0
      _ = try? blockingSyscall("read(eventfd)") { Glibc.read(wakeup, &count, 8) }
    }
  }

  private func signal() {
    var one: UInt64 = 1
    _ = try? blockingSyscall("write(eventfd)") { Glibc.write(wakeup, &one, 8) }
  }
}
