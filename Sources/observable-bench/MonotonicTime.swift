import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the clock both ends of a latency sample read, so that the
/// difference means something even though the payload crosses a process boundary.
enum MonotonicTime {
  /// Now, in nanoseconds since an arbitrary point (boot).
  @inline(__always)
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }

  /// Seconds between two readings.
  static func seconds(from start: UInt64, to end: UInt64) -> Double {
    Double(end &- start) / 1e9
  }

  /// Sleeps until the clock reads `time`; a time in the past returns at once.
  static func sleep(until time: UInt64) {
    var target = timespec(tv_sec: Int(time / 1_000_000_000), tv_nsec: Int(time % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
  }
}

/// The moment the whole run must end by, from `--timeout`.
///
/// Every wait in the benchmark is bounded by it, so a server that stops answering turns into a
/// "timed out" row rather than a benchmark that hangs.
struct Deadline: Sendable {
  /// The end, in ``MonotonicTime`` nanoseconds.
  let end: UInt64

  /// A deadline `seconds` from now.
  init(secondsFromNow seconds: Double) {
    end = MonotonicTime.now() + UInt64(seconds * 1e9)
  }

  var hasPassed: Bool { MonotonicTime.now() >= end }

  /// Seconds until the deadline, 0 once it has passed.
  var secondsLeft: Double {
    let now = MonotonicTime.now()
    return now < end ? Double(end - now) / 1e9 : 0
  }

  /// A poll(2) timeout: `cap` milliseconds, or less when the deadline is nearer.
  func pollTimeout(cappedAt cap: Int32 = 100) -> Int32 {
    let now = MonotonicTime.now()
    guard now < end else { return 0 }
    return Int32(min(UInt64(cap), (end - now + 999_999) / 1_000_000))
  }

  /// Throws ``BenchError/timedOut(_:)`` naming `activity` once the deadline has passed.
  func check(_ activity: @autoclosure () -> String) throws(BenchError) {
    if hasPassed { throw .timedOut(activity()) }
  }
}
