import IndefiniteObservable
import ObservableClient
import Testing

/// The README's client example, pasted as printed (without its imports, which are above), so
/// that it keeps compiling. It needs a server on 127.0.0.1:7070, so the test only compiles it.
enum ReadmeClientExample {
  static func run() async throws {

    struct Reading: Codable, Sendable {
      var temp: Double
    }

    let client = try ObservableClient("127.0.0.1:7070")  // ClientConfiguration: token, compression…
    try await client.connect()
    let subscription = client.stream("room.*", as: Reading.self).subscribe { reading in
      print("temp:", reading.temp)
    }
    let receivers = try await client.publish("room.1", Reading(temp: 21.5), retain: false)
    print("receivers:", receivers)
    for await delivery in client.stream("clock").values {
      print(delivery.stream, delivery.valueText)  // clock "2026-11-23T17:12:00Z"
      break  // leaving the loop unsubscribes
    }
    subscription.unsubscribe()
    client.close()
  }
}

@Suite("README client example")
struct ReadmeClientExampleTests {
  @Test("compiles as printed")
  func compiles() {
    let example: () async throws -> Void = ReadmeClientExample.run
    _ = example
  }
}
