import Testing

@testable import ObservableServer
@testable import ObservableWire

/// Lines the parser refuses, and where its messages point.
extension RequestParserTests {
  @Test("invalid JSON is a bad request naming the offset of the first bad byte")
  func invalidJSON() throws {
    let cases: [(line: String, offset: Int)] = [
      (#"{"op":"ping""#, 12),  // ends early: the offset is the line's length
      (#"  {"op":"ping""#, 14),  // offsets count from the start of the line
      (#"{"op":"ping",}"#, 13),  // no member after the comma
      (#"{"op":ping}"#, 6),  // a bare word
      (#"{'op':'ping'}"#, 1),  // single quotes
      (#"{"op":"ping"} x"#, 14),  // something after the object
    ]
    for (line, offset) in cases {
      let rejection = try #require(RequestParser.outcome(line).rejection, "\(line)")
      #expect(rejection.error.code == .badRequest, "\(line)")
      #expect(rejection.op == nil)
      #expect(rejection.id == nil)
      #expect(
        Self.offset(in: rejection.error.message) == offset, "\(line): \(rejection.error.message)")
    }
  }

  @Test("invalid UTF-8 inside a JSON request is a bad request at the bad byte")
  func invalidUTF8() throws {
    let prefix = Array(#"{"op":"ping","id":""#.utf8)
    for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0x80], [0xF5, 0x80, 0x80, 0x80]] {
      let line = prefix + bad + Array(#""}"#.utf8)
      let rejection = try #require(RequestParser.outcome(line).rejection)
      #expect(rejection.error.code == .badRequest)
      #expect(
        Self.offset(in: rejection.error.message) == prefix.count, "\(rejection.error.message)")
    }
    // In a key, too.
    let key = Array(#"{"op":"ping",""#.utf8) + [0xFE] + Array(#"":1}"#.utf8)
    #expect(RequestParser.outcome(key).rejection?.error.code == .badRequest)
  }

  @Test("the body's own rejection comes out unchanged")
  func bodyRejection() {
    let line = Array(#"{"op":"ping"}"#.utf8)
    let thrown = line.withUnsafeBytes { raw -> RequestRejection? in
      do throws(RequestRejection) {
        try RequestParser.parse(raw) { _ throws(RequestRejection) in
          throw RequestRejection(
            op: "mine", id: [0x31], error: ProtocolError(.readOnly, "from body"))
        }
        return nil
      } catch {
        return error
      }
    }
    #expect(thrown?.op == "mine")
    #expect(thrown?.id == [0x31])
    #expect(thrown?.error.code == .readOnly)
    #expect(thrown?.error.message == "from body")
  }

  /// The number after "byte " in a message, if there is one.
  private static func offset(in message: String) -> Int? {
    guard let match = message.firstMatch(of: /byte (\d+)/) else { return nil }
    return Int(match.1)
  }
}
