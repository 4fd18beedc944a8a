import Foundation
import Testing

@testable import ObservableServer
@testable import ObservableWire

/// An error reply quotes at most a short prefix of what it names, however long the request: a
/// reply that repeats an 8 MiB op twice would be over 16 MiB, more than `--max-queued-bytes`
/// lets wait for a client, and closes it as a slow consumer.
@Suite("Error replies quote a prefix", .timeLimit(.minutes(1)))
struct ErrorReplyPrefixTests {
  private static let huge = String(repeating: "x", count: 8 << 20)

  /// Sends `line`, reads its reply as raw text and checks it is short and carries `code`;
  /// then checks the connection still answers.
  private func expectShortError(
    _ line: String, code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let server = try TestServer { $0.maxLineBytes = 16 << 20 }
    let client = try server.connect()
    defer { client.close() }
    try client.send(line)
    let reply = try client.readLine(timeout: .seconds(20))
    #expect(
      reply.utf8.count < 1024, "a reply of \(reply.utf8.count) bytes",
      sourceLocation: sourceLocation)
    #expect(
      reply.contains(#""code":"\#(code.rawValue)""#), "\(reply.prefix(300))",
      sourceLocation: sourceLocation)
    // Still valid JSON, with the prefix marked as cut.
    let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
    #expect(object?["ok"] as? Bool == false, sourceLocation: sourceLocation)
    #expect(
      try client.request(#"{"op":"ping","id":1}"#)["ok"] as? Bool == true,
      sourceLocation: sourceLocation)
  }

  @Test func anUnknownJSONOpOfEightMebibytes() throws {
    try expectShortError(#"{"op":"\#(Self.huge)"}"#, code: .unknownOp)
  }

  @Test func anUnknownShorthandCommandOfEightMebibytes() throws {
    try expectShortError(Self.huge + " now", code: .unknownOp)
  }

  @Test func anUnknownOpOfMultibyteCharactersIsCutBetweenCharacters() throws {
    try expectShortError(
      #"{"op":"\#(String(repeating: "é", count: 4 << 20))"}"#, code: .unknownOp)
  }

  @Test func aShortOpIsStillQuotedWhole() throws {
    let server = try TestServer()
    let client = try server.connect()
    defer { client.close() }
    let reply = try client.request(#"{"op":"teleport"}"#)
    #expect(reply["op"] as? String == "teleport")
    #expect(
      (reply["error"] as? [String: Any])?["message"] as? String
        == #"unknown op "teleport"; send {"op":"help"}"#)
  }
}
