/// The metadata in the reply subject of a message a push consumer delivers
/// (`$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<time>.<pending>`).
public struct JetStreamDeliveryMetadata: Sendable, Equatable {
  /// The stream the message is stored in.
  public var stream: String
  /// Its sequence in the stream.
  public var streamSequence: UInt64
  /// Its sequence among this consumer's deliveries.
  public var consumerSequence: UInt64
  /// How many more messages the consumer has to deliver after this one.
  public var pending: UInt64

  /// Metadata from its parts.
  public init(stream: String, streamSequence: UInt64, consumerSequence: UInt64, pending: UInt64) {
    self.stream = stream
    self.streamSequence = streamSequence
    self.consumerSequence = consumerSequence
    self.pending = pending
  }

  /// Reads the metadata of the first or the second (domain and account) form; `nil` for
  /// another subject.
  public init?(replySubject: String) {
    let tokens = replySubject.split(separator: ".", omittingEmptySubsequences: false)
    guard tokens.count >= 9, tokens[0] == "$JS", tokens[1] == "ACK" else { return nil }
    // The second form adds the domain and the account hash after ACK, and a random token.
    let base = tokens.count == 9 ? 2 : 4
    guard tokens.count >= base + 7, let streamSequence = UInt64(tokens[base + 3]),
      let consumerSequence = UInt64(tokens[base + 4]), let pending = UInt64(tokens[base + 6])
    else { return nil }
    stream = String(tokens[base])
    self.streamSequence = streamSequence
    self.consumerSequence = consumerSequence
    self.pending = pending
  }
}
