import Dispatch
import Locking

/// Which connections the server takes: at most a given number at once, and none once it
/// shuts down. Shared by every listener of one server.
final class Admission: Sendable {
  init(limit: Int, counters: ServerCounters) {
    self.limit = limit
    self.counters = counters
  }

  /// The most connections open at once.
  let limit: Int

  /// Counts a new connection in, unless the server is full or shutting down (and the
  /// connection is not one that answers during shutdown, as HTTP does).
  func admit(duringShutdown: Bool = false) -> Bool {
    let admitted = state.withLock { state in
      guard state.accepting || duringShutdown, state.open < limit else { return false }
      state.open += 1
      return true
    }
    if admitted {
      counters.update {
        $0.connections += 1
        $0.connectionsTotal += 1
      }
    }
    return admitted
  }

  /// Counts a closed connection out.
  func release() {
    let last = state.withLock { state in
      state.open -= 1
      return state.open == 0 && !state.accepting
    }
    counters.update { $0.connections -= 1 }
    if last { allClosed.signal() }
  }

  /// Takes no connection from now on.
  func close() {
    let none = state.withLock { state in
      state.accepting = false
      return state.open == 0
    }
    if none { allClosed.signal() }
  }

  /// After ``close()``, waits until every connection has closed, up to `timeout`; returns
  /// whether they all did.
  func waitUntilAllClosed(timeout: Duration) -> Bool {
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    return allClosed.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
  }

  /// Whether new connections are still taken.
  var isAccepting: Bool { state.withLock { $0.accepting } }

  /// How many connections are open.
  var openCount: Int { state.withLock { $0.open } }

  private let counters: ServerCounters
  private let state = Locked(AdmissionState())
  /// Signalled once, when the last connection closes after ``close()``.
  private let allClosed = DispatchSemaphore(value: 0)
}

private struct AdmissionState {
  var open = 0
  var accepting = true
}
