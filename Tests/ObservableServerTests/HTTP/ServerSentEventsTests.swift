import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// `GET /sse` against a running server: events, retained values first, heartbeats, the
/// disconnects at close, credentials, and refused requests.
@Suite("Server-Sent Events", .timeLimit(.minutes(1)))
struct ServerSentEventsTests {
  @Test func eventsCarryTheDeliveryLinesRetainedFirst() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let publisher = try server.connect()
    defer { publisher.close() }
    try publisher.request(#"{"op":"publish","stream":"room.a","value":{"n":0},"retain":true}"#)
    let events = try EventStreamClient(server, query: "stream=room.a&stream=other")
    defer { events.close() }
    #expect(
      events.read(until: "event:room.a\ndata:{\"stream\":\"room.a\",\"value\":{\"n\":0}}\n\n"))
    #expect(events.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(events.text.contains("Content-Type: text/event-stream\r\n"))
    // First, how long a browser waits before it reconnects: 3 s unless configured.
    #expect(events.text.contains("\r\n\r\nretry: 3000\n\nevent:room.a\n"), "\(events.text)")
    try publisher.request("{\"op\":\"publish\",\"stream\":\"room.a\",\"value\":[1,\t2]}")
    try publisher.request(#"{"op":"publish","stream":"other","value":"x"}"#)
    #expect(events.read(until: "event:other\ndata:{\"stream\":\"other\",\"value\":\"x\"}\n\n"))
    #expect(events.text.contains("data:{\"stream\":\"room.a\",\"value\":[1,\t2]}\n\n"))
    // Neither the greeting nor a subscribe's reply is an event.
    #expect(!events.text.contains("hello") && !events.text.contains(#""ok":true"#))
  }

  @Test func patternsAndEscapedNamesSubscribe() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    // `room.>` written as a browser's URLSearchParams would.
    let events = try EventStreamClient(server, query: "stream=room.%3E")
    defer { events.close() }
    #expect(events.read(until: "\r\n\r\n"))
    let publisher = try server.connect()
    defer { publisher.close() }
    #expect(
      eventually {
        (try? publisher.request(#"{"op":"publish","stream":"room.b.c","value":1}"#))?["receivers"]
          as? Int == 1
      })
    #expect(events.read(until: #"event:room.b.c"# + "\ndata:"))
    #expect(events.text.contains(#""sub":"room.>""#))
  }

  @Test func manyReadersOfTwoTopicsEachGetTheirOwnEventsInOrder() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let readers = try (0..<8).map { index in
      try EventStreamClient(server, query: "stream=\(index % 2 == 0 ? "even" : "odd")")
    }
    defer { for reader in readers { reader.close() } }
    for reader in readers { #expect(reader.read(until: "\r\n\r\n")) }
    let publisher = try server.connect()
    defer { publisher.close() }
    #expect(
      eventually {
        (try? publisher.request(#"{"op":"list","stream":"odd"}"#))
          .flatMap { ($0["streams"] as? [[String: Any]])?.first?["subscribers"] as? Int } == 4
      })
    for value in 0..<50 {
      try publisher.send(#"{"op":"publish","stream":"even","value":\#(value)}"#)
      try publisher.send(#"{"op":"publish","stream":"odd","value":\#(value + 1000)}"#)
    }
    for (index, reader) in readers.enumerated() {
      let (name, offset) = index % 2 == 0 ? ("even", 0) : ("odd", 1000)
      let expected = (0..<50).map {
        "event:\(name)\ndata:{\"stream\":\"\(name)\",\"value\":\($0 + offset)}\n\n"
      }.joined()
      #expect(reader.read(until: expected), "\(reader.text.suffix(200))")
      #expect(!reader.text.contains(#""stream":"\#(index % 2 == 0 ? "odd" : "even")""#))
    }
  }

  @Test func aCarriageReturnInAValueDoesNotEndTheDataLine() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let publisher = try server.connect()
    defer { publisher.close() }
    try publisher.request("{\"op\":\"publish\",\"stream\":\"t\",\"value\":[1,\r2],\"retain\":true}")
    let events = try EventStreamClient(server, query: "stream=t")
    defer { events.close() }
    #expect(events.read(until: "data:{\"stream\":\"t\",\"value\":[1, 2]}\n\n"))
    #expect(!events.text.contains("\r2"))
  }

  @Test func anIdleStreamGetsHeartbeats() throws {
    let server = try TestServer.withHTTP { $0.serverSentEventsHeartbeat = .milliseconds(50) }
    defer { server.stop() }
    let events = try EventStreamClient(server, query: "stream=quiet")
    defer { events.close() }
    #expect(events.read(until: ": heartbeat\n\n", times: 3))
  }

  @Test func closingTheStreamRunsEachDisconnectOnce() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let counters = server.server.counters
    let before = counters.snapshot.disconnectsTotal
    let events = try EventStreamClient(server, query: "stream=a&stream=b.*&stream=c")
    #expect(events.read(until: "\r\n\r\n"))
    let publisher = try server.connect()
    defer { publisher.close() }
    #expect(
      eventually {
        (try? publisher.request(#"{"op":"publish","stream":"c","value":1}"#))?["receivers"]
          as? Int == 1
      })
    events.close()
    #expect(eventually { counters.snapshot.disconnectsTotal == before + 3 })
    // And no more later: the close ran them once.
    usleep(200_000)
    #expect(counters.snapshot.disconnectsTotal == before + 3)
  }

  @Test func aSlowReaderIsClosedLikeAnySlowConsumer() throws {
    let server = try TestServer.withHTTP { $0.maxQueuedBytes = 64 * 1024 }
    defer { server.stop() }
    let events = try EventStreamClient(server, query: "stream=flood")
    defer { events.close() }
    #expect(events.read(until: "\r\n\r\n"))
    let publisher = try server.connect()
    defer { publisher.close() }
    // The reader never reads: the kernel's buffers fill, then the outbox passes its cap.
    try server.publishUntilSlowConsumer(publisher, stream: "flood")
    #expect(server.server.counters.snapshot.slowConsumersTotal == 1)
    #expect(events.waitForClose(timeout: .seconds(10)))
  }

  @Test func refusedRequestsGetTheirStatus() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let noStream = try server.httpExchange(HTTPEndpointTests.get("/sse"))
    #expect(HTTPEndpointTests.status(noStream) == 400)
    let badName = try server.httpExchange(HTTPEndpointTests.get("/sse?stream=a..b"))
    #expect(HTTPEndpointTests.status(badName) == 400)
    let post = try server.httpExchange(HTTPEndpointTests.get("/sse?stream=a", method: "POST"))
    #expect(HTTPEndpointTests.status(post) == 405 && post.contains("Allow: GET"))
  }

  @Test func aTokenIsRequiredWhenTheServerHasOne() throws {
    let server = try TestServer.withHTTP { $0.token = "s3cret" }
    defer { server.stop() }
    let missing = try server.httpExchange(HTTPEndpointTests.get("/sse?stream=t"))
    #expect(HTTPEndpointTests.status(missing) == 401)
    #expect(missing.contains("WWW-Authenticate: Bearer"))
    let wrong = try server.httpExchange(
      HTTPEndpointTests.get("/sse?stream=t", headers: "Authorization: Bearer nope\r\n"))
    #expect(HTTPEndpointTests.status(wrong) == 401)
    #expect(server.server.counters.snapshot.authFailuresTotal == 2)
    let publisher = try server.connect()
    defer { publisher.close() }
    try publisher.request(#"{"op":"auth","token":"s3cret"}"#)
    try publisher.request(#"{"op":"publish","stream":"t","value":7,"retain":true}"#)
    let byHeader = try EventStreamClient(
      server, query: "stream=t", headers: "Authorization: Bearer s3cret\r\n")
    defer { byHeader.close() }
    #expect(byHeader.read(until: "data:{\"stream\":\"t\",\"value\":7}\n\n"))
    let byQuery = try EventStreamClient(server, query: "stream=t&token=s3cret")
    defer { byQuery.close() }
    #expect(byQuery.read(until: "data:{\"stream\":\"t\",\"value\":7}\n\n"))
    #expect(!byQuery.text.contains("s3cret"))
  }

  @Test func curlReceivesEvents() throws {
    try RequiredTool.require(ChildProcess.isInstalled("curl"), "curl")
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let curl = try ChildProcess(
      tool: "curl",
      ["-N", "-s", "--max-time", "20", "http://127.0.0.1:\(server.httpPort)/sse?stream=news"])
    defer { curl.signal(SIGKILL) }
    let publisher = try server.connect()
    defer { publisher.close() }
    let event = "event:news\ndata:{\"stream\":\"news\",\"value\":\"hi\"}\n\n"
    #expect(
      curl.wait { curl in
        _ = try? publisher.request(#"{"op":"publish","stream":"news","value":"hi"}"#)
        return curl.stdout.contains(event)
      })
  }
}
