import Foundation
import ObservableVersion
import Testing

@testable import ObservableServer

/// The version has one source, `ReleaseVersion.current`, and everything that shows it agrees,
/// the README's transcript included.
@Suite("Release version", .timeLimit(.minutes(1)))
struct ReleaseVersionTests {
  /// The README at the top of the package.
  static var readme: String {
    get throws {
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }
  }

  @Test func theGreetingAndHealthSayTheOneVersion() throws {
    #expect(ObservableServer.version == ReleaseVersion.current)
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let client = try server.connect()
    defer { client.close() }
    #expect(client.greeting["version"] as? String == ReleaseVersion.current)
    let health = try server.httpExchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(health.contains(#""version":"\#(ReleaseVersion.current)""#), "\(health)")
  }

  @Test func theReadmeQuickstartShowsTheGreetingAsSent() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try server.connect(readGreeting: false)
    defer { client.close() }
    let greeting = try client.readLine()
    let readme = try Self.readme
    let shown = try #require(
      readme.split(separator: "\n").first { $0.hasPrefix(#"{"hello":"observable-server""#) })
    #expect(String(shown) == greeting)
    #expect(shown.contains(#""version":"\#(ReleaseVersion.current)""#))
  }
}
