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

/// A NATS header block: the `NATS/1.0` line with an optional status, then MIME-style fields.
public struct NATSHeaders: Sendable, Equatable {
  /// One `Name: Value` line.
  public struct Field: Sendable, Equatable {
    /// The field name as sent; names compare without case.
    public var name: String
    /// The value, without surrounding blanks.
    public var value: String

    /// A field from its parts.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The status code on the first line (`NATS/1.0 503`), used by the server for replies
  /// such as no responders (503), not found (404), and flow control (100).
  public var status: Int?
  /// The text after the status code (`Message Not Found`), empty when there is none.
  public var statusDescription: String
  /// The fields in the order received; a name may repeat.
  public var fields: [Field]

  /// A header block from its parts; what a publisher builds has no status.
  public init(status: Int? = nil, statusDescription: String = "", fields: [Field] = []) {
    self.status = status
    self.statusDescription = statusDescription
    self.fields = fields
  }

  /// The first value of field `name`, compared without case.
  public subscript(name: String) -> String? {
    let wanted = name.lowercased()
    return fields.first { $0.name.lowercased() == wanted }?.value
  }

  /// Appends a field.
  public mutating func append(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }
}

/// What the server sent, one protocol operation at a time.
public enum NATSServerOperation: Sendable, Equatable {
  /// `INFO`: the server's description, at connection and again when the cluster changes.
  case info(NATSServerInfo)
  /// `MSG` or `HMSG`.
  case message(NATSMessage)
  /// `PING`: the server checks that the client is alive, and expects a `PONG`.
  case ping
  /// `PONG`: the answer to the client's `PING`.
  case pong
  /// `+OK`, sent only in verbose mode.
  case ok
  /// `-ERR`, with the text between the quotes.
  case error(String)
}
