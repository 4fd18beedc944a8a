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
  /// How long a message is kept, in nanoseconds; `nil` (or 0) keeps it as the other limits allow.
  public var maxAge: Int64?
  /// Bytes the stream may hold; the oldest messages go first; `nil` (or -1) for no limit.
  public var maxBytes: Int64?

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
    case maxAge = "max_age"
    case maxBytes = "max_bytes"
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
    // The server reports "no limit" as 0 and -1; they decode as nil, what a configuration
    // without the limit says, so that a stream read back equals the one that was made.
    maxAge = try container.decodeIfPresent(Int64.self, forKey: .maxAge).flatMap {
      $0 > 0 ? $0 : nil
    }
    maxBytes = try container.decodeIfPresent(Int64.self, forKey: .maxBytes).flatMap {
      $0 >= 0 ? $0 : nil
    }
  }
}
