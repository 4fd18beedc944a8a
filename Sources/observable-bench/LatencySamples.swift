import Histogram
import PeerWire

/// What the latency comparison's subscribers received: each value's delay into one histogram
/// per subscriber, and each subscriber's sequence numbers for loss and duplicates.
struct LatencySamples {
  /// What went wrong, for the row's failure.
  var problems: [String] = []

  init(subscribers: Int) {
    tallies = Array(repeating: SequenceTally(), count: subscribers)
    // Nanoseconds, up to a minute, 3 significant digits.
    histograms = Array(
      repeating: Histogram<UInt64>(highestTrackableValue: 60_000_000_000), count: subscribers)
  }

  /// Whether every subscriber has every one of the first `published` values.
  func allArrived(of published: UInt64) -> Bool {
    tallies.allSatisfy { $0.next >= published }
  }

  /// Records what subscriber `index` received at `now`.
  mutating func record(_ message: PeerMessage, at now: UInt64, by index: Int) {
    switch message {
    case .delivery(let payload):
      guard payload.count >= Payload.timeOffset + Payload.timeDigits,
        let sequence = Payload.readDigits(
          payload.baseAddress! + Payload.sequenceOffset, count: Payload.sequenceDigits),
        let time = Payload.readDigits(
          payload.baseAddress! + Payload.timeOffset, count: Payload.timeDigits)
      else {
        note("a delivery not of the benchmark's shape")
        return
      }
      tallies[index].record(sequence)
      histograms[index].record(now > time ? now - time : 0)
    case .refused(let text): note("refused: \(text)")
    default: break
    }
  }

  /// The table's row: percentiles of every subscriber's delays merged, loss and errors.
  func row(published: UInt64, publisher: PacedPublisher.Report?, parameter: String) -> ResultRow {
    var merged = Histogram<UInt64>(highestTrackableValue: 60_000_000_000)
    for histogram in histograms { merged.add(histogram) }
    let lost = tallies.reduce(0) { $0 + $1.lost(of: published) }
    let duplicated = tallies.reduce(0) { $0 + $1.duplicated }
    var problems = problems
    if let failure = publisher?.failure { problems.append(failure) }
    if publisher == nil { problems.append("the publisher did not finish") }
    if lost > 0 { problems.append("lost \(lost)") }
    if duplicated > 0 { problems.append("duplicated \(duplicated)") }
    if let publisher, publisher.errors > 0 {
      problems.append("\(publisher.errors) errors, first: \(publisher.firstError ?? "?")")
    }
    let maximum = Double(merged.max) / 1000
    let result =
      [("p50", 50.0), ("p90", 90), ("p99", 99), ("p99.9", 99.9)]
      .map { "\($0.0) \(Format.microseconds(merged.microseconds(at: $0.1)))" }
      .joined(separator: "  ") + "  max \(Format.microseconds(maximum))"
    return ResultRow(
      scenario: "latency", parameter: parameter, result: result, problems: problems,
      metrics: [
        "published": Double(published), "samples": Double(merged.totalCount),
        "lost": Double(lost), "dup": Double(duplicated),
        "p50_us": merged.microseconds(at: 50), "p90_us": merged.microseconds(at: 90),
        "p99_us": merged.microseconds(at: 99), "p999_us": merged.microseconds(at: 99.9),
        "max_us": maximum, "mean_us": merged.mean / 1000,
        "max_schedule_lag_us": Double(publisher?.maxScheduleLag ?? 0) / 1000,
      ])
  }

  private var tallies: [SequenceTally]
  private var histograms: [Histogram<UInt64>]

  private mutating func note(_ problem: String) {
    if problems.count < 5 { problems.append(problem) }
  }
}
