/// A server the broadcast scenario compares, with what its protocol says for subscribing,
/// publishing and delivering, so that one client code measures them all.
enum BroadcastPeer: String, CaseIterable, Sendable {
  /// observable-server with its sends batched through io_uring (`--io-uring auto`).
  case observable
  /// observable-server with one `send` per connection (`--io-uring off`).
  case observableEpoll = "observable-epoll"
  /// redis-server, RESP `SUBSCRIBE` and `PUBLISH`.
  case redis
  /// nats-server, `SUB` and `PUB`.
  case nats

  /// The topic every subscriber subscribes to.
  static let topic = "b"

  /// What a subscriber sends right after connecting.
  var subscribeRequest: [UInt8] {
    switch self {
    case .observable, .observableEpoll:
      Array(#"{"op":"subscribe","stream":"\#(Self.topic)"}"#.utf8) + [0x0A]
    case .redis: Array("SUBSCRIBE \(Self.topic)\r\n".utf8)
    // The PONG to the PING says the server has taken the SUB before it.
    case .nats: Array("\(Self.natsConnect)SUB \(Self.topic) 1\r\nPING\r\n".utf8)
    }
  }

  /// What the publisher sends first, and the line whose arrival says the server took it.
  var publisherSetup: (request: [UInt8], answer: String)? {
    switch self {
    case .observable, .observableEpoll: ([], "{\"hello\"")
    case .redis: nil
    case .nats: (Array("\(Self.natsConnect)PING\r\n".utf8), "PONG")
    }
  }

  /// One publish of `value` to the topic.
  func publishRequest(_ value: Int) -> [UInt8] {
    switch self {
    case .observable, .observableEpoll:
      Array(#"{"op":"publish","stream":"\#(Self.topic)","value":\#(value)}"#.utf8) + [0x0A]
    case .redis: Array("PUBLISH \(Self.topic) \(value)\r\n".utf8)
    case .nats:
      Array("PUB \(Self.topic) \(String(value).utf8.count)\r\n\(value)\r\n".utf8)
    }
  }

  /// What one line a subscriber receives means (the line without its `\r\n` or `\n`).
  func meaning(of line: UnsafeRawBufferPointer) -> BroadcastLine {
    switch self {
    case .observable, .observableEpoll:
      if line.starts(with: #"{"stream":""#.utf8) { return .delivery }
      if line.starts(with: #"{"ok":true,"op":"subscribe""#.utf8) { return .confirmed }
      if line.starts(with: #"{"ok":false"#.utf8) { return .refused }
    case .redis:
      // A message is `*3 $7 message $1 b $N value`; the value here is digits only.
      if line.elementsEqual("message".utf8) { return .delivery }
      if line.elementsEqual("subscribe".utf8) { return .confirmed }
      if line.starts(with: "-".utf8) { return .refused }
    case .nats:
      if line.starts(with: "MSG ".utf8) { return .deliveryWithPayloadLine }
      if line.elementsEqual("PONG".utf8) { return .confirmed }
      if line.elementsEqual("PING".utf8) { return .ping }
      if line.starts(with: "-ERR".utf8) { return .refused }
    }
    return .other
  }

  /// The answer to a server's `PING`, for protocols that have one.
  static let natsPong = Array("PONG\r\n".utf8)

  private static let natsConnect =
    #"CONNECT {"verbose":false,"pedantic":false,"echo":false,"protocol":1}"# + "\r\n"

  /// The command that serves this peer on `port`, found in PATH except for observable-server.
  func command(port: UInt16, observableServer: String, connections: Int) -> [String] {
    switch self {
    case .observable, .observableEpoll:
      [
        observableServer, "--listen", "127.0.0.1:\(port)", "--log-level", "notice",
        "--max-connections", "\(connections + 64)",
        "--io-uring", self == .observable ? "auto" : "off",
      ]
    case .redis:
      [
        "redis-server", "--port", "\(port)", "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--maxclients", "\(connections + 64)",
      ]
    case .nats: ["nats-server", "-a", "127.0.0.1", "-p", "\(port)"]
    }
  }
}

/// What a line a subscriber received is.
enum BroadcastLine {
  /// A published value.
  case delivery
  /// A published value whose payload is the next line (NATS `MSG`).
  case deliveryWithPayloadLine
  /// The subscription is in place.
  case confirmed
  /// The server refused something.
  case refused
  /// The server checks the client is alive (NATS).
  case ping
  /// Anything else: greetings, headers.
  case other
}
