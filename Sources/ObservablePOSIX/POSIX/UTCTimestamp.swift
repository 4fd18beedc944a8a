import Glibc

/// The current time as ISO 8601 in UTC to the second (`2026-11-23T11:40:01Z`), the `clock`
/// stream's value.
///
/// Formatted from `gmtime_r` rather than Foundation's date formatting, which would link
/// Foundation and its ICU data into the server for one string a second.
package enum UTCTimestamp {
  /// The time now.
  package static func now() -> String {
    format(secondsSinceEpoch: time(nil))
  }

  /// The time `secondsSinceEpoch` seconds after 1970-01-01T00:00:00Z.
  package static func format(secondsSinceEpoch: Int) -> String {
    var seconds = time_t(secondsSinceEpoch)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}
