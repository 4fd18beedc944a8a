import Foundation
import TestSupport
import Testing

@testable import ObservableClient

@Suite("What the client does with bad input from a server", .timeLimit(.minutes(1)))
struct BoundedInputTests {
  static let greeting =
    #"{"hello":"observable-server","version":"1.1.0","protocol":1,"features":["sub"]}"#

  @Test("a line over the limit drops the connection instead of growing the buffer")
  func overlongLine() async throws {
    let server = try ScriptedServer(
      greeting: Self.greeting, requests: 1,
      then: [#"{"stream":"a","value":""# + String(repeating: "x", count: 5_000) + #""}"#])
    let client = try ObservableClient(
      "127.0.0.1:\(server.port)", configuration: .quiet { $0.maximumLineBytes = 1_024 })
    // Watched from before the connection, so a drop that comes quickly is not missed.
    let states = Received<ConnectionState>()
    let watching = client.connectionState.subscribe { states.append($0) }
    defer { watching.unsubscribe() }
    try await client.connect()
    defer { client.close() }
    let received = Received<Delivery>()
    let subscription = client.stream("a").subscribe { received.append($0) }
    defer { subscription.unsubscribe() }
    #expect(
      await eventually {
        states.all.contains {
          if case .disconnected(let reason, _) = $0 {
            reason.contains("longer than 1024")
          } else {
            false
          }
        }
      })
    #expect(received.count == 0)
  }

  @Test("lines that are not JSON or not deliveries are skipped; the next value still arrives")
  func garbageLines() async throws {
    let server = try ScriptedServer(
      greeting: Self.greeting, requests: 1,
      then: [
        "not json", "[1,2]", #"{"stream":"a"}"#, #"{"stream":"a","value":tru}"#,
        #"{"stream":"a","value":"fine"}"#,
      ])
    let client = try ObservableClient("127.0.0.1:\(server.port)", configuration: .quiet())
    try await client.connect()
    defer { client.close() }
    let received = Received<Delivery>()
    let subscription = client.stream("a").subscribe { received.append($0) }
    defer { subscription.unsubscribe() }
    #expect(await eventually { received.count == 1 })
    #expect(received.all.map(\.valueText) == [#""fine""#])
    #expect(client.currentState == .connected)
  }
}

@Suite("Keep-alive", .timeLimit(.minutes(1)))
struct KeepAliveTests {
  @Test("a server that stops answering is dropped after two silent intervals")
  func silentServerDropped() async throws {
    // Answers the subscribe, then reads nothing more and says nothing more.
    let server = try ScriptedServer(greeting: BoundedInputTests.greeting, requests: 1, then: [])
    let client = try ObservableClient(
      "127.0.0.1:\(server.port)",
      configuration: .quiet { $0.keepAliveInterval = .milliseconds(100) })
    // Watched from before the connection, so a drop that comes quickly is not missed.
    let states = Received<ConnectionState>()
    let watching = client.connectionState.subscribe { states.append($0) }
    defer { watching.unsubscribe() }
    try await client.connect()
    defer { client.close() }
    let subscription = client.stream("a").subscribe { _ in }
    defer { subscription.unsubscribe() }
    #expect(
      await eventually {
        states.all.contains {
          if case .disconnected(let reason, _) = $0 { reason.contains("keep-alive") } else { false }
        }
      })
    #expect(client.core.state.withLock { $0.sent["keepalive", default: 0] } >= 1)
  }

  @Test("a live server answers the keep-alive ping and the connection stays")
  func liveServerKept() async throws {
    let server = try LocalServer()
    let client = try await server.client { $0.keepAliveInterval = .milliseconds(50) }
    defer { client.close() }
    let states = Received<ConnectionState>()
    let watching = client.connectionState.subscribe { states.append($0) }
    defer { watching.unsubscribe() }
    // Three answered keep-alives: more than two silent intervals passed without a drop.
    #expect(
      await eventually { client.core.state.withLock { $0.sent["keepalive", default: 0] } >= 3 })
    #expect(states.all == [.connected])
    #expect(try await client.publish("k", 1) == 0)
  }
}
