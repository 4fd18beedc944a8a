import Foundation
import Testing

@testable import ObservableServer

@Suite("Bad input", .timeLimit(.minutes(1)))
struct BadInputTests {
  static let catalogue: [(String, [UInt8])] = [
    (
      "garbage bytes",
      (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }.filter { $0 != 0x0A }
    ),
    (
      "invalid UTF-8 in JSON",
      Array(#"{"op":"publish","stream":"a","value":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
    ),
    ("invalid UTF-8 shorthand", Array("publish a ".utf8) + [0xFF, 0xFE]),
    ("overlong UTF-8", Array(#"{"op":"ping","x":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)),
    ("NUL bytes", [0x00, 0x00, 0x7B, 0x00, 0x7D]),
    ("NUL inside JSON", Array(#"{"op":"ping"#.utf8) + [0x00] + Array(#""}"#.utf8)),
    ("JSON array", Array(#"[1,2,3]"#.utf8)),
    ("JSON string", Array(#""ping""#.utf8)),
    ("JSON number", Array("42".utf8)),
    ("truncated object", Array(#"{"op":"pi"#.utf8)),
    (
      "deep nesting",
      Array(#"{"op":"publish","stream":"a","value":"#.utf8) + Array(repeating: 0x5B, count: 100_000)
    ),
    ("trailing garbage", Array(#"{"op":"ping"} {"op":"ping"}"#.utf8)),
    ("control characters", Array("\u{1B}[2J\u{07}\u{08}".utf8)),
  ]

  @Test(arguments: 0..<catalogue.count)
  func badLineGetsAnErrorAndPingStillAnswers(_ index: Int) throws {
    let (name, bytes) = Self.catalogue[index]
    let server = try TestServer()
    let client = try server.connect()
    let bystander = try server.connect()
    try bystander.request("subscribe calm")
    try client.sendRaw(bytes + [0x0A])
    let reply = try client.readReply()
    #expect(reply["ok"] as? Bool == false, "\(name)")
    let code = (reply["error"] as? [String: Any])?["code"] as? String
    #expect(code == "bad_request" || code == "unknown_op", "\(name): \(reply)")
    #expect(
      try client.request(#"{"op":"ping","id":"after"}"#)["id"] as? String == "after", "\(name)")
    let publisher = try server.connect()
    #expect(try publisher.request("publish calm 1")["receivers"] as? Int == 1)
    #expect(try bystander.readJSON()["value"] as? Int == 1)
  }

  @Test func twoMebibyteLineUnderTheDefaultLimitGetsLineTooLong() throws {
    let server = try TestServer()
    let client = try server.connect()
    var line = Array(#"{"op":"publish","stream":"big","value":""#.utf8)
    line += [UInt8](repeating: UInt8(ascii: "b"), count: 2 << 20)
    line += Array(#""}"#.utf8) + [0x0A]
    try client.sendRaw(line)
    let reply = try client.readReply(timeout: .seconds(10))
    #expect((reply["error"] as? [String: Any])?["code"] as? String == "line_too_long")
    #expect(try client.request("ping")["ok"] as? Bool == true)
  }

  @Test func requestSplitIntoSingleBytesStillWorks() throws {
    let server = try TestServer()
    let client = try server.connect()
    for byte in Array("{\"op\":\"ping\",\"id\":5}\r\n".utf8) { try client.sendRaw([byte]) }
    #expect(try client.readReply()["id"] as? Int == 5)
  }

  @Test func manyRequestsInOneWriteAreAnsweredInOrder() throws {
    let server = try TestServer()
    let client = try server.connect()
    let batch = (0..<200).map { #"{"op":"ping","id":\#($0)}"# }.joined(separator: "\n") + "\n"
    try client.sendRaw(Array(batch.utf8))
    for index in 0..<200 { #expect(try client.readReply()["id"] as? Int == index) }
  }
}
