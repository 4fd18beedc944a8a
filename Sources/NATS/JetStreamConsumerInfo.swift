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
