/// A message read back from a stream.
public struct JetStreamStoredMessage: Sendable, Equatable {
  /// The subject it was published on.
  public var subject: String
  /// Its sequence number in the stream.
  public var sequence: UInt64
  /// Its body.
  public var payload: ArraySlice<UInt8>
}
