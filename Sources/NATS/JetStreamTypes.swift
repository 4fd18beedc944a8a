/// A stream's configuration: the part of it the cluster sets.
public struct JetStreamStreamConfig: Sendable, Equatable, Codable {
  /// The stream's name.
  public var name: String
  /// The subjects it stores; they may use wildcards.
  public var subjects: [String]
  /// How many messages it keeps per subject; 1 keeps the last value only.
  public var maxMessagesPerSubject: Int
  /// On how many servers it is stored.
  public var replicas: Int
  /// Whether any replica answers direct gets, not only the leader.
  public var allowDirect: Bool
  /// `file` or `memory`.
  public var storage: String

  /// A configuration for retained values: one message per subject, replicated, on file.
  public init(
    name: String, subjects: [String], maxMessagesPerSubject: Int = 1, replicas: Int = 1,
    allowDirect: Bool = true, storage: String = "file"
  ) {
    self.name = name
    self.subjects = subjects
    self.maxMessagesPerSubject = maxMessagesPerSubject
    self.replicas = replicas
    self.allowDirect = allowDirect
    self.storage = storage
  }

  private enum CodingKeys: String, CodingKey {
    case name, subjects, storage
    case maxMessagesPerSubject = "max_msgs_per_subject"
    case replicas = "num_replicas"
    case allowDirect = "allow_direct"
  }

  /// Decodes a server's configuration, which may leave out fields at their defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    subjects = try container.decodeIfPresent([String].self, forKey: .subjects) ?? []
    maxMessagesPerSubject =
      try container.decodeIfPresent(Int.self, forKey: .maxMessagesPerSubject) ?? -1
    replicas = try container.decodeIfPresent(Int.self, forKey: .replicas) ?? 1
    allowDirect = try container.decodeIfPresent(Bool.self, forKey: .allowDirect) ?? false
    storage = try container.decodeIfPresent(String.self, forKey: .storage) ?? "file"
  }
}

/// A message read back from a stream.
public struct JetStreamStoredMessage: Sendable, Equatable {
  /// The subject it was published on.
  public var subject: String
  /// Its sequence number in the stream.
  public var sequence: UInt64
  /// Its body.
  public var payload: ArraySlice<UInt8>
}

/// What the server says of a consumer it created.
public struct JetStreamConsumerInfo: Sendable, Equatable, Decodable {
  /// The consumer's name, generated for an ephemeral one; needed to delete it.
  public var name: String
  /// How many messages it will deliver from what is stored now: for a `last_per_subject`
  /// consumer, the number of subjects with a value.
  public var pendingCount: Int

  private enum CodingKeys: String, CodingKey {
    case name
    case pendingCount = "num_pending"
  }

  /// A consumer description from its parts.
  public init(name: String, pendingCount: Int) {
    self.name = name
    self.pendingCount = pendingCount
  }

  /// Decodes the reply, where `num_pending` is missing when it is zero.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    pendingCount = try container.decodeIfPresent(Int.self, forKey: .pendingCount) ?? 0
  }
}

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
