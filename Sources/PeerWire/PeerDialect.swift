/// The four protocols the benchmark speaks to the servers it compares, each as the bytes a
/// subscriber and a publisher of one topic send and a reading of what they receive.
public enum PeerDialect: String, Sendable, CaseIterable {
  /// observable-server's line-delimited JSON.
  case jsonLines = "jsonl"
  /// Redis's RESP2: `SUBSCRIBE`, `PUBLISH`.
  case resp
  /// NATS's text protocol: `CONNECT`, `SUB`, `PUB`.
  case nats
  /// MQTT 3.1.1 at QoS 0.
  case mqtt

  /// What a subscriber sends to subscribe to `topic`, and after which message it is ready.
  /// `tls` marks a NATS `CONNECT` sent over TLS.
  public func subscriberOpening(topic: String, clientID: Int, tls: Bool = false) -> [UInt8] {
    switch self {
    case .jsonLines: Array(#"{"op":"subscribe","stream":"\#(topic)","id":1}"#.utf8) + [0x0A]
    case .resp: RESPCommand.encode(["SUBSCRIBE", topic])
    // The PONG to the PING says the server has taken the SUB before it.
    case .nats: Array((Self.natsConnect(tls: tls) + "SUB \(topic) 1\r\nPING\r\n").utf8)
    case .mqtt:
      MQTTPacket.connect(clientID: "ob\(clientID)")
        + MQTTPacket.subscribe(packetID: 1, topic: topic)
    }
  }

  /// What a publisher sends first; it is ready at the message ``publisherReady`` accepts.
  public func publisherOpening(clientID: Int, tls: Bool = false) -> [UInt8] {
    switch self {
    case .jsonLines: []
    case .resp: RESPCommand.encode(["PING"])
    case .nats: Array((Self.natsConnect(tls: tls) + "PING\r\n").utf8)
    case .mqtt: MQTTPacket.connect(clientID: "ob\(clientID)") + MQTTPacket.pingRequest
    }
  }

  /// Whether `message` completes a subscriber's opening.
  public func subscriberReady(_ message: PeerMessage) -> Bool {
    switch (self, message) {
    case (.nats, .pong), (.jsonLines, .subscribed), (.resp, .subscribed), (.mqtt, .subscribed):
      true
    default: false
    }
  }

  /// Whether `message` completes a publisher's opening: the line protocol's hello, or the
  /// answer to the ping that follows the others' openings.
  public func publisherReady(_ message: PeerMessage) -> Bool {
    switch (self, message) {
    case (.jsonLines, .greeting), (.resp, .pong), (.nats, .pong), (.mqtt, .pong): true
    default: false
    }
  }

  /// What comes before and after a payload of `payloadBytes` in one publish to `topic`; a
  /// publish is `prefix + payload + suffix`, so a batch is written in place.
  public func publishFraming(topic: String, payloadBytes: Int) -> (prefix: [UInt8], suffix: [UInt8])
  {
    switch self {
    case .jsonLines:
      (Array(#"{"op":"publish","stream":"\#(topic)","value":""#.utf8), Array("\"}\n".utf8))
    case .resp:
      (RESPCommand.prefix(["PUBLISH", topic], lastArgumentBytes: payloadBytes), [0x0D, 0x0A])
    case .nats: (Array("PUB \(topic) \(payloadBytes)\r\n".utf8), [0x0D, 0x0A])
    case .mqtt: (MQTTPacket.publishHeader(topic: topic, payloadBytes: payloadBytes), [])
    }
  }

  /// The answer to a server's ``PeerMessage/ping``.
  public var pingAnswer: [UInt8] { self == .nats ? Array("PONG\r\n".utf8) : [] }

  /// Whether the server sends a greeting in clear before the TLS handshake, which the client
  /// reads and then starts TLS on the same socket (nats-server 2.9's `INFO`).
  public var greetsBeforeTLS: Bool { self == .nats }

  /// Hands every complete message in `bytes` to `handle`, and returns how many bytes they
  /// took; `lineDecoder` reads the line protocol (it knows the stream's name).
  public func decode(
    _ bytes: UnsafeRawBufferPointer, lineDecoder: JSONLineDecoder,
    _ handle: (PeerMessage) -> Void
  ) throws(PeerWireError) -> Int {
    switch self {
    case .jsonLines: try lineDecoder.decode(bytes, handle)
    case .resp: try RESPDecoder.decode(bytes, handle)
    case .nats: try NATSDecoder.decode(bytes, handle)
    case .mqtt: try MQTTDecoder.decode(bytes, handle)
    }
  }

  private static func natsConnect(tls: Bool) -> String {
    #"CONNECT {"verbose":false,"pedantic":false,"echo":false,"protocol":1"#
      + (tls ? #","tls_required":true}"# : "}") + "\r\n"
  }
}
