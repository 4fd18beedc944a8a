import Locking
import Synchronization

/// The bytes queued for every connection of one server together, bounded by
/// `--max-total-queued-bytes`.
///
/// Each connection's ``Outbox`` is bounded on its own, but hundreds of subscribers that read
/// nothing can each fill theirs (500 × 8 MiB held 5.5 GB). Outboxes add what they hold to one
/// atomic total, which costs an enqueue no lock. Once the total passes the bound, connections
/// read only a little each turn, so publishers add little, and ``QueuedOutputCut`` closes the
/// connections with the largest queues on every loop as slow consumers until the total is back
/// under the low-water mark. Should a single read still fan out far past the bound, appends are
/// refused past a hard ceiling, and the connection refused is closed as a slow consumer.
package final class QueuedOutput: Sendable {
  /// An account for `limit` bytes.
  package init(limit: Int) {
    self.limit = limit
    lowWater = limit - limit / 4
    ceiling = limit + limit / 4
  }

  /// The bound: past it, connections read little and the largest queues are cut.
  let limit: Int
  /// Where cutting stops: a quarter under the bound, so the next cut is not one value away.
  let lowWater: Int
  /// Past this, appends are refused outright, whatever the queue's size.
  let ceiling: Int

  /// Counts the chunk references the server's outboxes and writers hold, in a debug build.
  package let chunkCensus = ChunkCensus()

  /// The bytes queued now, across every connection.
  var bytes: Int { total.load(ordering: .relaxed) }

  /// Whether the bound is passed: reads are small, and a cut is due.
  var isOverLimit: Bool { bytes > limit }

  /// Adds `delta` (negative for bytes written or dropped) to the total.
  func add(_ delta: Int) {
    guard delta != 0 else { return }
    total.add(delta, ordering: .relaxed)
  }

  /// Whether `count` more bytes would pass the hard ceiling.
  func wouldPassCeiling(adding count: Int) -> Bool {
    bytes + count > ceiling
  }

  /// Gives the account the loops whose connections a cut closes; once, when the server starts.
  package func serve(_ loops: [ConnectionLoop]) {
    self.loops.withLock { $0 = loops }
  }

  /// Closes the largest queues on every loop until the total is under the low-water mark,
  /// unless a cut is already under way.
  func cutIfOverLimit() {
    guard isOverLimit else { return }
    guard cutting.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    else { return }
    let loops = self.loops.withLock { $0 }
    guard !loops.isEmpty else {
      cutting.store(false, ordering: .releasing)
      return
    }
    let remaining = Atomic<Int>(loops.count)
    for home in loops {
      home.loop.execute { [self] in
        QueuedOutputCut.closeLargest(on: home, until: lowWater, account: self)
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
          cutting.store(false, ordering: .releasing)
          // Bytes queued while the cut ran can have passed the bound again.
          cutIfOverLimit()
        }
      }
    }
  }

  private let total = Atomic<Int>(0)
  private let cutting = Atomic<Bool>(false)
  private let loops = Locked<[ConnectionLoop]>([])
}
