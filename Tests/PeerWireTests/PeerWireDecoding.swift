import PeerWire

/// What a decoder made of some bytes, in a form tests compare: deliveries as text.
enum Decoded: Equatable {
  case delivery(String)
  case subscribed, pong, greeting, ping, acknowledged, other
  case refused(String)

  init(_ message: PeerMessage) {
    switch message {
    case .delivery(let payload): self = .delivery(String(decoding: payload, as: UTF8.self))
    case .subscribed: self = .subscribed
    case .pong: self = .pong
    case .greeting: self = .greeting
    case .ping: self = .ping
    case .acknowledged: self = .acknowledged
    case .refused(let text): self = .refused(text)
    case .other: self = .other
    }
  }
}

extension PeerDialect {
  /// Decodes `bytes` in one call: the messages, and how many bytes they took.
  func decodeAll(_ bytes: [UInt8], stream: String = "b") throws -> ([Decoded], Int) {
    var messages: [Decoded] = []
    let used = try bytes.withUnsafeBytes { buffer in
      try decode(buffer, lineDecoder: JSONLineDecoder(stream: stream)) {
        messages.append(Decoded($0))
      }
    }
    return (messages, used)
  }

  /// Decodes `bytes` as they would arrive in pieces of `chunk` bytes, each call given what the
  /// last one left plus the next piece, as a connection's input buffer does.
  func decodeInPieces(_ bytes: [UInt8], chunk: Int) throws -> [Decoded] {
    var messages: [Decoded] = []
    var pending: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
      pending += bytes[offset..<min(bytes.count, offset + chunk)]
      offset += chunk
      let (found, used) = try decodeAll(pending)
      messages += found
      pending.removeFirst(used)
    }
    return messages
  }
}
