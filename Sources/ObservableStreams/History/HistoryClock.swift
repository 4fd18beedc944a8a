/// The time kept with each history value, as plain nanoseconds on the continuous clock since
/// the process first asked: an `Int` is stored and compared without the run-time type
/// metadata that `ContinuousClock.Instant`, whose layout another module owns, costs in every
/// entry copied (about 90 instructions a value kept).
enum HistoryClock {
  /// Now, or 0 when no `--history-ttl` will read the time, so no clock is read.
  static func now(for timeToLive: Duration?) -> Int {
    guard timeToLive != nil else { return 0 }
    let origin = Self.origin
    return nanoseconds(ContinuousClock.now - origin)
  }

  /// `duration` in whole nanoseconds.
  static func nanoseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  }

  /// The instant the times count from.
  private static let origin = ContinuousClock.now
}
