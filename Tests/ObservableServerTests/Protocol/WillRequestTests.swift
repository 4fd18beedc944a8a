import Testing

@testable import ObservableServer
@testable import ObservableWire

/// `will`, `retainwill` and `bye` as typed at a terminal and as JSON.
@Suite(.timeLimit(.minutes(1)))
struct WillRequestTests {
  @Test("the shorthand forms")
  func shorthand() {
    let cases: [(line: String, expected: ParsedRequest)] = [
      ("will a.b offline", ParsedRequest(op: .will, stream: "a.b", value: #""offline""#)),
      (
        "WILL a.b {\"up\": false}",
        ParsedRequest(op: .will, stream: "a.b", value: #"{"up": false}"#)
      ),
      ("will a.b null", ParsedRequest(op: .will, stream: "a.b", value: "null")),
      (
        "retainwill a.b gone away",
        ParsedRequest(op: .will, stream: "a.b", value: #""gone away""#, retain: true)
      ),
      ("bye", ParsedRequest(op: .bye)),
    ]
    for (line, expected) in cases {
      #expect(ShorthandParser.outcome(line).request == expected, "\(line)")
    }
  }

  @Test("usage errors name the form typed")
  func usage() {
    #expect(
      ShorthandParser.outcome("will a.b").rejection?.error.message == "usage: will NAME VALUE")
    #expect(
      ShorthandParser.outcome("retainwill").rejection?.error.message
        == "usage: retainwill NAME VALUE")
    #expect(ShorthandParser.outcome("bye now").rejection?.error.code == .badRequest)
  }

  @Test("the JSON form keeps the value's text and retain")
  func json() {
    #expect(
      RequestParser.outcome(#"{"op":"will","stream":"s","value":[1, 2],"retain":true}"#).request
        == ParsedRequest(op: .will, stream: "s", value: "[1, 2]", retain: true))
    #expect(
      RequestParser.outcome(#"{"op":"bye","id":3}"#).request == ParsedRequest(op: .bye, id: "3"))
  }
}
