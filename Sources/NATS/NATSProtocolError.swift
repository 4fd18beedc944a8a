/// Why bytes from the server could not be read as the NATS protocol.
///
/// Every case means the stream can no longer be trusted, so the connection is dropped; the
/// cases differ only to say what was wrong in the log.
public enum NATSProtocolError: Error, Equatable, CustomStringConvertible {
  /// A control line grew past the limit without ending.
  case controlLineTooLong(limit: Int)
  /// The line starts with no verb the client knows; carries the start of the line.
  case unknownOperation(String)
  /// A known verb with arguments of the wrong number or form.
  case malformedArguments(verb: String, line: String)
  /// A message announced more bytes than the client accepts.
  case payloadTooLarge(size: Int, limit: Int)
  /// A message's payload was not followed by CRLF.
  case missingPayloadTerminator
  /// An HMSG header block that is not `NATS/1.0` followed by `Name: Value` lines.
  case malformedHeaders(String)
  /// An INFO whose JSON could not be decoded.
  case malformedInfo(String)

  /// A sentence for the log.
  public var description: String {
    switch self {
    case .controlLineTooLong(let limit): "control line longer than \(limit) bytes"
    case .unknownOperation(let start): "unknown operation '\(start)'"
    case .malformedArguments(let verb, let line): "malformed \(verb): '\(line)'"
    case .payloadTooLarge(let size, let limit):
      "message of \(size) bytes is over the limit of \(limit)"
    case .missingPayloadTerminator: "message payload not followed by CRLF"
    case .malformedHeaders(let reason): "malformed header block: \(reason)"
    case .malformedInfo(let reason): "malformed INFO: \(reason)"
    }
  }
}
