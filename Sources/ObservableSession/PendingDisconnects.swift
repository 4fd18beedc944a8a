/// The subscriptions of ended sessions on one loop whose disconnects have yet to run, run a slice
/// per loop turn.
///
/// Closing a connection that held a million subscriptions ran a million disconnects in one turn,
/// and every client of the loop waited 1.86 s. Here a session's subscriptions are handed over
/// when it ends (the client sees its socket closed at once), and the loop runs at most
/// ``sliceSize`` disconnects per turn, serving its other connections in between. Each
/// subscription is taken out before it is unsubscribed, so its disconnect runs exactly once;
/// ``runAll()`` runs whatever is left when the server stops, so none is lost.
package final class PendingDisconnects: @unchecked Sendable {
  // Unchecked: made with its loop, then used on that loop's thread only.

  /// Disconnects run per loop turn: about 2 ms at the 1.86 µs each measured for a million, so a
  /// bystander's request waits a few milliseconds (on a loaded two-core machine, 2,000 a turn
  /// let a ping wait up to 51 ms). A session with no more than this many subscriptions is
  /// ended at once, as before.
  static let sliceSize = 1_000

  package init(loop: any SessionLoop) {
    self.loop = loop
  }

  /// Takes `subscriptions`, leaving them empty, and runs their disconnects: at once when they
  /// are few and nothing waits, else a slice per turn from the next one on.
  func add(_ subscriptions: inout SessionSubscriptions) {
    guard !subscriptions.isEmpty else { return }
    var taken = SessionSubscriptions()
    swap(&taken, &subscriptions)
    if waiting.isEmpty, taken.count <= Self.sliceSize {
      while let subscription = taken.popLast() { subscription.unsubscribe() }
      return
    }
    waiting.append(taken)
    scheduleSlice()
  }

  /// How many disconnects wait.
  var count: Int { waiting.reduce(0) { $0 + $1.count } }

  /// Runs every waiting disconnect now, as the server stops.
  package func runAll() {
    while !waiting.isEmpty { runSlice(limit: .max) }
  }

  private func scheduleSlice() {
    guard !sliceScheduled else { return }
    sliceScheduled = true
    // A task queued by a task runs in the next turn, after the sockets that are ready.
    loop.execute { [self] in
      sliceScheduled = false
      runSlice(limit: Self.sliceSize)
      if !waiting.isEmpty { scheduleSlice() }
    }
  }

  /// Runs up to `limit` disconnects, oldest session first.
  private func runSlice(limit: Int) {
    var remaining = limit
    while remaining > 0, !waiting.isEmpty {
      guard let subscription = waiting[0].popLast() else {
        waiting.removeFirst()
        continue
      }
      subscription.unsubscribe()
      remaining -= 1
    }
    if waiting.first?.isEmpty == true { waiting.removeFirst() }
  }

  private let loop: any SessionLoop
  private var waiting: [SessionSubscriptions] = []
  private var sliceScheduled = false
}
