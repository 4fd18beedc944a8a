import PeerWire

/// A server the fan-out, memory, latency and broadcast comparisons measure (`--peers`), with
/// the protocol the benchmark speaks to it and the command that serves it.
enum ComparedServer: String, CaseIterable, Sendable {
  /// observable-server, with its default threads and send path, as `cost.py` runs it.
  case observable
  /// observable-server with one `send` per connection (`--io-uring off`).
  case observableEpoll = "observable-epoll"
  /// redis-server 7, RESP `SUBSCRIBE` and `PUBLISH`.
  case redis
  /// nats-server, `SUB` and `PUB`.
  case nats
  /// Mosquitto 2.0, MQTT 3.1.1 at QoS 0.
  case mosquitto

  /// Whether this is observable-server, which takes `--threads`; the peers take no such option.
  var isObservable: Bool { dialect == .jsonLines }

  /// The protocol the benchmark speaks to this server.
  var dialect: PeerDialect {
    switch self {
    case .observable, .observableEpoll: .jsonLines
    case .redis: .resp
    case .nats: .nats
    case .mosquitto: .mqtt
    }
  }

  /// The command that serves this server on `port` over TLS when `tls`, with room for
  /// `connections` clients; configuration files go in `files`' folder. Everything but
  /// observable-server is found in PATH.
  /// `threads` is observable-server's `--threads` (`nil`: its default), `logLevel` its
  /// `--log-level` (`notice` says at start whether it batches sends through io_uring).
  func command(
    port: UInt16, tls: Bool, files: BenchCertificate, observableServer: String, connections: Int,
    threads: Int? = nil, logLevel: String = "warning"
  ) throws(BenchError) -> [String] {
    let certificate = files.certificatePath
    let key = files.keyPath
    switch self {
    case .observable, .observableEpoll:
      let listen =
        tls
        ? ["--listen", "tls://127.0.0.1:\(port)", "--tls-cert", certificate, "--tls-key", key]
        : ["--listen", "127.0.0.1:\(port)"]
      return [observableServer] + listen
        + ["--log-level", logLevel, "--max-connections", "\(connections + 64)"]
        + (self == .observableEpoll ? ["--io-uring", "off"] : [])
        + (threads.map { ["--threads", "\($0)"] } ?? [])
    case .redis:
      let listen =
        tls
        ? [
          "--port", "0", "--tls-port", "\(port)", "--tls-cert-file", certificate,
          "--tls-key-file", key, "--tls-auth-clients", "no",
        ] : ["--port", "\(port)"]
      return ["redis-server"] + listen
        + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        + ["--maxclients", "\(connections + 64)"]
    case .nats:
      guard tls else { return ["nats-server", "-a", "127.0.0.1", "-p", "\(port)"] }
      // nats-server 2.9 sends INFO in clear, then expects the client's handshake.
      let configuration = try files.write(
        "nats.conf",
        """
        listen: "127.0.0.1:\(port)"
        tls {
          cert_file: "\(certificate)"
          key_file: "\(key)"
          timeout: 5
        }

        """)
      return ["nats-server", "-c", configuration]
    case .mosquitto:
      // Nothing queued is dropped and nothing is persisted: the terms of the others (and of
      // cost.py).
      let configuration = try files.write(
        "mosquitto.conf",
        "listener \(port) 127.0.0.1\n" + (tls ? "certfile \(certificate)\nkeyfile \(key)\n" : "")
          + "allow_anonymous true\npersistence false\nmax_queued_messages 0\n"
          + "max_queued_bytes 0\nmax_connections -1\n")
      return ["mosquitto", "-c", configuration]
    }
  }

  /// The servers `--peers` names, observable-server first whether named or not; `nil` when a
  /// name is unknown.
  static func parse(_ list: String) -> [ComparedServer]? {
    var servers: [ComparedServer] = [.observable]
    for name in list.split(separator: ",") {
      guard let server = ComparedServer(rawValue: String(name)) else { return nil }
      if !servers.contains(server) { servers.append(server) }
    }
    return servers
  }
}
