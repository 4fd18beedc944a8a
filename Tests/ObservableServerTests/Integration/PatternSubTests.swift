import Testing

@testable import ObservableServer

/// Protocol 1.1 over real sockets: `"sub"` on deliveries through patterns, the greeting's
/// `features`, and the shorthand's case and short forms.
@Suite("Protocol 1.1 over real sockets", .timeLimit(.minutes(1)))
struct PatternSubTests {
  @Test("the greeting keeps protocol 1 and names the sub feature")
  func greetingFeatures() throws {
    let server = try TestServer()
    let client = try server.connect()
    #expect(client.greeting["protocol"] as? Int == 1)
    #expect(client.greeting["features"] as? [String] == ["sub"])
  }

  @Test("room.*, room.> and room.1 on one connection: three lines, told apart by sub")
  func overlappingSubscriptions() throws {
    let server = try TestServer()
    let client = try server.connect()
    for name in ["room.*", "room.>", "room.1"] {
      #expect(try client.request("subscribe \(name)")["ok"] as? Bool == true)
    }
    let publisher = try server.connect()
    #expect(
      try publisher.request(#"{"op":"publish","stream":"room.1","value":21.5}"#)["receivers"]
        as? Int == 3)
    var subs: [String] = []
    for _ in 0..<3 {
      let line = try client.readJSON()
      #expect(line["stream"] as? String == "room.1")
      #expect(line["value"] as? Double == 21.5)
      subs.append(line["sub"] as? String ?? "exact")
      #expect(line.count == (line["sub"] == nil ? 2 : 3))
    }
    #expect(subs.sorted() == ["exact", "room.*", "room.>"])
    // Without the exact subscription the topic is gone; the index still labels each line.
    try client.request("unsubscribe room.1")
    #expect(try publisher.request("publish room.1 7")["receivers"] as? Int == 2)
    let labelled = try (0..<2).map { _ in try client.readJSON()["sub"] as? String }
    #expect(Set(labelled) == ["room.*", "room.>"])
  }

  @Test("batched publishes reach a pattern subscriber labelled and in order")
  func batchedPublishes() throws {
    let server = try TestServer()
    let subscriber = try server.connect()
    try subscriber.request("subscribe feed.*")
    let publisher = try server.connect()
    // The retained value makes the topic and the publisher's last topic, so that the rest,
    // without ids and in one write, are batched.
    try publisher.request("retain feed.a 0")
    let count = 200
    try publisher.send(
      (1...count).map { #"{"op":"publish","stream":"feed.a","value":\#($0)}"# }
        .joined(separator: "\n"))
    for expected in 0...count {
      let line = try subscriber.readJSON()
      #expect(line["sub"] as? String == "feed.*")
      #expect(line["value"] as? Int == expected)
      if line["value"] as? Int != expected { break }
    }
  }

  @Test("commands are case-insensitive, with sub, unsub and pub for the long forms")
  func shorthandForms() throws {
    let server = try TestServer()
    let client = try server.connect()
    #expect(try client.request("SUB news.*")["op"] as? String == "subscribe")
    #expect(try client.request("Pub news.a hello")["receivers"] as? Int == 1)
    // The value goes out before the publish's reply.
    let value = try client.takeDeliveries().first ?? client.readJSON()
    #expect(value["value"] as? String == "hello")
    #expect(value["sub"] as? String == "news.*")
    #expect(try client.request("UNSUB news.*")["op"] as? String == "unsubscribe")
    #expect(try client.request("pub news.a again")["receivers"] as? Int == 0)
  }
}
