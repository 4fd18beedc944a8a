/// Why a command was not encoded; nothing was appended.
public enum NATSCommandError: Error, Equatable, CustomStringConvertible {
  /// Headers and payload together exceed the server's `max_payload`, which would close the
  /// connection.
  case payloadTooLarge(size: Int, maxPayload: Int)
  /// A subject, reply subject or queue group that is empty or contains blanks or controls.
  case invalidSubject(String)
  /// A header name or value that would break the header block.
  case invalidHeader(String)
  /// The session is not connected, so the command would be lost.
  case notConnected

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .payloadTooLarge(let size, let maxPayload):
      "payload of \(size) bytes exceeds the NATS server's max_payload of \(maxPayload)"
    case .invalidSubject(let subject): "invalid NATS subject '\(subject)'"
    case .invalidHeader(let header): "invalid NATS header '\(header)'"
    case .notConnected: "not connected to a NATS server"
    }
  }
}
