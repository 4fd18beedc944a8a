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
