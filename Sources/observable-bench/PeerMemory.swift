import Glibc
import TLS

/// Memory per idle connection of one compared server: `connections` clients, each subscribed
/// to one of 100 topics (over TLS when asked), then left idle; the figure is the growth of
/// the server's resident memory from before the first connection to after the last
/// subscription was confirmed, per connection. Socket buffers live in the kernel and are not
/// in it; TLS state in user space is.
struct PeerMemory {
  let server: ComparedServer
  /// The server, freshly started: memory is measured from its state at rest.
  let process: PeerProcess
  /// The client side's TLS context, when measured over TLS.
  let tls: TLSContext?
  let connections: Int
  /// Topics the connections subscribe to, in turn.
  let topics = 100
  /// Connections being opened at once: a batch beyond the listen backlog (Mosquitto's is
  /// 100) would leave SYNs dropped and retried a second later.
  let batch = 100

  func run(deadline: Deadline) throws(BenchError) -> ResultRow {
    usleep(300_000)
    guard let before = process.residentBytes() else {
      throw .server("\(server.rawValue): /proc/\(process.pid)/status is unreadable")
    }
    let started = MonotonicTime.now()
    var open: [PeerConnection] = []
    open.reserveCapacity(connections)
    while open.count < connections {
      let first = open.count
      let fresh = try (0..<min(batch, connections - first)).map { index throws(BenchError) in
        try PeerConnection(
          port: process.port, dialect: server.dialect, tls: tls,
          stream: "mem.\((first + index) % topics)", readCapacity: 4096)
      }
      try PeerOpening.run(
        fresh, streams: { "mem.\((first + $0) % topics)" }, tls: tls != nil,
        firstClientID: first, deadline: deadline)
      open += fresh
    }
    let openSeconds = MonotonicTime.seconds(from: started, to: MonotonicTime.now())
    // Lets the server finish what subscribing started before its memory is read.
    usleep(500_000)
    guard let after = process.residentBytes() else {
      throw .server("\(server.rawValue): /proc/\(process.pid)/status became unreadable")
    }
    let perConnection = Double(after - before) / Double(connections)
    var row = ResultRow(
      scenario: "connection memory",
      parameter: "\(connections) conns, \(server.rawValue)" + (tls != nil ? " over TLS" : ""),
      result: "\(Format.bytes(perConnection)) per connection (RSS \(Format.bytes(Double(before)))"
        + " → \(Format.bytes(Double(after))), opened in \(Format.decimal(openSeconds)) s)",
      metrics: [
        "connections": Double(connections), "topics": Double(topics),
        "rss_before_bytes": Double(before), "rss_after_bytes": Double(after),
        "bytes_per_connection": perConnection, "open_s": openSeconds, "tls": tls != nil ? 1 : 0,
      ])
    row.peer = server.rawValue
    return row
  }
}
