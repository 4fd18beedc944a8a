import Foundation
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableWire

/// The reference documents name everything the server has: every op and error code of the
/// protocol, every flag `observable-server --help` lists, and every metric `/metrics` serves,
/// so that a new one cannot ship undocumented.
@Suite("Docs name every op, error code, flag and metric", .timeLimit(.minutes(1)))
struct DocsCoverageTests {
  /// The text of `Docs/NAME` in this checkout.
  static func document(_ name: String) throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(
      contentsOf: root.appendingPathComponent("Docs").appendingPathComponent(name),
      encoding: .utf8)
  }

  @Test func protocolNamesEveryOpAndErrorCode() throws {
    let text = try Self.document("protocol.md")
    for op in RequestOp.allCases {
      #expect(text.contains(#"`{"op":"\#(op.rawValue)""#), "op \(op.rawValue)")
    }
    for code in ErrorCode.allCases {
      #expect(text.contains("| `\(code.rawValue)` |"), "error code \(code.rawValue)")
    }
    #expect(
      text.contains(
        #""features":\#(Greeting.features.description.replacingOccurrences(of: " ", with: ""))"#))
    #expect(text.contains(#""protocol":\#(Greeting.protocolVersion)"#))
  }

  @Test func operationsNamesEveryFlag() throws {
    let help = try ServerProcess(arguments: ["--help"])
    #expect(help.waitForExit(timeout: .seconds(20)) == 0)
    let flags = Set(
      help.output.split(whereSeparator: { !$0.isLetter && $0 != "-" })
        .filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init)
    ).subtracting(["--help", "--version"])
    #expect(flags.count > 20, "\(help.output)")
    let text = try Self.document("operations.md")
    for flag in flags.sorted() {
      #expect(text.contains("`\(flag)"), "flag \(flag)")
    }
  }

  @Test func operationsNamesEveryMetric() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let metrics = try server.httpExchange("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    let names = metrics.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }
      .compactMap { $0.split(separator: " ").dropFirst(2).first }
      .map { $0.replacingOccurrences(of: "observable_server_", with: "") }
    #expect(names.count > 20, "\(metrics)")
    let text = try Self.document("operations.md")
    for name in names {
      #expect(text.contains("`\(name)"), "metric \(name)")
    }
  }
}
