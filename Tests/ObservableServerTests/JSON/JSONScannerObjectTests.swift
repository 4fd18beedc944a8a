import Testing

@testable import ObservableServer
@testable import ObservableWire

@Suite struct JSONScannerObjectTests {
  @Test func keepsMemberOrderAndDuplicates() throws {
    let bytes = Array(#"{"b":1,"a":2,"b":3,"":4}"#.utf8)
    let members = try #require(try scanObject(bytes))
    #expect(members.map(\.key) == ["b", "a", "b", ""])
    #expect(members.map { slice(bytes, $0.value) } == ["1", "2", "3", "4"])
  }

  @Test func reportsOnlyTopLevelMembers() throws {
    let members = try #require(try scanObject(#"{"a":{"b":1,"c":[{"d":2}]},"e":[{"f":3}]}"#))
    #expect(members.map(\.key) == ["a", "e"])
    #expect(members.map(\.kind) == [.object, .array])
  }

  @Test func returnsEmptyMembersForEmptyObject() throws {
    #expect(try scanObject(" { } ")?.count == 0)
  }

  @Test(arguments: ["[]", #"[{"a":1}]"#, "1", #""{}""#, "true", "null", " [ ] "])
  func returnsNilForValidNonObject(text: String) throws {
    #expect(try scanObject(text) == nil)
  }

  @Test(arguments: [
    (#"{"a":1,}"#, 7, "trailing comma in object"),
    (#"{"a":1} {}"#, 8, "trailing characters after value"),
    (#"{"a":01}"#, 5, "leading zero in number"),
    (#"{"a":[1}"#, 7, "expected ',' or ']' in array"),
    ("", 0, "unexpected end of input"),
  ])
  func throwsForInvalidDocument(text: String, offset: Int, reason: String) {
    #expect(throws: JSONSyntaxError(offset: offset, reason: reason)) { try scanObject(text) }
  }

  @Test func decodesEscapedKeys() throws {
    let members = try #require(try scanObject(#"{"a\nb":1,"\u00e9\ud83d\ude00":2,"\"":3}"#))
    #expect(members.map(\.key) == ["a\nb", "é😀", "\""])
  }

  @Test func scansPublishLine() throws {
    let payload = String(repeating: "0123456789abcdef", count: 4)
    let bytes = Array(#"{"op":"publish","stream":"bench","value":"\#(payload)"}"#.utf8)
    let members = try #require(try scanObject(bytes))
    #expect(members.map(\.key) == ["op", "stream", "value"])
    #expect(members.map(\.kind) == [.string, .string, .string])
    #expect(members.map { decodeString(bytes, $0.value) } == ["publish", "bench", payload])
    #expect(members.last?.value == 41..<107)
  }
}
