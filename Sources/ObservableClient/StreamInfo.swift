/// One stream the server knows, as ``ObservableClient/list(matching:)`` reports it.
public struct StreamInfo: Sendable, Equatable, Codable {
  /// The stream's name.
  public let name: String
  /// `builtin`, `exec` or `topic`.
  public let kind: String
  /// How many subscriptions (exact or by pattern) observe it now.
  public let subscribers: Int

  /// Creates an entry; the client makes these from the server's `list` reply.
  public init(name: String, kind: String, subscribers: Int) {
    self.name = name
    self.kind = kind
    self.subscribers = subscribers
  }
}
