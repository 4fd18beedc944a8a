import WebSocket

/// The line protocol over WebSocket (RFC 6455, with RFC 7692's permessage-deflate when
/// agreed): each text message in is one request line, each line out one text message.
///
/// It answers pings, replies to a close and then closes, closes with the matching code when the
/// peer breaks the framing rules (1002, 1003, 1007, 1009), and pings the peer every
/// ``ConnectionSettings/webSocketPingInterval``: a browser's socket can vanish without the
/// kernel noticing for many minutes, so a peer that sent nothing between two pings is dropped.
/// Used on the connection's loop thread only.
final class WebSocketFraming: Framing {
  /// A framing for the connection `handshake` accepted; throws when zlib cannot start.
  init(
    handshake: WebSocketHandshake, settings: ConnectionSettings, counters: ServerCounters
  ) throws(ZlibFailure) {
    decoder = try WebSocketFrameDecoder(
      maximumMessageBytes: settings.maxLineBytes, deflate: handshake.deflate)
    encoder = try WebSocketFrameEncoder(deflate: handshake.deflate)
    maxLineBytes = settings.maxLineBytes
    pingInterval = settings.webSocketPingInterval
    self.counters = counters
  }

  /// The longest message accepted: `--max-line-bytes`, lowered until a client authenticates
  /// so that an unauthenticated peer makes the server buffer little. A longer message closes
  /// the connection with 1009, since its frames are refused from their headers.
  var maxLineBytes: Int {
    didSet {
      // The decoder is busy while a request it delivered authenticates: applied after it.
      if !decoding { decoder.maximumMessageBytes = maxLineBytes }
    }
  }

  func attach(to connection: Connection) -> Bool {
    self.connection = connection
    counters.update {
      $0.webSocketConnections += 1
      $0.webSocketConnectionsTotal += 1
    }
    attached = true
    heard = true
    schedulePing()
    return true
  }

  func decode(_ input: UnsafeRawBufferPointer, to session: Session?) -> Int {
    guard said == nil, let session, let connection else { return input.count }
    heard = true
    var stopped = false
    decoding = true
    defer {
      decoding = false
      if decoder.maximumMessageBytes != maxLineBytes { decoder.maximumMessageBytes = maxLineBytes }
    }
    do throws(WebSocketProtocolError) {
      try decoder.decode(input) { event in
        guard !stopped else { return }
        stopped = !handle(event, session, connection)
      }
    } catch {
      connection.context.logger.debug(
        "websocket protocol error", metadata: ["peer": "\(connection.peer)", "error": "\(error)"])
      connection.finish(
        "websocket protocol error: \(error.reason)",
        saying: .protocolError(error.closeCode.rawValue, error.reason))
    }
    return input.count
  }

  /// Handles one message or control frame; returns whether to go on with the next.
  private func handle(_ event: WebSocketEvent, _ session: Session, _ connection: Connection) -> Bool
  {
    switch event {
    case .text(let line):
      return line.withUnsafeBytes { session.handle($0) }
    case .binary:
      // The decoder refuses binary frames at their header; nothing reaches here.
      return true
    case .ping(let payload):
      var pong: [UInt8] = []
      WebSocketFrameEncoder.appendPong(payload, to: &pong)
      connection.sendFramed(pong)
      return true
    case .pong:
      return true
    case .close(let code, _):
      connection.finish("websocket closed by peer", saying: .reply(code?.rawValue))
      return false
    }
  }

  var sendsLinesUnchanged: Bool { false }

  func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    // After the close frame, RFC 6455 section 5.5.1 allows no more data frames.
    guard said == nil else { return }
    encoder.appendTextMessages(lines: lines, to: &out)
  }

  /// WebSocket compresses per message, as negotiated at the handshake.
  var allowsStreamCompression: Bool { false }

  func farewell(_ reason: Farewell) -> [UInt8] {
    guard said == nil else { return [] }
    let code: WebSocketCloseCode?
    var text = ""
    switch reason {
    case .reply(let echoed):
      code = echoed.map { WebSocketCloseCode(rawValue: $0) } ?? .normalClosure
    case .policyViolation: code = .policyViolation
    case .goingAway: code = .goingAway
    case .protocolError(let raw, let reason):
      code = WebSocketCloseCode(rawValue: raw)
      text = reason
    }
    said = reason
    var frame: [UInt8] = []
    WebSocketFrameEncoder.appendClose(code, reason: text, to: &frame)
    return frame
  }

  func connectionClosed() {
    guard attached else { return }
    attached = false
    counters.update { $0.webSocketConnections -= 1 }
  }

  /// Pings every interval; a peer that sent nothing since the previous ping is gone.
  private func schedulePing() {
    guard let connection else { return }
    connection.schedule(in: pingInterval) { [self] in
      guard let connection = self.connection, said == nil else { return }
      guard heard else {
        counters.update { $0.deadPeersTotal += 1 }
        connection.close("websocket peer answered no ping within \(pingInterval)")
        return
      }
      heard = false
      var ping: [UInt8] = []
      WebSocketFrameEncoder.appendPing([], to: &ping)
      connection.sendFramed(ping)
      schedulePing()
    }
  }

  private let decoder: WebSocketFrameDecoder
  private let encoder: WebSocketFrameEncoder
  private let pingInterval: Duration
  private let counters: ServerCounters
  /// The connection; weak, since the connection holds its framing.
  private weak var connection: Connection?
  /// Whether the peer sent anything since the last ping.
  private var heard = false
  /// Whether the decoder is running, so its limit must not change now.
  private var decoding = false
  /// Whether this framing counts in the WebSocket gauge.
  private var attached = false
  /// The close frame sent, after which nothing more is.
  private var said: Farewell?
}
