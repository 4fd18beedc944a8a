import Foundation
import Glibc
import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableClient

@Suite("Reconnection after the server is killed", .timeLimit(.minutes(1)))
struct ReconnectTests {
  @Test("SIGKILL and restart on the same port: values resume without resubscribing by hand")
  func resumesAfterKill() async throws {
    let port = try freeLoopbackPort()
    var server: ServerProcess? = try ServerProcess(port: port)
    let client = try ObservableClient("127.0.0.1:\(port)", configuration: .quiet())
    try await client.connect()
    defer { client.close() }
    let states = Received<ConnectionState>()
    let watching = client.connectionState.subscribe { states.append($0) }
    defer { watching.unsubscribe() }
    let exact = Received<Delivery>()
    let pattern = Received<Delivery>()
    let one = client.stream("room.1").subscribe { exact.append($0) }
    let all = client.stream("room.*").subscribe { pattern.append($0) }
    defer {
      one.unsubscribe()
      all.unsubscribe()
    }
    try await client.publish("room.1", "before", retain: true)
    #expect(await eventually { exact.count >= 1 && pattern.count >= 1 })

    server?.signal(SIGKILL)
    _ = server?.waitForExit()
    server = nil
    #expect(
      await eventually {
        states.all.contains { if case .disconnected = $0 { true } else { false } }
      })
    server = try ServerProcess(port: port)
    #expect(await eventually(timeout: .seconds(10)) { states.all.last == .connected })
    // Nobody subscribed again by hand; the client did, so the publish reaches both.
    #expect(try await client.publish("room.1", "after") >= 2)
    #expect(await eventually { exact.all.map(\.valueText).contains(#""after""#) })
    #expect(await eventually { pattern.all.map(\.valueText).contains(#""after""#) })
    #expect(exact.all.first?.valueText == #""before""#)
    _ = server
  }

  @Test("a retained value arrives again after a reconnect")
  func retainedValueAgain() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let received = Received<String>()
    let subscription = client.stream("kept", as: String.self).subscribe { received.append($0) }
    defer { subscription.unsubscribe() }
    try await client.publish("kept", "v1", retain: true)
    #expect(await eventually { received.count == 1 })
    let states = Received<ConnectionState>()
    let watching = client.connectionState.subscribe { states.append($0) }
    defer { watching.unsubscribe() }
    // Cut the connection under the client, as a network failure would; the server lives on.
    client.core.writer.withLock { $0?.shutDown() }
    #expect(await eventually { received.count == 2 })
    #expect(received.all == ["v1", "v1"])
    #expect(states.all.contains { if case .disconnected = $0 { true } else { false } })
    #expect(states.all.last == .connected)
    #expect(try await client.publish("kept", "v2") == 1)
    #expect(await eventually { received.all.last == "v2" })
  }
}
