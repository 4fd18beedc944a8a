import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableClient

/// The clients of a resume test: a publisher, and a subscriber that reconnects after
/// `reconnectDelay` and watches `feed.1` exactly, `feed.*` by pattern, and the gaps, with
/// what each received. It keeps the servers it talks to (`keeping`) alive until it goes.
struct ResumingClients: Sendable {
  let publisher: ObservableClient
  let subscriber: ObservableClient
  let exact = Received<Delivery>()
  let pattern = Received<Delivery>()
  let gaps = Received<ResumeGap>()
  private let servers: any Sendable
  private var subscriptions: [Subscription] = []

  /// Connects both clients and waits until the subscriber's subscriptions are in place.
  init(
    publishingTo publisherAddress: String, subscribingAt subscriberAddress: String,
    reconnectDelay: Duration, keeping servers: any Sendable
  ) async throws {
    self.servers = servers
    publisher = try ObservableClient(publisherAddress, configuration: .quiet())
    subscriber = try ObservableClient(
      subscriberAddress,
      configuration: .quiet {
        $0.reconnect = ReconnectPolicy(initialDelay: reconnectDelay, maximumDelay: reconnectDelay)
      })
    try await publisher.connect()
    try await subscriber.connect()
    let (exact, pattern, gaps) = (exact, pattern, gaps)
    subscriptions = [
      subscriber.gaps.subscribe { gaps.append($0) },
      subscriber.stream("feed.1").subscribe { exact.append($0) },
      subscriber.stream("feed.*").subscribe { pattern.append($0) },
    ]
    // Replies come in order: once the ping's is back, both subscriptions are on the server.
    try await subscriber.ping()
  }

  func close() {
    for subscription in subscriptions { subscription.unsubscribe() }
    subscriber.close()
    publisher.close()
  }
}

extension ResumingClients {
  /// Expects that `feed.1` and every topic of `feed.*` got the values 0 to `rounds - 1` once
  /// each and in order, all with positions, and that no gap was reported.
  func expectEveryValueOnce(
    rounds: Int, topics: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let expected = Array(0..<rounds)
    #expect(
      ReceivedValues.byTopic(exact.all) == ["feed.1": expected], sourceLocation: sourceLocation)
    #expect(
      ReceivedValues.byTopic(pattern.all)
        == Dictionary(uniqueKeysWithValues: topics.map { ($0, expected) }),
      sourceLocation: sourceLocation)
    #expect(
      exact.all.allSatisfy { $0.position != nil && $0.subscription == "feed.1" },
      sourceLocation: sourceLocation)
    #expect(gaps.all.isEmpty, sourceLocation: sourceLocation)
  }

  /// Expects gaps reported for both subscriptions, each as history that no longer reaches
  /// back, and no value twice or out of order on either.
  func expectGapsReportedAndNothingTwice(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      Set(gaps.all.map(\.subscription)) == ["feed.1", "feed.*"], sourceLocation: sourceLocation)
    #expect(gaps.all.allSatisfy { $0.cause == .historyEvicted }, sourceLocation: sourceLocation)
    #expect(ReceivedValues.strictlyIncreasing(exact.all), sourceLocation: sourceLocation)
    #expect(ReceivedValues.strictlyIncreasing(pattern.all), sourceLocation: sourceLocation)
  }
}
