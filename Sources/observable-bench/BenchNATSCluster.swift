import Glibc

/// Three `nats-server` processes routed to each other on free loopback ports, JetStream off:
/// the cluster broadcast publishes plain values only, and without a JetStream stream a node
/// opens each new subscription at once instead of first asking for a retained value.
final class BenchNATSCluster {
  /// The servers, each measured like any peer.
  let servers: [PeerProcess]

  /// Starts the three servers and waits until each has routes to the other two.
  init(deadline: Deadline) throws(BenchError) {
    var ports: [UInt16] = []
    while ports.count < 9 {
      let port = try PeerProcess.freePort()
      if !ports.contains(port) { ports.append(port) }
    }
    let routes = ports[6..<9].map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ",")
    monitorPorts = Array(ports[3..<6])
    var servers: [PeerProcess] = []
    for index in 0..<3 {
      let command = [
        "nats-server", "--server_name", "bench-n\(index + 1)", "-a", "127.0.0.1",
        "-p", "\(ports[index])", "-m", "\(ports[3 + index])",
        "--cluster", "nats://127.0.0.1:\(ports[6 + index])", "--cluster_name", "bench",
        "--routes", routes,
      ]
      servers.append(
        try PeerProcess(
          command, port: ports[index],
          logPath: "/tmp/observable-bench-nats\(index)-\(getpid()).log",
          deadline: deadline))
    }
    self.servers = servers
    for index in 0..<3 {
      while !hasAllRoutes(index) {
        try deadline.check("waiting for the NATS servers to route to each other")
        usleep(50_000)
      }
    }
  }

  deinit { stop() }

  /// The `nats://` URL of server `index` modulo three.
  func url(_ index: Int) -> String { "nats://127.0.0.1:\(servers[index % 3].port)" }

  /// Stops every server, all signalled before any is waited for.
  func stop() {
    for server in servers { kill(server.pid, SIGTERM) }
    for server in servers { server.stop() }
    for index in servers.indices { unlink("/tmp/observable-bench-nats\(index)-\(getpid()).log") }
  }

  /// Whether server `index`'s monitoring page `/routez` counts both other servers.
  private func hasAllRoutes(_ index: Int) -> Bool {
    guard let body = Self.httpGet(port: monitorPorts[index], path: "/routez") else { return false }
    return body.contains("\"num_routes\": 2")
  }

  /// A plain HTTP/1.0 GET on loopback, bounded to one second; `nil` on any failure.
  private static func httpGet(port: UInt16, path: String) -> String? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var limit = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    guard LoopbackAddress(ipv4Port: port).withSocketAddress({ connect(fd, $0, $1) }) == 0 else {
      return nil
    }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
    var body: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while body.count < 1 << 20 {
      let count = recv(fd, &chunk, chunk.count, 0)
      guard count > 0 else { break }
      body += chunk[..<count]
    }
    return String(decoding: body, as: UTF8.self)
  }

  private let monitorPorts: [UInt16]
}
