import IndefiniteObservable
import TestSupport

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
