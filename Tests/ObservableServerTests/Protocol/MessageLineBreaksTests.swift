import Testing

@testable import ObservableServer
@testable import ObservableWire

/// Line breaks in a WebSocket message: trailing ones are framing, others outside strings are
/// whitespace, and those inside strings are left for the JSON reader to refuse.
@Suite("Message line breaks")
struct MessageLineBreaksTests {
  @Test(arguments: [
    ("ping\n", "ping"),
    ("ping\r\n", "ping"),
    ("ping\n\n", "ping "),
    ("ping", "ping"),
    ("\n", ""),
    ("{\n  \"a\": [1,\r\n 2]\n}\n", "{   \"a\": [1,   2] }"),
    // Inside strings, escaped quotes and backslashes included, nothing changes.
    ("{\"a\":\"x\ny\"}", "{\"a\":\"x\ny\"}"),
    ("{\"a\":\"q\\\"\n\",\n\"b\":1}", "{\"a\":\"q\\\"\n\", \"b\":1}"),
    ("{\"a\":\"\\\\\",\n\"b\":\"\\\\\n\"}", "{\"a\":\"\\\\\", \"b\":\"\\\\\n\"}"),
  ])
  func normalizes(_ message: String, _ expected: String) {
    var bytes = Array(message.utf8)
    MessageLineBreaks.normalize(&bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == expected)
  }
}
