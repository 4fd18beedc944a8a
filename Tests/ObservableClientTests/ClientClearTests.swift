import ObservableClient
import TestSupport
import Testing

/// ``ObservableClient/clear(_:)`` against an in-process server.
@Suite("ObservableClient.clear", .timeLimit(.minutes(1)))
struct ClientClearTests {
  @Test("clear forgets the retained value and says whether there was one")
  func clear() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    try await client.publish("kept", 1, retain: true)
    #expect(try await client.clear("kept") == true)
    #expect(try await client.clear("kept") == false)
    // A subscriber from now on gets the next value first: the cleared one would come before it.
    let received = Received<String>()
    let subscription = client.stream("kept").subscribe { received.append($0.valueText) }
    defer { subscription.unsubscribe() }
    #expect(await eventually { (try? await subscribers("kept", via: client)) == 1 })
    try await client.publish("kept", 2)
    #expect(await eventually { received.count == 1 })
    #expect(received.all == ["2"])
  }

  @Test("clear of a builtin stream throws the server's read_only")
  func readOnly() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    do {
      _ = try await client.clear("clock")
      Issue.record("clear of clock succeeded")
    } catch {
      guard case .server(let code, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(code == .readOnly)
    }
  }
}
