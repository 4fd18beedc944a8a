/// A stream's configuration, how much it holds, and which server leads it.
public struct JetStreamStreamStatus: Sendable, Equatable, Decodable {
  /// The configuration the server holds.
  public var config: JetStreamStreamConfig
  /// The number of messages stored: with one per subject, the number of retained values.
  public var messageCount: Int
  /// The name of the server that leads the stream's replicas, `nil` without a cluster or
  /// during an election.
  public var leader: String?
  /// When the stream was made, as the server wrote it (RFC 3339 with nanoseconds): a stream
  /// deleted and made again has another.
  public var created: String?
  /// The sequence of the oldest message held, 0 when there is none.
  public var firstSequence: UInt64
  /// The sequence of the newest message ever stored, 0 when there was none.
  public var lastSequence: UInt64
  /// Messages held per subject, when the info was asked with a subjects filter.
  public var subjectCounts: [String: Int]

  private enum CodingKeys: String, CodingKey {
    case config, state, cluster, created
  }

  private struct State: Decodable {
    var messages: Int?
    var firstSequence: UInt64?
    var lastSequence: UInt64?
    var subjects: [String: Int]?

    enum CodingKeys: String, CodingKey {
      case messages, subjects
      case firstSequence = "first_seq"
      case lastSequence = "last_seq"
    }
  }

  private struct Cluster: Decodable {
    var leader: String?
  }

  /// Decodes the info reply, keeping the fields above.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    config = try container.decode(JetStreamStreamConfig.self, forKey: .config)
    let state = try container.decodeIfPresent(State.self, forKey: .state)
    messageCount = state?.messages ?? 0
    firstSequence = state?.firstSequence ?? 0
    lastSequence = state?.lastSequence ?? 0
    subjectCounts = state?.subjects ?? [:]
    created = try container.decodeIfPresent(String.self, forKey: .created)
    leader = try container.decodeIfPresent(Cluster.self, forKey: .cluster)?.leader
  }
}
