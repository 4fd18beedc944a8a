/// One message the server delivered for a subscription (`MSG` or `HMSG`).
///
/// The payload is a slice of the parser's buffer: no copy is made for it, and one is made
/// only if the caller keeps the message while feeding the parser more bytes.
public struct NATSMessage: Sendable, Equatable {
  /// The subject the message was published on.
  public var subject: String
  /// The subscription it was delivered for.
  public var sid: UInt64
  /// The subject to answer on, if the publisher gave one.
  public var replyTo: String?
  /// The header block of an `HMSG`, `nil` for a `MSG`.
  public var headers: NATSHeaders?
  /// The message body.
  public var payload: ArraySlice<UInt8>

  /// A message from its parts.
  public init(
    subject: String, sid: UInt64, replyTo: String? = nil, headers: NATSHeaders? = nil,
    payload: ArraySlice<UInt8> = []
  ) {
    self.subject = subject
    self.sid = sid
    self.replyTo = replyTo
    self.headers = headers
    self.payload = payload
  }

  /// The status code of a header block's first line (`503` for no responders), if any.
  public var status: Int? { headers?.status }
}
