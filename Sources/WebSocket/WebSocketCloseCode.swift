/// A close frame's status code (RFC 6455 section 7.4).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The code as sent.
  public let rawValue: UInt16

  /// A code; see `isAllowedOnTheWire` for which may appear in a frame.
  public init(rawValue: UInt16) {
    self.rawValue = rawValue
  }

  /// 1000: done.
  public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
  /// 1001: the server is shutting down or the page is going away.
  public static let goingAway = WebSocketCloseCode(rawValue: 1001)
  /// 1002: the peer broke the framing rules.
  public static let protocolError = WebSocketCloseCode(rawValue: 1002)
  /// 1003: a message type this end does not take (binary, here).
  public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
  /// 1007: a text message that is not UTF-8, or a message that does not decompress.
  public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
  /// 1008: a policy was broken (authentication, origin).
  public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
  /// 1009: a message larger than this end takes.
  public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
  /// 1011: this end failed.
  public static let internalError = WebSocketCloseCode(rawValue: 1011)

  /// Whether a close frame may carry the code: 1000-1003, 1007-1014 and 3000-4999. 1005,
  /// 1006 and 1015 only describe closes locally; the rest are unassigned.
  public var isAllowedOnTheWire: Bool {
    switch rawValue {
    case 1000...1003, 1007...1014, 3000...4999: return true
    default: return false
    }
  }

  /// The number.
  public var description: String { String(rawValue) }

  /// A close payload: nothing, or a valid code and a UTF-8 reason (RFC 6455 section 5.5.1).
  static func parse(
    closePayload payload: [UInt8]
  ) throws(WebSocketProtocolError) -> (WebSocketCloseCode?, String) {
    guard !payload.isEmpty else { return (nil, "") }
    guard payload.count >= 2 else {
      throw WebSocketFrameHeader.protocolError("close payload of one byte")
    }
    let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
    guard code.isAllowedOnTheWire else {
      throw WebSocketFrameHeader.protocolError("close code \(code) is not allowed")
    }
    var validator = UTF8Validator()
    let reason = payload[2...]
    guard validator.validate(reason), validator.isAtBoundary else {
      throw WebSocketProtocolError(.invalidPayload, "close reason is not UTF-8")
    }
    return (code, String(decoding: reason, as: UTF8.self))
  }
}
