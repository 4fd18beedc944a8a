import Locking
import ObservablePOSIX
import ObservableWire

/// A built-in stream that sends each observer a fresh value right after it subscribes, and then
/// every observer the same value once per interval, from one timer on an event loop.
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
      return (state.observers.count == 1, state.loop)
    }
    if first { loop?.execute { [self] in startTicking() } }
  }

  package func detach(key: UInt64) {
    let (last, loop) = state.withLock { state in
      let removed = state.observers.remove(key: key)
      return (removed && state.observers.isEmpty, state.loop)
    }
    if last { loop?.execute { [self] in stopTickingIfUnobserved() } }
  }

  package func start(on loop: EventLoop) {
    let observed = state.withLock { state in
      state.loop = loop
      return !state.observers.isEmpty
    }
    if observed { loop.execute { [self] in startTicking() } }
  }

  package func shutdown() {
    let loop = state.withLock { state in
      defer { state.loop = nil }
      return state.loop
    }
    loop?.execute { [self] in stopTicking() }
  }

  // MARK: Loop thread

  private func startTicking() {
    guard ticking == nil, state.withLock({ !$0.observers.isEmpty && $0.loop != nil }) else {
      return
    }
    scheduleTick()
  }

  private func scheduleTick() {
    guard let loop = EventLoop.current else { return }
    ticking = loop.schedule(in: interval) { [self] in
      ticking = nil
      let line = encodedLine()
      let observed = state.withLock { state in
        state.observers.deliver(line)
        return !state.observers.isEmpty && state.loop != nil
      }
      if observed { scheduleTick() }
    }
  }

  private func stopTickingIfUnobserved() {
    if state.withLock({ $0.observers.isEmpty }) { stopTicking() }
  }

  private func stopTicking() {
    guard let timer = ticking else { return }
    EventLoop.current?.cancel(timer)
    ticking = nil
  }

  private func encodedLine() -> [UInt8] {
    makeValue().withUnsafeBytes { DeliveryEncoder.line(stream: name, rawValue: $0) }
  }

  private let interval: Duration
  private let makeValue: @Sendable () -> [UInt8]
  private let state = Locked(PeriodicState())
  /// The pending tick; touched on the loop thread only.
  nonisolated(unsafe) private var ticking: LoopTimer?
}

/// A periodic source's observers and the loop its timer runs on.
private struct PeriodicState {
  var observers = ObserverSet()
  var loop: EventLoop?
}
