/// How far a fan-out publisher may run ahead of its slowest subscriber, and how much it writes
/// at once.
///
/// Without the bound a flat-out publisher fills every socket buffer and a subscriber that
/// falls far enough behind is closed as a slow consumer; with it, throughput is the same and
/// nothing may be dropped.
struct PublishWindow {
  /// Most messages published but not yet received by the slowest subscriber.
  let window: Int
  /// Most messages in one write.
  let linesPerBatch: Int
  /// Messages in the whole run.
  let total: UInt64

  init(window: Int, lineBytes: Int, batchBytes: Int, total: UInt64) {
    self.window = window
    linesPerBatch = max(1, batchBytes / lineBytes)
    self.total = total
  }

  /// How many messages to publish now, `published` so far and the slowest subscriber expecting
  /// `slowest` next; 0 means wait for room. Waiting for a quarter window of room keeps writes
  /// large when subscribers lag.
  func nextBatch(published: UInt64, slowest: UInt64) -> UInt64 {
    let inFlight = published - min(slowest, published)
    let room = UInt64(window) - min(inFlight, UInt64(window))
    let count = min(room, UInt64(linesPerBatch), total - published)
    let lowWater = UInt64(max(1, min(window / 4, linesPerBatch)))
    return count > 0 && (count >= lowWater || published + count == total) ? count : 0
  }
}
