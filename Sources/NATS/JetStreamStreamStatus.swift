/// A stream's configuration, how much it holds, and which server leads it.
public struct JetStreamStreamStatus: Sendable, Equatable, Decodable {
  /// The configuration the server holds.
  public var config: JetStreamStreamConfig
  /// The number of messages stored: with one per subject, the number of retained values.
  public var messageCount: Int
  /// The name of the server that leads the stream's replicas, `nil` without a cluster or
  /// during an election.
  public var leader: String?

  private enum CodingKeys: String, CodingKey {
    case config, state, cluster
  }

  private struct State: Decodable {
    var messages: Int?
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
    leader = try container.decodeIfPresent(Cluster.self, forKey: .cluster)?.leader
  }
}
