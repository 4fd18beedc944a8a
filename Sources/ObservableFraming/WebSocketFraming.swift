import ObservableCounters
import ObservableWire
import WebSocket

/// The line protocol over WebSocket (RFC 6455, with RFC 7692's permessage-deflate when
/// agreed): each text message in is one request line, each line out one text message.
///
/// It answers pings, replies to a close and then closes, closes with the matching code when the
/// peer breaks the framing rules (1002, 1003, 1007, 1009), and pings the peer every
/// ``ConnectionSettings/webSocketPingInterval``: a browser's socket can vanish without the
/// kernel noticing for many minutes, so a peer that sent nothing between two pings is dropped.
/// Used on the connection's loop thread only.
package final class WebSocketFraming: Framing {
  /// A framing for the connection `handshake` accepted; throws when zlib cannot start.
  init(
    handshake: WebSocketHandshake, settings: ConnectionSettings, counters: ServerCounters
  ) throws(ZlibFailure) {
    decoder = try WebSocketFrameDecoder(
      maximumMessageBytes: settings.maxLineBytes, deflate: handshake.deflate)
    encoder = try WebSocketFrameEncoder(deflate: handshake.deflate)
    sharedFrames = handshake.deflate.flatMap(SharedDeflateFrames.encoding(for:))
    maxLineBytes = settings.maxLineBytes
    pingInterval = settings.webSocketPingInterval
    self.counters = counters
  }

  /// The longest message accepted: `--max-line-bytes`, lowered until a client authenticates
  /// so that an unauthenticated peer makes the server buffer little. A longer message closes
  /// the connection with 1009, since its frames are refused from their headers.
  package var maxLineBytes: Int {
    didSet {
      // The decoder is busy while a request it delivered authenticates: applied after it.
      if !decoding { decoder.maximumMessageBytes = maxLineBytes }
    }
  }

  package func attach() -> Bool {
    counters.update {
      $0.webSocketConnections += 1
      $0.webSocketConnectionsTotal += 1
    }
    attached = true
    heard = true
    return true
  }

  package func decode(_ input: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Bool) -> Int {
    guard said == nil, attached else { return input.count }
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
        stopped = !self.handle(event, handle)
      }
    } catch {
      _ = handle(
        .violation(
          reason: "websocket protocol error: \(error.reason)", detail: "\(error)",
          farewell: .protocolError(error.closeCode.rawValue, error.reason)))
    }
    return input.count
  }

  /// Turns one message or control frame into the connection's event; returns whether to go
  /// on with the next.
  private func handle(_ event: WebSocketEvent, _ handle: (FramingEvent) -> Bool) -> Bool {
    switch event {
    case .text(var line):
      MessageLineBreaks.normalize(&line)
      return line.withUnsafeBytes { handle(.line($0)) }
    case .binary:
      // The decoder refuses binary frames at their header; nothing reaches here.
      return true
    case .ping(let payload):
      var pong: [UInt8] = []
      WebSocketFrameEncoder.appendPong(payload, to: &pong)
      // Counted toward the queued-bytes cap: a peer that pings and never reads is cut.
      _ = handle(.controlFrame(pong))
      return said == nil
    case .pong:
      return true
    case .close(let code, _):
      _ = handle(.finish(reason: "websocket closed by peer", farewell: .reply(code?.rawValue)))
      return false
    }
  }

  package var sendsLinesUnchanged: Bool { false }

  /// With shared frames the outbox holds frames (``outboxEncoding``), written as they are
  /// instead of copied through ``encode(_:to:)``. Not after the close frame: what is queued
  /// then goes through ``encode(_:to:)``, which drops it.
  package var outboxHoldsWireForm: Bool { sharedFrames != nil && said == nil }

  package func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    // After the close frame, RFC 6455 section 5.5.1 allows no more data frames.
    guard said == nil else { return }
    // With shared frames the outbox holds frames already, each starting with FIN set; a line
    // (a `slow_consumer` notice written past the outbox) starts with `{`.
    if sharedFrames != nil, let first = lines.first, first & 0x80 != 0 {
      out.append(bytes: lines)
      return
    }
    encoder.appendTextMessages(lines: lines, to: &out)
  }

  /// Without context takeover, a value's compressed frames are made once for every such
  /// subscriber (``SharedDeflateFrames``) and the outbox holds frames; replies are framed and
  /// compressed by this connection's own encoder. Nil otherwise: lines go into the outbox and
  /// are framed at write time, each connection compressing with its own context.
  package var outboxEncoding: (deliveries: any DeliveryEncoding, reply: ([UInt8]) -> [UInt8])? {
    guard let sharedFrames else { return nil }
    return (
      sharedFrames,
      { [self] lines in
        var frames: [UInt8] = []
        guard said == nil else { return frames }
        encoder.appendTextMessages(lines: lines, to: &frames)
        return frames
      }
    )
  }

  /// WebSocket compresses per message, as negotiated at the handshake.
  package var allowsStreamCompression: Bool { false }

  package func farewell(_ reason: Farewell) -> [UInt8] {
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
    case .slowConsumer:
      // 1008, not 1013 (try again later): the limit is this peer's own reading, so a client
      // that retried at once would only fill its queue again.
      code = .policyViolation
      text = "slow consumer"
    case .deadPeer(let reason):
      // As the `websockets` package does for a keepalive timeout.
      code = .internalError
      text = reason
    }
    said = reason
    var frame: [UInt8] = []
    WebSocketFrameEncoder.appendClose(code, reason: text, to: &frame)
    return frame
  }

  package func connectionClosed() {
    guard attached else { return }
    attached = false
    counters.update { $0.webSocketConnections -= 1 }
  }

  package func endOfUnit(in output: UnsafeRawBufferPointer, containing offset: Int) -> Int? {
    Self.endOfFrame(in: output, containing: offset)
  }

  /// Where the frame holding byte `offset` of `output` ends; nil when `output` does not hold
  /// it whole. Frames start with FIN set (the encoder never fragments); the `101` answer
  /// written as the framing took over, which starts with a letter, can still lead the output.
  static func endOfFrame(in output: UnsafeRawBufferPointer, containing offset: Int) -> Int? {
    guard offset < output.count else { return output.count }
    var end = 0
    if output[0] < 0x80 {
      guard let headEnd = endOfHead(in: output) else { return nil }
      end = headEnd
    }
    while end <= offset {
      guard let length = WebSocketFrameEncoder.frameLength(in: output, at: end),
        end + length <= output.count
      else { return nil }
      end += length
    }
    return end
  }

  /// Where an HTTP head ends: after its blank line.
  private static func endOfHead(in output: UnsafeRawBufferPointer) -> Int? {
    let blankLine: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
    guard output.count >= 4 else { return nil }
    for start in 0...(output.count - 4)
    where output[start] == 0x0D && output[start..<(start + 4)].elementsEqual(blankLine) {
      return start + 4
    }
    return nil
  }

  /// Pings every interval; a peer that sent nothing since the previous ping is gone.
  package var timerInterval: Duration? { pingInterval }

  package func timerFired() -> (event: FramingEvent?, again: Bool) {
    guard said == nil else { return (nil, false) }
    guard heard else {
      counters.update { $0.deadPeersTotal += 1 }
      return (
        .deadPeer(
          reason: "websocket peer answered no ping within \(pingInterval)",
          farewell: .deadPeer("keepalive ping timeout")),
        false
      )
    }
    heard = false
    var ping: [UInt8] = []
    WebSocketFrameEncoder.appendPing([], to: &ping)
    return (.controlFrame(ping), true)
  }

  private let decoder: WebSocketFrameDecoder
  private let encoder: WebSocketFrameEncoder
  /// The encoding shared with every subscriber of the same compressor settings, when this
  /// connection compresses without context takeover.
  private let sharedFrames: SharedDeflateFrames?
  private let pingInterval: Duration
  private let counters: ServerCounters
  /// Whether the peer sent anything since the last ping.
  private var heard = false
  /// Whether the decoder is running, so its limit must not change now.
  private var decoding = false
  /// Whether this framing counts in the WebSocket gauge.
  private var attached = false
  /// The close frame sent, after which nothing more is.
  private var said: Farewell?
}
