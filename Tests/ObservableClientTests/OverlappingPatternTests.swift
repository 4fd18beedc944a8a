import Foundation
import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableClient

@Suite("Overlapping subscriptions on one connection", .timeLimit(.minutes(1)))
struct OverlappingPatternTests {
  static let names = ["room.*", "room.>", "room.1"]

  @Test("protocol 1.1: each delivery reaches only the subscription its sub names")
  func routedBySub() async throws {
    let server = try ScriptedServer(
      greeting: #"{"hello":"observable-server","version":"1.1.0","protocol":1,"features":["sub"]}"#,
      requests: 3,
      then: [
        #"{"stream":"room.1","sub":"room.*","value":1}"#,
        #"{"stream":"room.1","sub":"room.>","value":2}"#,
        #"{"stream":"room.1","value":3}"#,
        #"{"stream":"room.2","sub":"room.*","value":4}"#,
      ])
    let client = try ObservableClient("127.0.0.1:\(server.port)", configuration: .quiet())
    try await client.connect()
    defer { client.close() }
    let received = Self.names.map { _ in Received<Delivery>() }
    let subscriptions = zip(Self.names, received).map { name, box in
      client.stream(name).subscribe { box.append($0) }
    }
    defer { for subscription in subscriptions { subscription.unsubscribe() } }
    #expect(
      await eventually {
        received[0].count == 2 && received[1].count == 1 && received[2].count == 1
      })
    #expect(received[0].all.map(\.valueText) == ["1", "4"])
    #expect(received[0].all.map(\.stream) == ["room.1", "room.2"])
    #expect(received[1].all.map(\.valueText) == ["2"])
    #expect(received[2].all.map(\.valueText) == ["3"])
    #expect(received.map { $0.all.first?.subscription } == Self.names)
  }

  @Test(
    "against the real server: one value per observer with sub, else one per matching subscription")
  func realServer() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let received = Self.names.map { _ in Received<Delivery>() }
    let subscriptions = zip(Self.names, received).map { name, box in
      client.stream(name).subscribe { box.append($0) }
    }
    defer { for subscription in subscriptions { subscription.unsubscribe() } }
    #expect(try await client.publish("room.1", 21.5) == 3)
    _ = try await client.ping()
    let withSub = client.core.state.withLock { $0.serverSendsSub }
    // Without "sub", the server sends three identical lines and each goes to every matching
    // local subscription, as the documentation says.
    let expected = withSub ? 1 : 3
    #expect(await eventually { received.allSatisfy { $0.count == expected } })
    for (name, box) in zip(Self.names, received) {
      #expect(box.all.allSatisfy { $0.subscription == name && $0.stream == "room.1" })
      #expect(box.all.allSatisfy { $0.valueText == "21.5" })
    }
  }
}
