import Testing

@testable import ObservableWire

/// The `JSONValue` tree the `observable` command reads, built from the scanner's ranges.
@Suite struct JSONValueTests {
  @Test("scalars keep numbers as written and decode strings")
  func scalars() {
    #expect(JSONValue(parsing: "null") == .null)
    #expect(JSONValue(parsing: " true ") == .bool(true))
    #expect(JSONValue(parsing: "false") == .bool(false))
    #expect(JSONValue(parsing: "21.50") == .number("21.50"))
    #expect(JSONValue(parsing: "-1e-05") == .number("-1e-05"))
    #expect(JSONValue(parsing: #""a\"b\u00e9\ud83d\ude00""#) == .string("a\"bé😀"))
  }

  @Test("containers keep member order, duplicates and nesting")
  func containers() {
    let text = #"{"b":[1,"x",{"c":null}],"a":{},"b":[],"d":{"e":{"f":true}}}"#
    #expect(
      JSONValue(parsing: text)
        == .object([
          .init(
            key: "b",
            value: .array([.number("1"), .string("x"), .object([.init(key: "c", value: .null)])])),
          .init(key: "a", value: .object([])),
          .init(key: "b", value: .array([])),
          .init(
            key: "d",
            value: .object([.init(key: "e", value: .object([.init(key: "f", value: .bool(true))]))])
          ),
        ]))
    #expect(
      JSONValue(parsing: " [ [ ], [1 , [2]] , \"y\" ] ")
        == .array([.array([]), .array([.number("1"), .array([.number("2")])]), .string("y")]))
  }

  @Test(
    "what the scanner refuses is not a value",
    arguments: [
      "", " ", "{", "[1,]", #"{"a":1,}"#, "01", "1 2", "tru", #""\x""#, #""\ud800""#, "nul l",
      #"{"a" 1}"#, "[1}", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
  func refuses(text: String) {
    #expect(JSONValue(parsing: text) == nil)
  }

  @Test("compact text drops whitespace and keeps numbers and key order")
  func compactText() throws {
    let value = try #require(
      JSONValue(parsing: #" { "t" : 21.50 , "s" : "a/b\n" , "l" : [ 1 , { } ] } "#))
    #expect(value.compactText == #"{"t":21.50,"s":"a/b\n","l":[1,{}]}"#)
  }
}
