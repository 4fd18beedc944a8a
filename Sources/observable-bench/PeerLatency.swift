import Glibc
import Histogram
import PeerWire

/// One latency measurement of one compared server (`--scenario latency --peers …`): a
/// publisher paced at a fixed rate, a few subscribers of its topic, and the time from each
/// publish's write to its arrival at each subscriber, in the server's own protocol and with
/// the same client code for every server.
///
/// The arrival time is read once per subscriber per poll(2) wake-up, just before that
/// subscriber's socket is read, so a value late in a large read is not counted later than the
/// wake-up that found it.
struct PeerLatency {
  let server: ComparedServer
  /// The server, already started and accepting connections.
  let process: PeerProcess
  let configuration: LatencyScenario.Configuration
  /// The topic of the run.
  static let stream = "latency"

  /// Connects, opens every subscriber, publishes for the configured time and reads until
  /// every value has arrived everywhere (or 2 s after the last publish).
  func run(deadline: Deadline) throws(BenchError) -> ResultRow {
    let subscribers = try (0..<configuration.subscribers).map { _ throws(BenchError) in
      try PeerConnection(
        port: process.port, dialect: server.dialect, tls: nil, stream: Self.stream)
    }
    try PeerOpening.run(
      subscribers, streams: { _ in Self.stream }, tls: false, deadline: deadline)
    let messages = max(1, Int(Double(configuration.rate) * configuration.seconds))
    guard let before = process.scheduling() else {
      throw .server("\(server.rawValue): /proc/\(process.pid)/task is unreadable")
    }
    let started = MonotonicTime.now()
    let publisher = PeerPacedPublisher(
      plan: .init(
        port: process.port, dialect: server.dialect, stream: Self.stream,
        payload: configuration.payload, rate: configuration.rate, messages: messages,
        clientID: subscribers.count),
      deadline: deadline)
    var samples = LatencySamples(subscribers: subscribers.count)
    var report: PacedPublisher.Report?
    var drainingSince: UInt64?
    var descriptors = subscribers.map {
      pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0)
    }
    while true {
      if report == nil { report = publisher.report }
      let published = UInt64(publisher.published.load(ordering: .acquiring))
      if report != nil {
        if samples.allArrived(of: published) { break }
        // Whatever has not arrived 2 s after the last publish is counted as lost.
        let since = drainingSince ?? MonotonicTime.now()
        drainingSince = since
        if MonotonicTime.seconds(from: since, to: MonotonicTime.now()) > 2 { break }
      }
      if deadline.hasPassed {
        samples.problems.append("timed out")
        break
      }
      let ready = poll(&descriptors, nfds_t(descriptors.count), deadline.pollTimeout(cappedAt: 20))
      if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
      guard ready > 0 else { continue }
      for index in subscribers.indices where descriptors[index].revents != 0 {
        let connection = subscribers[index]
        let now = MonotonicTime.now()
        let open = try connection.read { message in samples.record(message, at: now, by: index) }
        if connection.hasPendingOutput { try connection.flush() }
        guard open else {
          throw .unexpected("the server closed latency subscriber \(index)'s connection")
        }
      }
    }
    let after = process.scheduling() ?? before
    let wall = MonotonicTime.seconds(from: started, to: MonotonicTime.now())
    // The publisher stops at the deadline too; its report follows shortly.
    while report == nil, !deadline.hasPassed {
      usleep(1000)
      report = publisher.report
    }
    var row = samples.row(
      published: UInt64(publisher.published.load(ordering: .acquiring)), publisher: report,
      parameter: "\(configuration.rate)/s × \(configuration.subscribers), \(server.rawValue)")
    let serverSeconds = Double(after.running &- before.running) / 1e9
    row.serverCPUPercent = wall > 0 ? serverSeconds / wall * 100 : nil
    row.metrics["server_cpu_s"] = serverSeconds
    // Time the server was ready to run but had no CPU: on a shared machine, where the tails
    // come from.
    row.metrics["server_runqueue_ms"] = Double(after.waiting &- before.waiting) / 1e6
    row.metrics["server_slices"] = Double(after.slices &- before.slices)
    row.result +=
      "  server cpu \(Format.decimal(serverSeconds * 1000)) ms, waited for a cpu"
      + " \(Format.decimal(Double(after.waiting &- before.waiting) / 1e6)) ms"
    row.peer = server.rawValue
    return row
  }
}
