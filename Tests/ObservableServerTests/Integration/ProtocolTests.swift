import Foundation
import TestSupport
import Testing

@testable import ObservableServer

@Suite("Protocol over real sockets", .timeLimit(.minutes(1)))
struct ProtocolTests {
  @Test func greetingNamesServerVersionAndProtocol() throws {
    let server = try TestServer()
    let client = try server.connect()
    #expect(client.greeting["hello"] as? String == "observable-server")
    #expect(client.greeting["version"] as? String == ObservableServer.version)
    #expect(client.greeting["protocol"] as? Int == 1)
  }

  @Test func pingEchoesAnyScalarId() throws {
    let server = try TestServer()
    let client = try server.connect()
    for id in [#"7"#, #""abc""#, #"1.5"#, #"true"#, #"null"#] {
      try client.send(#"{"op":"ping","id":\#(id)}"#)
      let line = try client.readLine()
      #expect(line == #"{"ok":true,"op":"ping","id":\#(id)}"#)
    }
    try client.send(#"{"op":"ping"}"#)
    #expect(try client.readLine() == #"{"ok":true,"op":"ping"}"#)
  }

  @Test func publishReachesEverySubscriberInOrder() throws {
    let server = try TestServer()
    let subscribers = try (0..<3).map { _ in try server.connect() }
    for subscriber in subscribers {
      let reply = try subscriber.request(#"{"op":"subscribe","stream":"room.1","id":1}"#)
      #expect(reply["ok"] as? Bool == true)
      #expect(reply["id"] as? Int == 1)
    }
    let publisher = try server.connect()
    for index in 0..<50 {
      let reply = try publisher.request(
        #"{"op":"publish","stream":"room.1","value":{"n":\#(index)}}"#)
      #expect(reply["receivers"] as? Int == 3)
    }
    for subscriber in subscribers {
      for index in 0..<50 {
        let value = try subscriber.readJSON()
        #expect(value["stream"] as? String == "room.1")
        #expect((value["value"] as? [String: Any])?["n"] as? Int == index)
      }
    }
  }

  @Test func unsubscribedConnectionStopsReceivingWhileOthersGoOn() throws {
    let server = try TestServer()
    let leaving = try server.connect()
    let staying = try server.connect()
    try leaving.request("subscribe t")
    try staying.request("subscribe t")
    let reply = try leaving.request("unsubscribe t")
    #expect(reply["ok"] as? Bool == true)
    let publisher = try server.connect()
    #expect(try publisher.request("publish t 1")["receivers"] as? Int == 1)
    #expect(try staying.readJSON()["value"] as? Int == 1)
    // The leaving connection gets the ping reply next, not the value.
    #expect(try leaving.request("ping")["op"] as? String == "ping")
    #expect(leaving.takeDeliveries().isEmpty)
  }

  @Test func patternsMatchOneTokenOrTheTail() throws {
    let server = try TestServer()
    let star = try server.connect()
    let tail = try server.connect()
    try star.request("subscribe sensors.*.temp")
    try tail.request("subscribe sensors.>")
    let publisher = try server.connect()
    #expect(try publisher.request("publish sensors.kitchen.temp 21")["receivers"] as? Int == 2)
    #expect(try publisher.request("publish sensors.kitchen.humidity 40")["receivers"] as? Int == 1)
    #expect(try publisher.request("publish sensors 0")["receivers"] as? Int == 0)
    #expect(try publisher.request("publish other.kitchen.temp 0")["receivers"] as? Int == 0)
    let first = try star.readJSON()
    #expect(first["stream"] as? String == "sensors.kitchen.temp")
    #expect(first["value"] as? Int == 21)
    #expect(try tail.readJSON()["stream"] as? String == "sensors.kitchen.temp")
    #expect(try tail.readJSON()["stream"] as? String == "sensors.kitchen.humidity")
    #expect(try star.request("ping")["ok"] as? Bool == true)
    #expect(star.takeDeliveries().isEmpty)
  }

  @Test func retainedValueReachesNewSubscribersFirst() throws {
    let server = try TestServer()
    let publisher = try server.connect()
    try publisher.request(#"{"op":"publish","stream":"config.mode","value":"eco","retain":true}"#)
    try publisher.request(#"{"op":"publish","stream":"config.mode","value":"boost","retain":true}"#)
    let late = try server.connect()
    let reply = try late.request("subscribe config.mode")
    #expect(reply["ok"] as? Bool == true)
    #expect(try late.readJSON()["value"] as? String == "boost")
    let pattern = try server.connect()
    try pattern.request("subscribe config.*")
    let retained = try pattern.readJSON()
    #expect(retained["stream"] as? String == "config.mode")
    #expect(retained["value"] as? String == "boost")
    try publisher.request("publish config.mode off")
    #expect(try late.readJSON()["value"] as? String == "off")
  }

  @Test func listShowsKindsAndSubscriberCounts() throws {
    let server = try TestServer { $0.execStreams = [ExecStreamConfiguration("numbers=echo 1")!] }
    let client = try server.connect()
    try client.request("subscribe news.today")
    try client.request("subscribe clock")
    let other = try server.connect()
    try other.request("subscribe news.today")
    let reply = try other.request(#"{"op":"list","id":2}"#)
    let streams = try #require(reply["streams"] as? [[String: Any]])
    func entry(_ name: String) -> [String: Any]? { streams.first { $0["name"] as? String == name } }
    #expect(entry("clock")?["kind"] as? String == "builtin")
    #expect(entry("clock")?["subscribers"] as? Int == 1)
    #expect(entry("stats")?["kind"] as? String == "builtin")
    #expect(entry("numbers")?["kind"] as? String == "exec")
    #expect(entry("news.today")?["kind"] as? String == "topic")
    #expect(entry("news.today")?["subscribers"] as? Int == 2)
  }

  @Test func clockSendsISO8601TimesEverySecond() throws {
    let server = try TestServer()
    let client = try server.connect()
    try client.request("subscribe clock")
    let first = try #require(try client.readJSON()["value"] as? String)
    let second = try #require(try client.readJSON(timeout: .seconds(3))["value"] as? String)
    let parser = ISO8601DateFormatter()
    let firstDate = try #require(parser.date(from: first))
    let secondDate = try #require(parser.date(from: second))
    #expect(abs(firstDate.timeIntervalSinceNow) < 5)
    #expect(secondDate.timeIntervalSince(firstDate) >= 0.5)
  }

  @Test func statsCountsPublishesAndDeliveries() throws {
    let server = try TestServer()
    let subscriber = try server.connect()
    try subscriber.request("subscribe s")
    let publisher = try server.connect()
    for _ in 0..<5 { try publisher.request("publish s x") }
    let stats = try server.stats()
    #expect(stats["published_total"] as? Int == 5)
    #expect(stats["delivered_total"] as? Int == 5)
    #expect((stats["connections"] as? Int ?? 0) >= 3)
    #expect((stats["bytes_in"] as? Int ?? 0) > 0)
    for key in [
      "connections_total", "subscriptions", "subscribes_total", "disconnects_total",
      "dropped_total",
      "slow_consumers_total", "bytes_out", "bytes_out_uncompressed", "uptime_s",
    ] {
      #expect(stats[key] is Int, "stats lacks \(key)")
    }
  }

  @Test func ipv6AndUnixSocketsServeTheSameProtocol() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "os-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    ).path
    let server = try TestServer { $0.listen = [.tcp(host: "::1", port: 0), .unix(path: path)] }
    let overIPv6 = try LineClient(.tcp(host: "::1", port: server.port))
    let overUnix = try LineClient(.unix(path: path))
    try overUnix.request("subscribe both")
    #expect(try overIPv6.request("publish both hi")["receivers"] as? Int == 1)
    #expect(try overUnix.readJSON()["value"] as? String == "hi")
    server.stop()
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
