/// When a paced publisher's messages fall due: message `n` at `start + n × interval`, on
/// CLOCK_MONOTONIC. ``PacedPublisher`` and ``PeerPacedPublisher`` share it, so every server in a
/// latency comparison is paced alike.
struct PublishSchedule {
  /// When the first message fell due.
  let start: UInt64
  /// Nanoseconds between two messages.
  let interval: Double
  /// How many messages there are in all.
  let messages: Int

  /// A schedule of `messages` at `rate` a second, starting now.
  init(rate: Int, messages: Int) {
    start = MonotonicTime.now()
    interval = 1e9 / Double(rate)
    self.messages = messages
  }

  /// How many messages are due by `now`, counting the first at once.
  func due(at now: UInt64) -> Int {
    min(messages, Int(Double(now - start) / interval) + 1)
  }

  /// How late message `index` is at `now`; 0 when it is not due yet.
  func lag(of index: Int, at now: UInt64) -> UInt64 {
    let scheduled = dueTime(of: index)
    return now > scheduled ? now - scheduled : 0
  }

  /// Sleeps until message `index` falls due.
  func sleep(untilDue index: Int) {
    MonotonicTime.sleep(until: dueTime(of: index))
  }

  private func dueTime(of index: Int) -> UInt64 {
    start + UInt64(Double(index) * interval)
  }
}
