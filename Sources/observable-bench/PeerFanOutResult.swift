/// What ``PeerFanOut`` measured for one server at one subscriber count.
struct PeerFanOutResult: Sendable {
  let server: ComparedServer
  /// Whether every connection was over TLS.
  let tls: Bool
  let subscribers: Int
  let published: UInt64
  /// Deliveries over all subscribers.
  let delivered: Int
  /// Messages published that some subscriber never received, summed over subscribers.
  let lost: UInt64
  let duplicated: Int
  /// From the first publish to the last delivery.
  let elapsedSeconds: Double
  /// The server's CPU time over the run, in nanoseconds.
  let serverNanoseconds: Double
  /// The benchmark's own CPU over the run, in percent of one core: near 100, the client is
  /// the limit of the delivered rate (not of the CPU figure).
  let benchPercent: Double
  /// The TLS version and cipher the server chose, when over TLS.
  let negotiated: String?
  let problems: [String]

  /// The figure compared: server CPU per delivered message.
  var nanosecondsPerMessage: Double { serverNanoseconds / Double(max(delivered, 1)) }
  /// Deliveries a second, over all subscribers.
  var deliveredRate: Double { elapsedSeconds > 0 ? Double(delivered) / elapsedSeconds : 0 }

  /// The row of the table and of `--json`'s `results`.
  func row() -> ResultRow {
    var problems = problems
    if lost > 0 { problems.append("lost \(lost)") }
    if duplicated > 0 { problems.append("duplicated \(duplicated)") }
    var row = ResultRow(
      scenario: "fan-out",
      parameter: "\(subscribers) subscriber\(subscribers == 1 ? "" : "s"), \(server.rawValue)"
        + (tls ? " over TLS" : ""),
      result: "\(Format.rate(deliveredRate)) msgs/s delivered (lost \(lost), dup \(duplicated)),"
        + " server \(Format.decimal(nanosecondsPerMessage)) ns/msg"
        + (negotiated.map { ", \($0)" } ?? ""),
      problems: problems,
      cpu: CPUMeter.Shares(
        bench: benchPercent,
        server: elapsedSeconds > 0 ? serverNanoseconds / 1e9 / elapsedSeconds * 100 : nil),
      metrics: [
        "subscribers": Double(subscribers), "published": Double(published),
        "delivered": Double(delivered), "lost": Double(lost), "dup": Double(duplicated),
        "elapsed_s": elapsedSeconds, "delivered_rate": deliveredRate,
        "server_cpu_s": serverNanoseconds / 1e9, "server_ns_per_msg": nanosecondsPerMessage,
        "tls": tls ? 1 : 0,
      ])
    row.peer = server.rawValue
    return row
  }
}
