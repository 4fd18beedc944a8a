import Glibc
import Histogram

/// Latency: a publisher paced at a fixed rate, a few subscribers, and the time from each write
/// to its arrival at each subscriber.
///
/// Paced, because at full speed latency is only the depth of the socket buffers. Both ends
/// read CLOCK_MONOTONIC on one machine, so the difference is meaningful; the receive time is
/// taken once per read(2), which may add a few microseconds to lines late in a large read.
struct LatencyScenario: Scenario {
  /// The load of the run; `--rate`, `--latency-subscribers` and `--latency-seconds` set it.
  struct Configuration: Sendable {
    var rate: Int
    var subscribers: Int
    var seconds: Double
    var payload: Payload
  }

  let configuration: Configuration
  static let stream = "latency"

  var name: String { "latency" }
  var parameter: String { "\(configuration.rate)/s × \(configuration.subscribers)" }

  func run(server: ServerUnderTest, deadline: Deadline) throws(BenchError) -> ResultRow {
    let subscribers = try (0..<configuration.subscribers).map { _ throws(BenchError) in
      try ClientConnection(to: server.address)
    }
    try Handshake.run(subscribers, deadline: deadline) { _ in LineShape.subscribe(Self.stream) }
    let messages = max(1, Int(Double(configuration.rate) * configuration.seconds))
    let meter = CPUMeter(serverPID: server.pid)
    let publisher = PacedPublisher(
      plan: .init(
        address: server.address, stream: Self.stream, payload: configuration.payload,
        rate: configuration.rate, messages: messages),
      deadline: deadline)

    let delivery = DeliveryLine(stream: Self.stream, payload: configuration.payload)
    var tallies = Array(repeating: SequenceTally(), count: subscribers.count)
    // One histogram per subscriber, merged at the end: nanoseconds, up to a minute, 3 digits.
    var histograms = Array(
      repeating: Histogram<UInt64>(highestTrackableValue: 60_000_000_000),
      count: subscribers.count)
    var errors = 0
    var firstError: String?
    var descriptors = subscribers.map {
      pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0)
    }
    var report: PacedPublisher.Report?
    var drainingSince: UInt64?
    var timedOut = false
    while true {
      if report == nil { report = publisher.report }
      let published = UInt64(publisher.published.load(ordering: .acquiring))
      if report != nil {
        if tallies.allSatisfy({ $0.next >= published }) { break }
        // Whatever has not arrived 2 s after the last publish is counted as lost.
        let since = drainingSince ?? MonotonicTime.now()
        drainingSince = since
        if MonotonicTime.seconds(from: since, to: MonotonicTime.now()) > 2 { break }
      }
      if deadline.hasPassed {
        timedOut = true
        break
      }
      let ready = poll(&descriptors, nfds_t(descriptors.count), deadline.pollTimeout(cappedAt: 20))
      if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
      guard ready > 0 else { continue }
      for index in subscribers.indices where descriptors[index].revents != 0 {
        let connection = subscribers[index]
        let outcome = try connection.read()
        let now = MonotonicTime.now()
        if case .closed = outcome {
          throw .unexpected("the server closed latency subscriber \(index)'s connection")
        }
        while let line = connection.nextLine() {
          if let sample = delivery.read(line) {
            tallies[index].record(sample.sequence)
            histograms[index].record(now > sample.time ? now - sample.time : 0)
          } else if line.hasPrefix(LineShape.okFalse) {
            errors += 1
            if firstError == nil { firstError = line.text }
          }
        }
      }
    }
    let cpu = meter.finish()
    // The publisher stops at the deadline too; its report follows shortly.
    while report == nil, !timedOut {
      usleep(1000)
      report = publisher.report
    }

    var merged = Histogram<UInt64>(highestTrackableValue: 60_000_000_000)
    for histogram in histograms { merged.add(histogram) }
    let published = UInt64(publisher.published.load(ordering: .acquiring))
    let lost = tallies.reduce(0) { $0 + $1.lost(of: published) }
    let duplicated = tallies.reduce(0) { $0 + $1.duplicated }
    var problems: [String] = []
    if let failure = report?.failure { problems.append(failure) }
    if timedOut { problems.append("timed out") }
    if lost > 0 { problems.append("lost \(lost)") }
    if duplicated > 0 { problems.append("duplicated \(duplicated)") }
    let publishErrors = report?.errors ?? 0
    if errors + publishErrors > 0 {
      problems.append(
        "\(errors + publishErrors) errors, first: \(firstError ?? report?.firstError ?? "?")")
    }
    let percentiles: [(String, Double)] = [
      ("p50", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9),
    ]
    let maximum = Double(merged.max) / 1000
    let result =
      percentiles.map { "\($0.0) \(Format.microseconds(merged.microseconds(at: $0.1)))" }
      .joined(separator: "  ") + "  max \(Format.microseconds(maximum))"
    return ResultRow(
      scenario: name, parameter: parameter,
      result: result,
      problems: problems,
      cpu: cpu,
      metrics: [
        "rate": Double(configuration.rate), "subscribers": Double(configuration.subscribers),
        "published": Double(published), "samples": Double(merged.totalCount),
        "lost": Double(lost), "dup": Double(duplicated),
        "p50_us": merged.microseconds(at: 50), "p90_us": merged.microseconds(at: 90),
        "p99_us": merged.microseconds(at: 99), "p999_us": merged.microseconds(at: 99.9),
        "max_us": maximum, "min_us": Double(merged.min) / 1000, "mean_us": merged.mean / 1000,
        "max_schedule_lag_us": Double(report?.maxScheduleLag ?? 0) / 1000,
      ])
  }
}
