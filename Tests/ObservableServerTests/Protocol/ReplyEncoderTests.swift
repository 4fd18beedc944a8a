import Foundation
import Testing

@testable import ObservableServer
@testable import ObservableWire

/// Reply lines: `{"ok":true,"op":…,"id":…,…}\n` and
/// `{"ok":false,"op":…,"id":…,"error":{"code":…,"message":…}}\n`.
@Suite(.timeLimit(.minutes(1)))
struct ReplyEncoderTests {
  static let rawIDs = [
    #""abc""#, #""a\"b\\\u0041""#, #""""#, #""é\n""#, "0", "-1.5e3",
    "123456789012345678901234567890",
    "true", "false", "null",
  ]

  static let awkwardTexts = [
    "", "plain", "line\nbreak", "carriage\rreturn", "crlf\r\n", "tab\there", "nul\u{0}byte",
    "esc\u{1B}[0m", "unit\u{1F}sep", "del\u{7F}", "quote\"backslash\\", "ünïcödé ✓ 🎉",
    "separators\u{2028}\u{2029}", "{\"ok\":true}\n{\"op\":1}",
  ]

  @Test("a success reply for every op, without id", arguments: RequestOp.allCases)
  func okWithoutID(op: RequestOp) throws {
    var out: [UInt8] = []
    ReplyEncoder.ok(op: op, id: nil, to: &out)
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object.count == 2)
    #expect(object["ok"] as? Bool == true)
    #expect(object["op"] as? String == op.rawValue)
    #expect(WireJSON.keyPaths(out) == ["ok", "op"])
    #expect(out.starts(with: Array(#"{"ok":true,"#.utf8)))
  }

  @Test("a success reply echoes the id's raw bytes", arguments: rawIDs)
  func okEchoesID(id: String) throws {
    var out: [UInt8] = []
    Array(id.utf8).withUnsafeBytes { ReplyEncoder.ok(op: .ping, id: $0, to: &out) }
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(WireJSON.canonical(object["id"] as Any) == WireJSON.canonical(try WireJSON.parse(id)))
    #expect(WireJSON.keyPaths(out) == ["ok", "op", "id"])
    #expect(String(decoding: out, as: UTF8.self).contains(#","id":\#(id)"#))
  }

  @Test("further fields follow op and id, in the order they are appended")
  func okWithFields() throws {
    var out: [UInt8] = []
    Array("7".utf8).withUnsafeBytes { id in
      ReplyEncoder.ok(op: .publish, id: id, to: &out) {
        ReplyEncoder.integer("receivers", 3, to: &$0)
        ReplyEncoder.integer("negative", -42, to: &$0)
        ReplyEncoder.integer("largest", Int.max, to: &$0)
      }
    }
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object["receivers"] as? Int == 3)
    #expect(object["negative"] as? Int == -42)
    #expect(object["largest"] as? Int == Int.max)
    #expect(WireJSON.keyPaths(out) == ["ok", "op", "id", "receivers", "negative", "largest"])
  }

  @Test("the help reply lists every command as a string")
  func help() throws {
    var out: [UInt8] = []
    ReplyEncoder.ok(op: .help, id: nil, to: &out) { HelpText.append(to: &$0) }
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object["commands"] as? [String] == HelpText.commands)
    #expect(WireJSON.keyPaths(out) == ["ok", "op", "commands"])
  }

  @Test("an error reply for every code", arguments: ErrorCode.allCases)
  func errorEveryCode(code: ErrorCode) throws {
    var out: [UInt8] = []
    Array(#""e1""#.utf8).withUnsafeBytes {
      ReplyEncoder.error(op: "subscribe", id: $0, ProtocolError(code, "why"), to: &out)
    }
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object.count == 4)
    #expect(object["ok"] as? Bool == false)
    #expect(object["op"] as? String == "subscribe")
    #expect(object["id"] as? String == "e1")
    let error = try #require(object["error"] as? [String: Any])
    #expect(error.count == 2)
    #expect(error["code"] as? String == code.rawValue)
    #expect(error["message"] as? String == "why")
    #expect(WireJSON.keyPaths(out) == ["ok", "op", "id", "error", "error.code", "error.message"])
    #expect(out.starts(with: Array(#"{"ok":false,"#.utf8)))
  }

  @Test("an error reply without op has op null and no id")
  func errorWithoutOp() throws {
    var out: [UInt8] = []
    ReplyEncoder.error(op: nil, id: nil, ProtocolError(.badRequest, "not JSON"), to: &out)
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object["op"] is NSNull)
    #expect(object["id"] == nil)
    #expect(WireJSON.keyPaths(out) == ["ok", "op", "error", "error.code", "error.message"])
  }

  @Test("an error reply echoes the id's raw bytes", arguments: rawIDs)
  func errorEchoesID(id: String) throws {
    var out: [UInt8] = []
    Array(id.utf8).withUnsafeBytes {
      ReplyEncoder.error(op: "ping", id: $0, ProtocolError(.unauthorized, "no"), to: &out)
    }
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(WireJSON.canonical(object["id"] as Any) == WireJSON.canonical(try WireJSON.parse(id)))
    #expect(String(decoding: out, as: UTF8.self).contains(#","id":\#(id),"#))
  }

  @Test(
    "messages and ops with control characters stay on one line and read back",
    arguments: awkwardTexts)
  func awkwardText(text: String) throws {
    var out: [UInt8] = []
    ReplyEncoder.error(op: text, id: nil, ProtocolError(.badRequest, text), to: &out)
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object["op"] as? String == text)
    #expect((object["error"] as? [String: Any])?["message"] as? String == text)
    #expect(WireJSON.keyPaths(out) == ["ok", "op", "error", "error.code", "error.message"])
  }

  @Test("replies are appended after what the buffer already holds")
  func appends() throws {
    var out = Array("previous\n".utf8)
    ReplyEncoder.ok(op: .ping, id: nil, to: &out)
    ReplyEncoder.error(op: nil, id: nil, ProtocolError(.badRequest, "x"), to: &out)
    let lines = out.split(separator: 0x0A, omittingEmptySubsequences: false)
    #expect(lines.count == 4)
    #expect(lines.last?.isEmpty == true)
    #expect(String(decoding: lines[0], as: UTF8.self) == "previous")
    #expect(try WireJSON.object(Array(lines[1]))["ok"] as? Bool == true)
    #expect(try WireJSON.object(Array(lines[2]))["ok"] as? Bool == false)
  }
}
