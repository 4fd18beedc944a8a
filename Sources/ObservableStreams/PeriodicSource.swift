import Locking
import ObservableWire

/// A built-in stream that sends each observer a fresh value right after it subscribes, and then
/// every observer the same value once per interval, from one timer on a ``StreamScheduler``.
///
/// Each tick encodes the value once for all observers. The timer runs only while the stream
/// has observers, so an unobserved `clock` costs nothing.
package final class PeriodicSource: StreamSource {
  package let name: String
  package let kind = StreamKind.builtin

  /// Creates a source whose values `makeValue` encodes as JSON.
  package init(name: String, interval: Duration, makeValue: @escaping @Sendable () -> [UInt8]) {
    self.name = name
    self.interval = interval
    self.makeValue = makeValue
  }

  package var observerCount: Int { state.withLock { $0.observers.count } }

  package func attach(_ observer: StreamObserver, key: UInt64) {
    // Encoded outside the lock: making a value may take other locks (the counters').
    let line = encodedLine()
    let (first, loop) = state.withLock { state in
      state.observers.insert(observer, key: key)
      observer.next(line)
      return (state.observers.count == 1, state.scheduler)
    }
    if first { loop?.execute { [self] in startTicking() } }
  }

  package func detach(key: UInt64) {
    let (last, loop) = state.withLock { state in
      let removed = state.observers.remove(key: key)
      return (removed && state.observers.isEmpty, state.scheduler)
    }
    if last { loop?.execute { [self] in stopTickingIfUnobserved() } }
  }

  package func start(on scheduler: any StreamScheduler) {
    let observed = state.withLock { state in
      state.scheduler = scheduler
      return !state.observers.isEmpty
    }
    if observed { scheduler.execute { [self] in startTicking() } }
  }

  package func shutdown() {
    let loop = state.withLock { state in
      defer { state.scheduler = nil }
      return state.scheduler
    }
    loop?.execute { [self] in stopTicking() }
  }

  // MARK: Scheduler thread

  private func startTicking() {
    guard ticking == nil else { return }
    let loop = state.withLock { $0.observers.isEmpty ? nil : $0.scheduler }
    guard let loop else { return }
    scheduleTick(on: loop)
  }

  private func scheduleTick(on loop: any StreamScheduler) {
    ticking = loop.scheduleTimer(in: interval) { [self] in
      ticking = nil
      let line = encodedLine()
      let observed = state.withLock { state in
        state.observers.deliver(line)
        return !state.observers.isEmpty && state.scheduler != nil
      }
      if observed { scheduleTick(on: loop) }
    }
  }

  private func stopTickingIfUnobserved() {
    if state.withLock({ $0.observers.isEmpty }) { stopTicking() }
  }

  private func stopTicking() {
    ticking?.cancel()
    ticking = nil
  }

  private func encodedLine() -> [UInt8] {
    makeValue().withUnsafeBytes { DeliveryEncoder.line(stream: name, rawValue: $0) }
  }

  private let interval: Duration
  private let makeValue: @Sendable () -> [UInt8]
  private let state = Locked(PeriodicState())
  /// The pending tick; touched on the scheduler's thread only.
  nonisolated(unsafe) private var ticking: (any StreamTimer)?
}

/// A periodic source's observers and the scheduler its timer runs on.
private struct PeriodicState {
  var observers = ObserverSet()
  var scheduler: (any StreamScheduler)?
}
