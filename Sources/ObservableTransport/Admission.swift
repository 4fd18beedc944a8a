import Dispatch
import Locking
import ObservableCounters

/// Which connections the server takes: at most a given number at once of each kind, and none
/// once it shuts down. Shared by every listener of one server.
///
/// HTTP connections, WebSocket ones included, have a limit of their own: clients that send a
/// request head slowly (slowloris) could otherwise hold every slot for the head timeout, again
/// and again, and lock the line protocol's clients out. A limit per address would not do: such
/// clients come from many addresses, and behind a proxy every client has the same one.
package final class Admission: Sendable {
  /// The limit a connection counts against: the one of the port it came through.
  package enum Slots: Sendable {
    /// The line protocol's ports (`--listen`): `--max-connections`.
    case line
    /// The HTTP ports (`--http`), WebSocket connections included: `--max-http-connections`.
    case http
  }

  package init(limit: Int, httpLimit: Int, counters: ServerCounters) {
    self.limit = limit
    self.httpLimit = httpLimit
    self.counters = counters
  }

  /// The most line protocol connections open at once.
  let limit: Int
  /// The most HTTP connections open at once.
  let httpLimit: Int

  /// The limit of `slots`.
  func limit(of slots: Slots) -> Int {
    switch slots {
    case .line: limit
    case .http: httpLimit
    }
  }

  /// Counts a new connection in, unless its kind is at its limit or the server shuts down (and
  /// the connection is not one that answers during shutdown, as HTTP does).
  func admit(_ slots: Slots, duringShutdown: Bool = false) -> Bool {
    let admitted = state.withLock { state in
      guard state.accepting || duringShutdown, state.open[slots] < limit(of: slots) else {
        return false
      }
      state.open[slots] += 1
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
  func release(_ slots: Slots) {
    let last = state.withLock { state in
      state.open[slots] -= 1
      return state.open.total == 0 && !state.accepting
    }
    counters.update { $0.connections -= 1 }
    if last { allClosed.signal() }
  }

  /// Takes no connection from now on.
  package func close() {
    let none = state.withLock { state in
      state.accepting = false
      return state.open.total == 0
    }
    if none { allClosed.signal() }
  }

  /// After ``close()``, waits until every connection has closed, up to `timeout`; returns
  /// whether they all did.
  package func waitUntilAllClosed(timeout: Duration) -> Bool {
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    return allClosed.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
  }

  /// Whether new connections are still taken.
  package var isAccepting: Bool { state.withLock { $0.accepting } }

  /// How many connections are open, of both kinds.
  package var openCount: Int { state.withLock { $0.open.total } }

  private let counters: ServerCounters
  private let state = Locked(AdmissionState())
  /// Signalled once, when the last connection closes after ``close()``.
  private let allClosed = DispatchSemaphore(value: 0)
}

private struct AdmissionState {
  var open = ConnectionsByKind()
  var accepting = true
}

/// How many connections of each kind are open.
private struct ConnectionsByKind {
  var line = 0
  var http = 0

  var total: Int { line + http }

  subscript(slots: Admission.Slots) -> Int {
    get {
      switch slots {
      case .line: line
      case .http: http
      }
    }
    set {
      switch slots {
      case .line: line = newValue
      case .http: http = newValue
      }
    }
  }
}
