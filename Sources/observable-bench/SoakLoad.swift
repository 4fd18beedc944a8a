import Glibc

/// Keeps a number of soak clients at work on the server for a while, replacing each one that
/// leaves, then lets the last ones leave as their plans say.
///
/// One thread drives every client through poll(2) with a 10 ms tick, so the load is bounded by
/// the client count and by each plan's own limits, and costs the shared machine little.
struct SoakLoad {
  var address: LoopbackAddress
  var token: String?
  var clients: Int
  var clearSupported: Bool

  /// Most clients opened in one turn of the loop, so that a start or the replacement of many
  /// at once does not become a connection storm.
  private let openedPerTurn = 20
  /// How long clients may take to leave once the phase is over before they are reset.
  private let leavingGrace: UInt64 = 25_000_000_000

  /// Runs clients for `seconds`, then until every one has left; their figures go to `tally`.
  /// `stats` is drained twice a second meanwhile, so its values do not pile up unread.
  func run(
    seconds: Double, deadline: Deadline, stats: StatsFeed, tally: inout SoakTally
  ) throws(BenchError) {
    var drainedAt: UInt64 = 0
    var random = SystemRandomNumberGenerator()
    var active: [SoakClient] = []
    var descriptors: [pollfd] = []
    let end = MonotonicTime.now() + UInt64(seconds * 1e9)
    var leavingUntil: UInt64?
    while true {
      let now = MonotonicTime.now()
      if now - drainedAt > 500_000_000 {
        try stats.drain()
        drainedAt = now
      }
      if deadline.hasPassed {
        for client in active { client.force(tally: &tally) }
        throw .timedOut("soaking: \(active.count) clients still open")
      }
      if now >= end, leavingUntil == nil {
        leavingUntil = now + leavingGrace
        for client in active { client.finish() }
      }
      if let leavingUntil {
        if active.isEmpty { return }
        if now > leavingUntil {
          for client in active { client.force(tally: &tally) }
          return
        }
      } else {
        for _ in 0..<min(openedPerTurn, clients - active.count) {
          let plan = SoakPlan.random(
            withToken: token != nil, clearSupported: clearSupported, using: &random)
          active.append(
            try SoakClient(plan: plan, address: address, token: token, now: now, tally: &tally))
        }
      }
      for client in active { client.tick(now: now, tally: &tally) }
      active.removeAll { $0.isDone }
      descriptors.removeAll(keepingCapacity: true)
      for client in active {
        descriptors.append(pollfd(fd: client.descriptor, events: client.pollEvents, revents: 0))
      }
      let ready = poll(&descriptors, nfds_t(descriptors.count), deadline.pollTimeout(cappedAt: 10))
      if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
      if ready > 0 {
        let woken = MonotonicTime.now()
        for (index, client) in active.enumerated() where descriptors[index].revents != 0 {
          client.handle(events: descriptors[index].revents, now: woken, tally: &tally)
        }
      }
      active.removeAll { $0.isDone }
    }
  }
}
