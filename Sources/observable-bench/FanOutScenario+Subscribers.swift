/// How fan-out subscribers connect: over TCP, WebSocket (plain or with permessage-deflate),
/// Server-Sent Events, or TCP with deflate (`--transport deflate`), where each sends `compress`
/// once it is subscribed, so the server deflates every value once per subscriber, and the
/// benchmark inflates it again.
extension FanOutScenario {
  /// Connects one subscriber as `--transport` says; compression starts after subscribing.
  func connectSubscriber(
    _ server: ServerUnderTest, readCapacity: Int, deadline: Deadline
  ) throws(BenchError) -> ClientConnection {
    let transport = configuration.transport
    guard transport.isWebSocket || transport == .serverSentEvents else {
      return try ClientConnection(to: server.address, readCapacity: readCapacity)
    }
    guard let port = server.httpPort else {
      throw .unexpected("\(transport) rows need a server the benchmark starts (not --connect)")
    }
    let connection = try ClientConnection(
      to: LoopbackAddress(ipv4Port: port), readCapacity: readCapacity)
    if let offer = transport.extensionOffer {
      try connection.upgradeToWebSocket(port: port, offering: offer, deadline: deadline)
    } else {
      // The query subscribes, in the loop turn that writes the head: long before the
      // publisher's own handshake ends, so no value is published before it.
      try connection.openEventStream(of: Self.stream, deadline: deadline)
    }
    return connection
  }

  /// Asks every subscriber's connection for deflate and waits for every reply, after which
  /// each connection inflates what it reads.
  static func startCompression(_ subscribers: [ClientConnection], deadline: Deadline)
    throws(BenchError)
  {
    try Handshake.run(subscribers, deadline: deadline) { _ in
      #"{"op":"compress","algorithm":"deflate"}"#
    }
    for subscriber in subscribers { try subscriber.startInflating() }
  }

  /// The subscribers' inflated bytes over the bytes they read, or `nil` when they read plain
  /// lines.
  static func compressionRatio(_ subscribers: [ClientConnection]) -> Double? {
    var plain = 0
    var wire = 0
    for subscriber in subscribers {
      guard let inflated = subscriber.plainBytesRead else { return nil }
      plain += inflated
      wire += subscriber.bytesRead
    }
    return wire > 0 ? Double(plain) / Double(wire) : nil
  }
}
