import Foundation
import Glibc
import TestSupport
import Testing

@testable import Deflate
@testable import ObservableServer
@testable import ObservableStreams

/// Retained values are bounded all together, and can be given back.
@Suite("Retained values are bounded", .timeLimit(.minutes(2)))
struct RetainedLimitTests {
  private static func errorCode(_ reply: [String: Any]) -> String? {
    (reply["error"] as? [String: Any])?["code"] as? String
  }

  @Test func retainPastTheLimitIsRefusedAndChangesNothing() throws {
    // Each value is charged its topic's overhead too.
    let overhead = RetainedBudget.overhead(name: "r.1")
    let server = try TestServer { $0.maxRetainedBytes = 4096 + 2 * overhead }
    let client = try server.connect()
    let value = String(repeating: "a", count: 1500)
    #expect(try client.request("retain r.1 \"\(value)\"")["ok"] as? Bool == true)
    #expect(try client.request("retain r.2 \"\(value)\"")["ok"] as? Bool == true)
    // A third would pass the limit: refused, not delivered, and r.3 keeps having no value.
    let watcher = try server.connect()
    try watcher.request("subscribe r.3")
    let refused = try client.request("retain r.3 \"\(value)\"")
    #expect(Self.errorCode(refused) == "limit_exceeded")
    #expect(throws: LineClient.Timeout.self) { try watcher.readLine(timeout: .milliseconds(300)) }
    // Replacing a value reuses its share; plain publishes are not limited.
    #expect(try client.request("retain r.1 \"\(value)b\"")["ok"] as? Bool == true)
    #expect(try client.request("publish r.3 \"\(value)\(value)\(value)\"")["ok"] as? Bool == true)
    let late = try server.connect()
    try late.request("subscribe r.1")
    let first = try late.readJSON()
    #expect((first["value"] as? String)?.hasSuffix("b") == true, "r.1 holds its newer value")
    let snapshot = server.server.counters.snapshot
    #expect(snapshot.retainedLimitTotal == 1)
    #expect(snapshot.retainedBytes > 3000 + 2 * overhead)
    #expect(snapshot.retainedBytes <= 4096 + 2 * overhead)
  }

  @Test func clearingGivesTheBytesBack() throws {
    let server = try TestServer {
      $0.maxRetainedBytes = 2048 + RetainedBudget.overhead(name: "c.1")
    }
    let client = try server.connect()
    let value = String(repeating: "c", count: 1500)
    #expect(try client.request("retain c.1 \"\(value)\"")["ok"] as? Bool == true)
    #expect(Self.errorCode(try client.request("retain c.2 \"\(value)\"")) == "limit_exceeded")
    let cleared = try client.request(#"{"op":"clear","stream":"c.1","id":5}"#)
    #expect(cleared["cleared"] as? Bool == true)
    #expect(cleared["id"] as? Int == 5)
    #expect(try client.request("clear c.1")["cleared"] as? Bool == false)
    #expect(server.server.counters.snapshot.retainedBytes == 0)
    #expect(try client.request("retain c.2 \"\(value)\"")["ok"] as? Bool == true)
    // A cleared topic nobody subscribes to is gone from the list.
    let names = (try client.request("list c.*")["streams"] as? [[String: Any]] ?? []).compactMap {
      $0["name"] as? String
    }
    #expect(names == ["c.2"])
    #expect(Self.errorCode(try client.request("clear clock")) == "read_only")
    #expect(Self.errorCode(try client.request("clear c.*")) == "bad_name")
  }

  @Test func aDeflateBombCostsTheServerNoMemory() throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--log-level", "warning",
    ])
    #expect(eventually { (try? LineClient(port: port)) != nil })
    let before = try #require(server.residentBytes)
    let client = try LineClient(port: port)
    try client.request("compress deflate")
    // 512 MiB of one endless line, sent as about half a megabyte of deflate.
    let compressor = try DeflateCompressor()
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    for _ in 0..<512 {
      var bytes: [UInt8] = []
      chunk.withUnsafeBytes { compressor.compress($0, appendingTo: &bytes) }
      try client.sendRaw(bytes)
    }
    var end: [UInt8] = []
    Array("\nping\n".utf8).withUnsafeBytes { compressor.compress($0, appendingTo: &end) }
    try client.sendRaw(end)
    // The line is refused once and the connection goes on.
    let inflater = try InflateDecompressor()
    var text = ""
    _ = eventually(timeout: .seconds(30)) {
      guard let bytes = try? client.readAvailable(timeout: .milliseconds(200)) else { return false }
      try? bytes.withUnsafeBytes { raw in
        try inflater.decompress(raw) { text += String(decoding: $0, as: UTF8.self) }
      }
      return text.contains("line_too_long") && text.contains(#""op":"ping""#)
    }
    #expect(text.contains("line_too_long"))
    #expect(text.contains(#""op":"ping""#))
    let after = try #require(server.residentBytes)
    #expect(after - before < 16 << 20, "RSS \(before) → \(after) bytes")
  }

}
