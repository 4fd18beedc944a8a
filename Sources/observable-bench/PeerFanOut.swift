import Glibc
import PeerWire
import TLS

/// One fan-out measurement of one compared server: one publisher, N subscribers of one topic,
/// values published as fast as the slowest subscriber allows, in the server's own protocol,
/// the same client code for every server.
///
/// The figure is the server's CPU time per delivered message: the growth of its threads' run
/// time (nanoseconds, /proc/PID/task/*/schedstat) from just before the first publish to just
/// after the last delivery, over the deliveries. It holds where the client, not the server,
/// limits the delivered rate, which makes it the fair comparison on a shared machine; the
/// team's cross-check is `cost.py` with `fanout.c`, which reads the same quantity.
struct PeerFanOut {
  let server: ComparedServer
  /// The server, already started and accepting connections.
  let process: PeerProcess
  /// The client side's TLS context, when the server is measured over TLS.
  let tls: TLSContext?
  let subscribers: Int
  /// Messages published; each subscriber must receive all of them.
  let messages: Int
  /// Most messages published ahead of the slowest subscriber (`--window`).
  let window: Int
  let payload: Payload
  /// The topic every subscriber subscribes to.
  static let stream = "bench"

  /// Connects, opens every connection, then measures; the connections close afterwards.
  func run(deadline: Deadline) throws(BenchError) -> PeerFanOutResult {
    let dialect = server.dialect
    let readCapacity = max(16 * 1024, min(256 * 1024, (32 << 20) / subscribers))
    let connections = try (0...subscribers).map { _ throws(BenchError) in
      try PeerConnection(
        port: process.port, dialect: dialect, tls: tls, stream: Self.stream,
        readCapacity: readCapacity)
    }
    try PeerOpening.run(
      connections, streams: { _ in Self.stream }, tls: tls != nil, deadline: deadline,
      isPublisher: { $0 == subscribers })
    var run = PeerFanOutRun(
      subscribers: Array(connections.prefix(subscribers)), publisher: connections[subscribers],
      total: UInt64(messages), window: window, payload: payload, stream: Self.stream)
    guard let cpuBefore = process.cpuNanoseconds() else {
      throw .server("\(server.rawValue): /proc/\(process.pid)/task is unreadable")
    }
    let negotiated = connections[subscribers].tlsDescription
    let benchBefore = CPUMeter.benchSeconds()
    try run.measure(deadline: deadline)
    // What the server still does for the last deliveries (acknowledgements) counts too.
    usleep(20_000)
    guard let cpuAfter = process.cpuNanoseconds() else {
      throw .server("\(server.rawValue): /proc/\(process.pid)/task became unreadable")
    }
    let wall = MonotonicTime.seconds(from: run.started, to: MonotonicTime.now())
    return PeerFanOutResult(
      server: server, tls: tls != nil, subscribers: subscribers, published: run.published,
      delivered: run.delivered, lost: run.lost, duplicated: run.duplicated,
      elapsedSeconds: run.elapsedSeconds, serverNanoseconds: Double(cpuAfter &- cpuBefore),
      benchPercent: wall > 0 ? (CPUMeter.benchSeconds() - benchBefore) / wall * 100 : 0,
      negotiated: negotiated,
      problems: run.problems)
  }
}
