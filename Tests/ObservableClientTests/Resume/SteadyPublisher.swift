import ObservableClient

/// Publishes `0, 1, 2…` to each of `topics` in rounds, a short pause between rounds, so that
/// values flow at a steady rate while a test cuts a subscriber's connection.
struct SteadyPublisher {
  let client: ObservableClient
  let topics: [String]

  /// Publishes `rounds` rounds, or until cancelled; returns how many rounds went out whole.
  func run(rounds: Int, pause: Duration = .milliseconds(2)) async throws -> Int {
    for round in 0..<rounds {
      if Task.isCancelled { return round }
      for topic in topics { try await client.publish(topic, round) }
      try? await Task.sleep(for: pause)
    }
    return rounds
  }
}

/// The checks on what a subscription received: each topic's values as the numbers published.
enum ReceivedValues {
  /// The values of each topic, in the order they arrived.
  static func byTopic(_ deliveries: [Delivery]) -> [String: [Int]] {
    var topics: [String: [Int]] = [:]
    for delivery in deliveries {
      topics[delivery.stream, default: []].append(Int(delivery.valueText) ?? -1)
    }
    return topics
  }

  /// Whether every topic's values only go up: nothing arrived twice or out of order.
  static func strictlyIncreasing(_ deliveries: [Delivery]) -> Bool {
    byTopic(deliveries).values.allSatisfy { values in
      zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
    }
  }
}
