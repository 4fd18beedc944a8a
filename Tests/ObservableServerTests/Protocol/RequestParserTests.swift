import Testing

@testable import ObservableServer
@testable import ObservableWire

/// JSON request lines: `{"op":…,"id":…,…}`.
@Suite(.timeLimit(.minutes(1)))
struct RequestParserTests {
  @Test("every op is read from its name", arguments: RequestOp.allCases)
  func everyOp(op: RequestOp) {
    let outcome = RequestParser.outcome(#"{"op":"\#(op.rawValue)"}"#)
    #expect(outcome.request == ParsedRequest(op: op))
  }

  @Test("each op's fields are read")
  func fieldsOfEachOp() {
    let cases: [(line: String, expected: ParsedRequest)] = [
      (
        #"{"op":"subscribe","stream":"clock","id":1}"#,
        ParsedRequest(op: .subscribe, id: "1", stream: "clock")
      ),
      (
        #"{"op":"unsubscribe","stream":"a.*","id":"u-1"}"#,
        ParsedRequest(op: .unsubscribe, id: #""u-1""#, stream: "a.*")
      ),
      (
        #"{"op":"publish","stream":"room.1","value":{"t":[1,2.5,null]},"retain":true}"#,
        ParsedRequest(op: .publish, stream: "room.1", value: #"{"t":[1,2.5,null]}"#, retain: true)
      ),
      (
        #"{"op":"publish","stream":"room.1","value":"hi","retain":false}"#,
        ParsedRequest(op: .publish, stream: "room.1", value: #""hi""#, retain: false)
      ),
      (#"{"op":"auth","token":"s3cr\u0065t"}"#, ParsedRequest(op: .auth, token: "s3cret")),
      (
        #"{"op":"compress","algorithm":"deflate"}"#,
        ParsedRequest(op: .compress, algorithm: "deflate")
      ),
      (#"{"op":"list","id":null}"#, ParsedRequest(op: .list, id: "null")),
      (#"{"op":"list","stream":"room.*"}"#, ParsedRequest(op: .list, stream: "room.*")),
      (#"{"stream":"a\u002eb","op":"subscribe"}"#, ParsedRequest(op: .subscribe, stream: "a.b")),
    ]
    for (line, expected) in cases {
      #expect(RequestParser.outcome(line).request == expected, "\(line)")
    }
  }

  @Test(
    "an id of any scalar kind is echoed as its raw bytes",
    arguments: [
      #""abc""#, #""a\"b\\\u0041""#, #""""#, #""\u00e9é""#, "0", "-1", "1.5e-7", "-0.0E+3",
      "123456789012345678901234567890", "true", "false", "null",
    ])
  func rawID(id: String) {
    let outcome = RequestParser.outcome(#"{"op":"ping","id":\#(id)}"#)
    #expect(outcome.request == ParsedRequest(op: .ping, id: id))
  }

  @Test("whitespace around an id is not part of it")
  func idWithoutWhitespace() {
    let outcome = RequestParser.outcome(" {\t\"id\" :  7 , \"op\" : \"ping\" } ")
    #expect(outcome.request == ParsedRequest(op: .ping, id: "7"))
  }

  @Test("a line starting with { after blanks is JSON, not shorthand")
  func leadingBlanks() {
    #expect(RequestParser.outcome(" \t {\"op\":\"help\"}").request == ParsedRequest(op: .help))
  }

  @Test("an op with escapes is decoded before it is looked up")
  func escapedOp() {
    #expect(RequestParser.outcome(#"{"op":"p\u0069ng"}"#).request == ParsedRequest(op: .ping))
  }

  @Test("a request without op is a bad request that still carries its id")
  func missingOp() throws {
    for line in [#"{"id":"m1"}"#, #"{"id":"m1","stream":"a"}"#] {
      let rejection = try #require(RequestParser.outcome(line).rejection)
      #expect(rejection.error.code == .badRequest)
      #expect(rejection.error.message.contains("op"))
      #expect(rejection.op == nil)
      #expect(rejection.idText == #""m1""#)
    }
    let empty = try #require(RequestParser.outcome("{}").rejection)
    #expect(empty.error.code == .badRequest)
    #expect(empty.id == nil)
  }

  @Test(
    "an op that is not a string is a bad request", arguments: ["1", "null", "true", "[]", "{}"])
  func opNotString(op: String) throws {
    let rejection = try #require(RequestParser.outcome(#"{"op":\#(op),"id":2}"#).rejection)
    #expect(rejection.error.code == .badRequest)
    #expect(rejection.error.message.contains("op"))
    #expect(rejection.op == nil)
  }

  @Test(
    "an unknown op is rejected as unknown_op, naming the op as sent",
    arguments: ["frobnicate", "PING", "Subscribe", "ping ", "", "retain", "é\"x"])
  func unknownOp(op: String) throws {
    var quoted: [UInt8] = []
    JSONStringEncoding.append(op, to: &quoted)
    let line = #"{"op":"# + String(decoding: quoted, as: UTF8.self) + #","id":3}"#
    let rejection = try #require(RequestParser.outcome(line).rejection)
    #expect(rejection.error.code == .unknownOp)
    #expect(rejection.op == op)
    #expect(rejection.idText == "3")
    if !op.isEmpty { #expect(rejection.error.message.contains(op)) }
  }

  @Test(
    "a duplicate known key is a bad request",
    arguments: [
      #"{"op":"ping","op":"ping"}"#,
      #"{"op":"ping","o\u0070":"list"}"#,
      #"{"op":"ping","id":1,"id":1}"#,
      #"{"op":"publish","stream":"a","stream":"b","value":1}"#,
      #"{"op":"publish","stream":"a","value":1,"value":2}"#,
      #"{"op":"publish","stream":"a","value":1,"retain":true,"retain":true}"#,
      #"{"op":"auth","token":"x","token":"y"}"#,
      #"{"op":"compress","algorithm":"deflate","algorithm":"deflate"}"#,
    ])
  func duplicateKey(line: String) throws {
    let rejection = try #require(RequestParser.outcome(line).rejection)
    #expect(rejection.error.code == .badRequest)
    #expect(rejection.error.message.contains("duplicate"))
  }

  @Test("a duplicate unknown key is ignored like the key itself")
  func duplicateUnknownKey() {
    #expect(
      RequestParser.outcome(#"{"op":"ping","x":1,"x":[2]}"#).request == ParsedRequest(op: .ping))
  }

  @Test("a rejection found while reading the members still names a readable op and id")
  func rejectionWhileReadingCarriesOpAndID() throws {
    // The README: the reply's op is null only "when it could not be read", and the id is echoed.
    let cases: [(line: String, op: String, id: String?)] = [
      (#"{"op":"ping","id":[1]}"#, "ping", nil),
      (#"{"op":"publish","id":5,"stream":"a","stream":"b","value":1}"#, "publish", "5"),
      (#"{"op":"publish","stream":"a","stream":"b","value":1,"id":5}"#, "publish", "5"),
      (#"{"stream":"a","stream":"b","op":"subscribe","id":"x"}"#, "subscribe", #""x""#),
    ]
    for (line, op, id) in cases {
      let rejection = try #require(RequestParser.outcome(line).rejection, "\(line)")
      #expect(rejection.error.code == .badRequest, "\(line)")
      #expect(rejection.op == op, "\(line)")
      #expect(rejection.idText == id, "\(line)")
    }
  }

  @Test(
    "an id that is an object or an array is a bad request",
    arguments: ["{}", "[]", #"{"a":1}"#, "[1]"])
  func containerID(id: String) throws {
    let rejection = try #require(RequestParser.outcome(#"{"op":"ping","id":\#(id)}"#).rejection)
    #expect(rejection.error.code == .badRequest)
    #expect(rejection.error.message.contains("id"))
    // Echoing a container would let a client put anything into the reply.
    #expect(rejection.id == nil)
  }

  @Test("retain must be a boolean", arguments: ["1", "0", #""true""#, "null", "[]", "{}"])
  func retainNotBool(retain: String) throws {
    let line = #"{"op":"publish","id":4,"stream":"a","value":1,"retain":\#(retain)}"#
    let rejection = try #require(RequestParser.outcome(line).rejection)
    #expect(rejection.error.code == .badRequest)
    #expect(rejection.error.message.contains("retain"))
    #expect(rejection.op == "publish")
    #expect(rejection.idText == "4")
  }

  @Test("stream, token and algorithm must be strings")
  func stringFields() throws {
    for key in ["stream", "token", "algorithm"] {
      for value in ["1", "null", "true", "[]", #"{"a":"b"}"#] {
        let line = #"{"op":"subscribe","\#(key)":\#(value),"id":"s"}"#
        let rejection = try #require(RequestParser.outcome(line).rejection, "\(line)")
        #expect(rejection.error.code == .badRequest, "\(line)")
        #expect(rejection.error.message.contains(key), "\(line)")
        #expect(rejection.op == "subscribe")
        #expect(rejection.idText == #""s""#)
      }
    }
  }

  @Test(
    "a value of any kind is kept as its raw bytes",
    arguments: [
      "1", #""s""#, "null", "true", #"[1,{"a":2}]"#, #"{"x":{"y":[]}}"#, "-0.0e+1", #""\n\u0000""#,
    ])
  func rawValue(value: String) {
    let outcome = RequestParser.outcome(#"{"op":"publish","stream":"a","value":\#(value)}"#)
    #expect(outcome.request == ParsedRequest(op: .publish, stream: "a", value: value))
  }

  @Test("unknown keys are ignored, whatever their values")
  func unknownKeys() {
    let line = #"{"op":"ping","x":1,"nested":{"op":"publish"},"list":[{"stream":1}],"Stream":7}"#
    #expect(RequestParser.outcome(line).request == ParsedRequest(op: .ping))
  }

  @Test("a JSON line that is not an object goes to the shorthand, which does not know it")
  func notAnObject() throws {
    // Only a line starting with `{` is a JSON request; the rest are shorthand commands.
    for line in [#"[{"op":"ping"}]"#, #""ping""#, "42", "null", "true"] {
      let rejection = try #require(RequestParser.outcome(line).rejection, "\(line)")
      #expect(rejection.error.code == .unknownOp, "\(line)")
      #expect(rejection.op == line)
    }
  }
}
