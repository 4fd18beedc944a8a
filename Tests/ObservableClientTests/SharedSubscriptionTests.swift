import Foundation
import IndefiniteObservable
import Locking
import TestSupport
import Testing

@testable import ObservableClient

@Suite("Shared network subscriptions", .timeLimit(.minutes(1)))
struct SharedSubscriptionTests {
  @Test("nothing is sent until the first local observer subscribes")
  func lazySubscribe() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let observable = client.stream("room.1")
    #expect(client.core.state.withLock { $0.sent["subscribe"] } == nil)
    let subscription = observable.subscribe { _ in }
    #expect(client.core.state.withLock { $0.sent["subscribe"] } == 1)
    #expect(try await eventually { try await subscribers("room.1", via: client) == 1 })
    subscription.unsubscribe()
  }

  @Test(
    "16 racing threads share one subscription and send exactly one unsubscribe", arguments: 0..<5)
  func racingObservers(_ round: Int) async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let name = "race.\(round)"
    let observable = client.stream(name)
    let received = Received<Int>()
    let subscriptions = Locked<[Subscription]>([])
    DispatchQueue.concurrentPerform(iterations: 16) { index in
      let subscription = observable.subscribe { _ in received.append(index) }
      subscriptions.withLock { $0.append(subscription) }
    }
    #expect(try await eventually { try await subscribers(name, via: client) == 1 })
    #expect(try await client.publish(name, round) == 1)
    #expect(await eventually { received.count == 16 })
    #expect(Set(received.all) == Set(0..<16))

    let all = subscriptions.withLock { $0 }
    // Every subscription unsubscribed twice, from 32 threads at once.
    DispatchQueue.concurrentPerform(iterations: 32) { all[$0 % 16].unsubscribe() }
    let sent = client.core.state.withLock { $0.sent }
    #expect(sent["subscribe"] == 1)
    #expect(sent["unsubscribe"] == 1)
    #expect(try await eventually { try await subscribers(name, via: client) == 0 })
    #expect(try await client.publish(name, 1) == 0)
    #expect(received.count == 16)
  }

  @Test("dropping a Subscription does not unsubscribe")
  func droppedSubscriptionStays() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let received = Received<Delivery>()
    do {
      _ = client.stream("kept").subscribe { received.append($0) }
    }
    #expect(try await eventually { try await subscribers("kept", via: client) == 1 })
    #expect(try await client.publish("kept", "still here") == 1)
    #expect(await eventually { received.count == 1 })
    #expect(received.all.first?.valueText == #""still here""#)
    #expect(client.core.state.withLock { $0.sent["unsubscribe"] } == nil)
  }

  @Test("a pattern subscription delivers the concrete name and the raw value")
  func patternDelivery() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let received = Received<Delivery>()
    let subscription = client.stream("room.*").subscribe { received.append($0) }
    defer { subscription.unsubscribe() }
    _ = try await client.ping()
    #expect(try await client.publish("room.7", json: Data(#"{"temp":21.5}"#.utf8)) == 1)
    #expect(await eventually { received.count == 1 })
    let delivery = try #require(received.all.first)
    #expect(delivery.stream == "room.7")
    #expect(delivery.subscription == "room.*")
    #expect(delivery.valueText == #"{"temp":21.5}"#)
  }
}
