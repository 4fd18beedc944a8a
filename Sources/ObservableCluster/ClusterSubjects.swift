import ObservableStreams

/// The NATS subjects and JetStream names of one cluster prefix.
///
/// Topic names and patterns are tokens joined by dots, with `*` and `>` as NATS has them, so a
/// topic maps to a subject by adding the prefix and nothing needs escaping.
package struct ClusterSubjects: Sendable {
  /// The prefix of live values, `obs`.
  let live: String
  /// The prefix of stored retained values, `obs-retained`.
  let retained: String
  /// The JetStream stream that holds the retained values, `OBS_RETAINED`.
  let stream: String
  /// The JetStream stream that keeps the live values as topic history, `OBS_HISTORY`.
  let historyStream: String

  /// The subjects and stream of `prefix`, a valid name.
  init(prefix: String) {
    live = prefix
    retained = prefix + "-retained"
    let upper = prefix.uppercased().map { $0 == "." || $0 == "-" ? "_" : $0 }
    stream = String(upper) + "_RETAINED"
    historyStream = String(upper) + "_HISTORY"
  }

  /// The subject live values of `name` (a topic or a pattern) travel on.
  func live(_ name: String) -> String { live + "." + name }

  /// The subject the retained value of `name` (a topic or a pattern) is stored under.
  func retained(_ name: String) -> String { retained + "." + name }

  /// The topic of a live subject, or `nil` for a subject outside the prefix.
  func topic(ofLive subject: String) -> String? {
    strip(live, from: subject)
  }

  /// The topic of a stored subject, or `nil` for a subject outside the prefix.
  func topic(ofRetained subject: String) -> String? {
    strip(retained, from: subject)
  }

  private func strip(_ prefix: String, from subject: String) -> String? {
    let utf8 = subject.utf8
    let count = prefix.utf8.count
    guard utf8.count > count + 1, utf8.starts(with: prefix.utf8),
      utf8[utf8.index(utf8.startIndex, offsetBy: count)] == UInt8(ascii: ".")
    else { return nil }
    return String(subject.utf8.dropFirst(count + 1))
  }
}
