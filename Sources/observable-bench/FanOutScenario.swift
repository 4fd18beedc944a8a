import Glibc
import Histogram

/// Fan-out throughput: one publisher, N subscribers of one topic, messages published as fast
/// as the slowest subscriber allows.
///
/// The publisher stays at most `window` messages ahead of the slowest subscriber. Without that
/// bound a flat-out publisher fills every socket buffer, latency becomes the depth of those
/// buffers, and a subscriber that falls far enough behind is closed as a slow consumer; with
/// it, throughput is the same and nothing may be dropped, so every subscriber must receive
/// every message, in order.
struct FanOutScenario: Scenario {
  /// The sizes of one row; `--messages`, `--window` and `--payload-bytes` set them.
  struct Configuration: Sendable {
    var subscribers: Int
    var messages: Int
    var window: Int
    var payload: Payload
    /// How subscribers connect; the publisher always uses TCP.
    var transport: BenchTransport = .tcp
    /// The largest publisher write.
    var batchBytes = 64 * 1024
    /// How long without any progress before the run is declared stalled.
    var stallSeconds = 5.0
    /// The generated `--auth-file` the server starts with, whose users every connection
    /// authenticates as; `nil` for a server without authorization.
    var auth: BenchAuthFile?
  }

  let configuration: Configuration
  static let stream = "bench"

  var name: String { "fan-out" }

  var parameter: String {
    let count = configuration.subscribers
    let auth = configuration.auth.map { " (auth \($0.users) users x \($0.rulesPerUser) rules)" }
    return
      "\(count) subscriber\(count == 1 ? "" : "s")\(configuration.transport.label)\(auth ?? "")"
  }

  var serverNeeds: ServerNeeds {
    ServerNeeds(arguments: configuration.auth.map { ["--auth-file", $0.path] } ?? [])
  }

  /// Runs the scenario against `server` and returns its table row.
  func run(server: ServerUnderTest, deadline: Deadline) throws(BenchError) -> ResultRow {
    // Large reads while a whole window fits, smaller ones when thousands of subscribers would
    // otherwise take gigabytes of buffers.
    let readCapacity = max(16 * 1024, min(256 * 1024, (32 << 20) / configuration.subscribers))
    let subscribers = try (0..<configuration.subscribers).map { _ throws(BenchError) in
      try connectSubscriber(server, readCapacity: readCapacity, deadline: deadline)
    }
    let publisher = try ClientConnection(to: server.address)
    // SSE readers subscribe in their request's query, and cannot send `auth`.
    if configuration.transport != .serverSentEvents {
      if let auth = configuration.auth {
        try Handshake.run(subscribers, deadline: deadline) { auth.authLine(connection: $0) }
      }
      try Handshake.run(subscribers, deadline: deadline) { _ in LineShape.subscribe(Self.stream) }
    }
    if configuration.transport == .deflate {
      try Self.startCompression(subscribers, deadline: deadline)
    }
    // The publisher is the connection after the last subscriber, a user of its own.
    try Handshake.run([publisher], deadline: deadline) { _ in
      configuration.auth?.authLine(connection: subscribers.count)
    }

    let meter = CPUMeter(serverPID: server.pid)
    var run = FanOutRun(
      configuration: configuration, subscribers: subscribers, publisher: publisher)
    try run.measure(deadline: deadline)
    return run.row(cpu: meter.finish(), name: name, parameter: parameter)
  }
}
