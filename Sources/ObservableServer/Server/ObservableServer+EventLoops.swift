import Locking
import ObservablePOSIX
import ObservableTransport

/// What the running server's event loops hold, for health checks and tests.
extension ObservableServer {
  /// Calls `body` once every event loop has run a task, which shows none of them is stuck.
  func whenEventLoopsRespond(_ body: @escaping @Sendable () -> Void) {
    guard let loops = running.withLock({ $0?.loops }), !loops.isEmpty else { return }
    let remaining = Locked(loops.count)
    for home in loops {
      home.loop.execute {
        let last = remaining.withLock { count in
          count -= 1
          return count == 0
        }
        if last { body() }
      }
    }
  }

  /// The running event loops, first the one that accepts connections, which also runs the
  /// server's own periodic work such as the systemd timers; empty unless the server runs.
  var eventLoops: [EventLoop] { running.withLock { $0?.loops.map(\.loop) } ?? [] }

  /// The running event loops with their connections.
  var connectionLoops: [ConnectionLoop] { running.withLock { $0?.loops } ?? [] }

  /// The connections open now, gathered on their loops.
  var openConnections: [Connection] {
    let loops = running.withLock { $0?.loops } ?? []
    let gathered = Locked<[Connection]>([])
    for home in loops {
      try? home.loop.submitAndWait {
        let open = home.connections.all
        gathered.withLock { $0 += open }
      }
    }
    return gathered.withLock { $0 }
  }
}
