/// A stored publish's acknowledgement.
public struct JetStreamPublishAck: Sendable, Equatable, Decodable {
  /// The stream that stored the message.
  public var stream: String
  /// Its sequence in that stream.
  public var sequence: UInt64

  private enum CodingKeys: String, CodingKey {
    case stream
    case sequence = "seq"
  }
}
