import Foundation
import ObservableAuthorization
import ObservableCredentials
import TestSupport
import Testing

@testable import ObservableServer

/// The live page as an operator's dashboard, in headless Chromium against a running server:
/// every `stats` figure, the rate charts, topics only patterns reach, and the topic inspector.
@Suite("Live page as a dashboard", .timeLimit(.minutes(2)))
struct LiveDashboardTests {
  @Test func itShowsEveryFigureTheChartsAndTopicsOnlyPatternsReach() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let publisher = try server.connect()
    defer { publisher.close() }
    _ = try publisher.request(#"{"op":"publish","stream":"room.1","value":{"t":21},"retain":true}"#)
    // Every figure the server sends, read from the server itself rather than listed here, so
    // a figure added to `stats` and missing from the page fails this test.
    let figures = try server.stats().keys.sorted()
    #expect(figures.contains("uptime_s") && figures.contains("slow_consumers_total"))

    let shown = try LivePageBrowser(url: "http://127.0.0.1:\(server.httpPort)/").check(
      subscribe: ["room.*"], publish: "room.2", expect: ["room.2"], expectFigures: true,
      dashboard: DashboardExpectation(
        stats: figures, chartPoints: 2, viaPattern: ["room.2"], inspect: "room.1",
        retained: #"{"t":21}"#))
    #expect(shown.passed, "\(shown.summary)")
  }

  @Test func theInspectorClearsARetainedValue() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let client = try server.connect()
    defer { client.close() }
    _ = try client.request(#"{"op":"publish","stream":"room.1","value":"kept","retain":true}"#)

    let shown = try LivePageBrowser(url: "http://127.0.0.1:\(server.httpPort)/").check(
      subscribe: [],
      dashboard: DashboardExpectation(inspect: "room.1", clearOutcome: "cleared"))
    #expect(shown.passed, "\(shown.summary)")
    // The server agrees: nothing is left to clear.
    let again = try client.request(#"{"op":"clear","stream":"room.1"}"#)
    #expect(again["cleared"] as? Bool == false, "\(again)")
  }

  @Test func aFileUserSignsInAndTheRulesDecideTheClearButton() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("dashboard-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let ann = NewToken()
    let root = NewToken()
    let path = directory.appendingPathComponent("users.json").path
    try #"""
    {"users": {
      "ann": {"token": "\#(ann.digest.text)", "subscribe": [">"], "list": true,
              "stats": true, "publish": {"allow": ["room.*"], "deny": ["room.locked"]}},
      "root": {"token": "\#(root.digest.text)", "subscribe": [">"], "publish": [">"]}
    }}
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    let file = try AuthorizationFile.load(path: path)
    let server = try TestServer.withHTTP { $0.access = AccessPolicy(file: file, filePath: path) }
    defer { server.stop() }
    let publisher = try server.connect()
    defer { publisher.close() }
    _ = try publisher.request(#"{"op":"auth","user":"root","token":"\#(root.token)"}"#)
    for topic in ["room.locked", "room.open"] {
      let reply = try publisher.request(
        #"{"op":"publish","stream":"\#(topic)","value":1,"retain":true}"#)
      #expect(reply["ok"] as? Bool == true, "\(reply)")
    }
    let url = "http://127.0.0.1:\(server.httpPort)/"
    let refused = try LivePageBrowser(url: url).check(
      user: "ann", token: ann.token, subscribe: [],
      dashboard: DashboardExpectation(inspect: "room.locked", clearOutcome: "forbidden"))
    #expect(refused.passed, "\(refused.summary)")
    let cleared = try LivePageBrowser(url: url).check(
      user: "ann", token: ann.token, subscribe: [],
      dashboard: DashboardExpectation(inspect: "room.open", clearOutcome: "cleared"))
    #expect(cleared.passed, "\(cleared.summary)")
    // The server agrees: room.locked kept its value, room.open lost it.
    let locked = try publisher.request(#"{"op":"clear","stream":"room.locked"}"#)
    #expect(locked["cleared"] as? Bool == true, "\(locked)")
    let open = try publisher.request(#"{"op":"clear","stream":"room.open"}"#)
    #expect(open["cleared"] as? Bool == false, "\(open)")
  }
}
