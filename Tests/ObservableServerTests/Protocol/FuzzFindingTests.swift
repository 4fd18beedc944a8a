import Testing

@testable import ObservableServer
@testable import ObservableWire

/// Inputs the libFuzzer targets under Fuzz/ found, kept so that the fixes stay fixed.
@Suite struct FuzzFindingTests {
  /// Found by the request parser target (a parsed request written back as JSON must parse the
  /// same): the shorthand kept the blanks after a JSON value, so `publish x 1  ` published
  /// `1  ` while the JSON form of the same request publishes `1`.
  @Test(
    "a shorthand JSON value is stored as the JSON form stores it",
    arguments: [
      ("\tpublish  x  -12.5e-3  ", #"{"op":"publish","stream":"x","value":-12.5e-3}"#),
      (
        "retain x {\"a\":[1]} \t", #"{"op":"publish","stream":"x","value":{"a":[1]},"retain":true}"#
      ),
      ("publish x \r\"s\"", #"{"op":"publish","stream":"x","value":"s"}"#),
    ])
  func shorthandValueWithoutBlanks(shorthand: String, json: String) throws {
    let fromShorthand = try #require(RequestParser.outcome(shorthand).request)
    let fromJSON = try #require(RequestParser.outcome(json).request)
    #expect(fromShorthand == fromJSON)
  }

  /// Text that is not JSON is still the rest of the line, blanks included.
  @Test func shorthandTextKeepsItsBlanks() throws {
    let request = try #require(RequestParser.outcome("publish x hello  ").request)
    #expect(request.value == #""hello  ""#)
  }
}
