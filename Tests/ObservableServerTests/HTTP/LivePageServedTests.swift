import Foundation
import Testing

@testable import ObservableServer

/// The live page served by a running server and driven by headless Chromium: it subscribes
/// over `/ws`, shows values as they arrive, and keeps a screenshot under `.build/`.
@Suite("Live page in a browser", .timeLimit(.minutes(2)))
struct LivePageServedTests {
  /// Where the screenshot is kept: `.build/artifacts`, found from this file's path.
  static let artifacts = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/artifacts")

  @Test func clockAndPublishedValuesArrive() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
    let screenshot = Self.artifacts.appendingPathComponent("live-page.png")
    try? FileManager.default.removeItem(at: screenshot)
    let shown = try LivePageBrowser(url: "http://127.0.0.1:\(server.httpPort)/").check(
      subscribe: ["clock", "news.*"], publish: "news.1", expect: ["clock", "news.1"],
      expectFigures: true, screenshot: screenshot)
    #expect(shown.passed, "\(shown.summary)")
    #expect(FileManager.default.fileExists(atPath: screenshot.path))
    #expect(server.server.counters.snapshot.webSocketConnectionsTotal >= 1)
  }

  @Test func withATokenThePageAuthenticatesOrShowsTheError() throws {
    let server = try TestServer.withHTTP { $0.token = "open-sesame" }
    defer { server.stop() }
    let url = "http://127.0.0.1:\(server.httpPort)/"
    let good = try LivePageBrowser(url: url).check(
      token: "open-sesame", subscribe: ["clock"], expect: ["clock"])
    #expect(good.passed, "\(good.summary)")
    let bad = try LivePageBrowser(url: url).check(
      token: "wrong", subscribe: ["clock"], expectError: "unauthorized")
    #expect(bad.passed, "\(bad.summary)")
  }
}
