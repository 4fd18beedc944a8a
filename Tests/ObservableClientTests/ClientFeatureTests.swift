import Foundation
import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableClient

@Suite("Client features against a local server", .timeLimit(.minutes(1)))
struct ClientFeatureTests {
  @Test("the right token connects; a wrong or missing one is refused with unauthorized")
  func token() async throws {
    let server = try LocalServer { $0.token = "s3cret" }
    let good = try await server.client { $0.token = "s3cret" }
    defer { good.close() }
    #expect(try await good.publish("t", 1) == 0)

    for token in ["wrong", nil] as [String?] {
      let bad = try ObservableClient(server.address, configuration: .quiet { $0.token = token })
      await #expect {
        try await bad.connect()
      } throws: { error in
        guard case .server(let code, _) = error as? ClientError else { return false }
        return code == .unauthorized
      }
      #expect(bad.currentState == .closed)
    }
  }

  @Test("values that do not decode are skipped and counted")
  func decodingFailures() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let received = Received<Int>()
    let subscription = client.stream("n", as: Int.self).subscribe { received.append($0) }
    defer { subscription.unsubscribe() }
    try await client.publish("n", 1)
    try await client.publish("n", "two")
    try await client.publish("n", json: Data(#"{"three":3}"#.utf8))
    try await client.publish("n", 4)
    #expect(await eventually { received.count == 2 })
    #expect(received.all == [1, 4])
    #expect(client.decodingFailures == 2)
  }

  @Test("Codable values round-trip through publish and stream(_:as:)")
  func codableRoundTrip() async throws {
    struct Reading: Codable, Equatable, Sendable {
      var room: String
      var temp: Double
    }
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let received = Received<Reading>()
    let subscription = client.stream("reading", as: Reading.self).subscribe { received.append($0) }
    defer { subscription.unsubscribe() }
    let sent = [Reading(room: "a \"quoted\"\nroom", temp: 21.5), Reading(room: "b", temp: -3)]
    for reading in sent { #expect(try await client.publish("reading", reading) == 1) }
    #expect(await eventually { received.count == 2 })
    #expect(received.all == sent)
  }

  @Test("a for-await loop receives values and unsubscribes when it is left")
  func asyncSequence() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let publisher = Task {
      // Publishes until the loop below has what it wants and the subscription is gone.
      var number = 0
      while !Task.isCancelled {
        number += 1
        _ = try? await client.publish("seq", number)
        try? await Task.sleep(for: .milliseconds(2))
      }
    }
    defer { publisher.cancel() }
    var seen: [Int] = []
    for await value in client.stream("seq", as: Int.self).values {
      seen.append(value)
      if seen.count == 3 { break }
    }
    #expect(seen.count == 3)
    #expect(seen == seen.sorted())
    #expect(try await eventually { try await subscribers("seq", via: client) == 0 })
    #expect(client.core.state.withLock { $0.sent["unsubscribe"] } == 1)
  }

  @Test("compressed connection: subscribe, publish, list")
  func compression() async throws {
    let server = try LocalServer()
    let client = try await server.client { $0.compression = true }
    defer { client.close() }
    let received = Received<String>()
    let subscription = client.stream("z", as: String.self).subscribe { received.append($0) }
    defer { subscription.unsubscribe() }
    let text = String(repeating: "compressible ", count: 200)
    for _ in 0..<3 { #expect(try await client.publish("z", text) == 1) }
    #expect(await eventually { received.count == 3 })
    #expect(received.all.allSatisfy { $0 == text })
    #expect(try await client.list().contains { $0.name == "z" && $0.subscribers == 1 })
  }

  @Test("server errors carry the protocol's code")
  func serverErrors() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    await #expect(throws: ClientError.self) { try await client.publish("bad..name", 1) }
    do {
      try await client.publish("clock", 1)
      Issue.record("publishing to clock succeeded")
    } catch {
      guard case .server(let code, _) = error else { throw error }
      #expect(code == .readOnly)
    }
  }

  @Test("no server at the address: connect fails naming it")
  func connectionRefused() async throws {
    let port = try LocalServer().port  // free again once that server is gone
    let client = try ObservableClient("127.0.0.1:\(port)", configuration: .quiet())
    do {
      try await client.connect()
      Issue.record("connected to a closed port")
    } catch {
      guard case .connectionFailed(let address, _) = error else { throw error }
      #expect(address == "127.0.0.1:\(port)")
    }
    await #expect(throws: ClientError.notConnected) { try await client.ping() }
  }

  @Test("the connection state is observable")
  func connectionState() async throws {
    let server = try LocalServer()
    let client = try ObservableClient(server.address, configuration: .quiet())
    let states = Received<ConnectionState>()
    let subscription = client.connectionState.subscribe { states.append($0) }
    defer { subscription.unsubscribe() }
    try await client.connect()
    client.close()
    #expect(states.all == [.idle, .connecting, .connected, .closed])
    await #expect(throws: ClientError.closed) { try await client.ping() }
  }
}
