import Glibc

/// The wall-clock time of a log line as RFC 3339 in UTC with milliseconds,
/// `2026-11-23T17:00:00.123Z`, which every log shipper parses and sorts as text.
package enum LogTimestamp {
  /// Now, formatted. `gmtime_r` rather than a `DateFormatter`, which is neither cheap nor
  /// documented as safe to share between the threads that log.
  package static func now() -> String {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return format(seconds: spec.tv_sec, milliseconds: Int(spec.tv_nsec / 1_000_000))
  }

  /// `seconds` since the epoch plus `milliseconds`, formatted.
  package static func format(seconds: Int, milliseconds: Int) -> String {
    var time = seconds
    var parts = tm()
    gmtime_r(&time, &parts)
    return pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-"
      + pad(Int(parts.tm_mday), 2) + "T" + pad(Int(parts.tm_hour), 2) + ":"
      + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2) + "."
      + pad(milliseconds, 3) + "Z"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
