/// Identifies one request, to match its reply or failure.
public struct NATSRequestID: Sendable, Hashable, CustomStringConvertible {
  /// The number that is also the last token of the request's reply subject.
  public var value: UInt64

  /// An identifier from its number.
  public init(_ value: UInt64) { self.value = value }

  /// The number, for logs.
  public var description: String { "request \(value)" }
}
