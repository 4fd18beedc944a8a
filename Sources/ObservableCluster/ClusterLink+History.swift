import ObservableStreams
import ObservableWire

/// Topic history through JetStream, as the sessions ask for it: each call goes to
/// ``ClusterHistory``, or is refused when the server keeps no history. Any thread.
extension ClusterLink {
  package var keepsHistory: Bool { history != nil }

  package func subscribeWithPositions(
    _ name: String, isPattern: Bool, since: StreamPosition?, observer: StreamObserver,
    reply: @escaping @Sendable (Result<SubscriptionStart, ProtocolError>) -> Void
  ) -> @Sendable () -> Void {
    guard let history else {
      reply(.failure(Self.noHistory))
      return {}
    }
    return history.subscribe(
      name, isPattern: isPattern, since: since, observer: observer, reply: reply)
  }

  package func readHistory(
    _ name: String, isPattern: Bool, limit: Int?,
    completion: @escaping @Sendable (Result<(lines: [UInt8], count: Int), ProtocolError>) -> Void
  ) {
    guard let history else { return completion(.failure(Self.noHistory)) }
    history.read(name, isPattern: isPattern, limit: limit, completion: completion)
  }

  private static let noHistory = ProtocolError(
    .unsupported, "the server keeps no history; start it with --history N")
}
