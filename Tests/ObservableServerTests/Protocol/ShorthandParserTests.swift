import Testing

@testable import ObservableServer
@testable import ObservableWire

/// The text shorthand for people at a terminal: `subscribe clock`, `publish room.1 hello`.
@Suite(.timeLimit(.minutes(1)))
struct ShorthandParserTests {
  @Test("each command with its arguments")
  func commands() {
    let cases: [(line: String, expected: ParsedRequest)] = [
      ("subscribe clock", ParsedRequest(op: .subscribe, stream: "clock")),
      ("subscribe a.*", ParsedRequest(op: .subscribe, stream: "a.*")),
      ("unsubscribe room.1", ParsedRequest(op: .unsubscribe, stream: "room.1")),
      ("list", ParsedRequest(op: .list)),
      ("list room.*", ParsedRequest(op: .list, stream: "room.*")),
      ("list \troom.1 ", ParsedRequest(op: .list, stream: "room.1")),
      ("ping", ParsedRequest(op: .ping)),
      ("help", ParsedRequest(op: .help)),
      ("auth s3cret", ParsedRequest(op: .auth, token: "s3cret")),
      ("compress deflate", ParsedRequest(op: .compress, algorithm: "deflate")),
      ("publish a.b 42", ParsedRequest(op: .publish, stream: "a.b", value: "42")),
      ("retain a.b 42", ParsedRequest(op: .publish, stream: "a.b", value: "42", retain: true)),
    ]
    for (line, expected) in cases {
      #expect(ShorthandParser.outcome(line).request == expected, "\(line)")
    }
  }

  @Test("RequestParser hands lines not starting with { to the shorthand, blanks skipped")
  func throughRequestParser() {
    #expect(
      RequestParser.outcome("  subscribe clock").request
        == ParsedRequest(op: .subscribe, stream: "clock"))
    #expect(RequestParser.outcome("\tping").request == ParsedRequest(op: .ping))
  }

  @Test(
    "a value that parses as JSON is kept as it is",
    arguments: [
      "42", "-1.5e3", "true", "false", "null", #""quoted""#, #"{"x":1}"#,
      #"[1, "two", {"3": null}]"#,
    ])
  func jsonValue(value: String) {
    let outcome = ShorthandParser.outcome("publish a.b \(value)")
    #expect(outcome.request == ParsedRequest(op: .publish, stream: "a.b", value: value))
  }

  @Test(
    "a value that does not parse as JSON becomes a JSON string of the rest of the line",
    arguments: [
      "hello world", "hello", "1 2", #"{"x":"#, #""unterminated"#, #"say "hi" \ bye"#, "tru",
      "héllo wörld ✓", "a\u{1}b",
    ])
  func stringValue(text: String) throws {
    let request = try #require(ShorthandParser.outcome("publish a.b \(text)").request)
    #expect(request.op == .publish)
    #expect(request.stream == "a.b")
    let value = try #require(request.value)
    #expect(try WireJSON.parse(value) as? String == text, "\(value)")
  }

  @Test("publish a.b hello world is the string \"hello world\"")
  func helloWorld() {
    let outcome = ShorthandParser.outcome("publish a.b hello world")
    #expect(outcome.request == ParsedRequest(op: .publish, stream: "a.b", value: #""hello world""#))
  }

  @Test("retain takes a value the same way and sets retain")
  func retainValue() throws {
    let request = try #require(ShorthandParser.outcome("retain news.today it rained").request)
    #expect(request.op == .publish)
    #expect(request.retain)
    #expect(try WireJSON.parse(try #require(request.value)) as? String == "it rained")
  }

  @Test("tabs separate words like spaces")
  func tabs() throws {
    #expect(
      ShorthandParser.outcome("subscribe\t\tclock\t").request
        == ParsedRequest(op: .subscribe, stream: "clock"))
    #expect(ShorthandParser.outcome("publish\ta.b\t42").request?.value == "42")
    #expect(
      ShorthandParser.outcome("auth \t tok").request == ParsedRequest(op: .auth, token: "tok"))
    // Inside the value, a tab is part of the text.
    let request = try #require(ShorthandParser.outcome("publish\ta.b\tx\ty").request)
    #expect(try WireJSON.parse(try #require(request.value)) as? String == "x\ty")
  }

  @Test("trailing blanks after a command are allowed")
  func trailingBlanks() {
    #expect(ShorthandParser.outcome("ping  \t").request == ParsedRequest(op: .ping))
    #expect(
      ShorthandParser.outcome("unsubscribe x ").request
        == ParsedRequest(op: .unsubscribe, stream: "x"))
  }

  @Test(
    "a missing argument is a bad request showing the usage",
    arguments: [
      ("subscribe", "subscribe NAME"),
      ("subscribe  \t", "subscribe NAME"),
      ("unsubscribe", "unsubscribe NAME"),
      ("auth", "auth TOKEN"),
      ("compress", "compress deflate"),
      ("publish", "publish NAME VALUE"),
      ("publish a.b", "publish NAME VALUE"),
      ("publish a.b  \t ", "publish NAME VALUE"),
      ("retain", "retain NAME VALUE"),
      ("retain a.b", "retain NAME VALUE"),
    ])
  func missingArgument(line: String, usage: String) throws {
    let rejection = try #require(ShorthandParser.outcome(line).rejection)
    #expect(rejection.error.code == .badRequest)
    #expect(rejection.error.message.contains(usage), "\(rejection.error.message)")
    #expect(rejection.op == line.split(separator: " ").first.map(String.init))
  }

  @Test(
    "extra words are a bad request",
    arguments: [
      ("list a b c", "list"), ("ping pong", "ping"), ("help me", "help"),
      ("subscribe a b c", "subscribe"),
      ("unsubscribe a\tb", "unsubscribe"), ("auth a b c", "auth"),
      ("compress deflate now", "compress"),
    ])
  func extraWords(line: String, op: String) throws {
    let rejection = try #require(ShorthandParser.outcome(line).rejection)
    #expect(rejection.error.code == .badRequest)
    #expect(rejection.op == op)
  }

  @Test(
    "command words are case-insensitive, and sub, unsub and pub are the long forms",
    arguments: [
      ("SUBSCRIBE clock", ParsedRequest(op: .subscribe, stream: "clock")),
      ("Subscribe Clock", ParsedRequest(op: .subscribe, stream: "Clock")),
      ("sub a.*", ParsedRequest(op: .subscribe, stream: "a.*")),
      ("SUB a.>", ParsedRequest(op: .subscribe, stream: "a.>")),
      ("unsub room.1", ParsedRequest(op: .unsubscribe, stream: "room.1")),
      ("UnSubscribe x", ParsedRequest(op: .unsubscribe, stream: "x")),
      ("pub a.b 42", ParsedRequest(op: .publish, stream: "a.b", value: "42")),
      ("PUBLISH a.b true", ParsedRequest(op: .publish, stream: "a.b", value: "true")),
      ("RETAIN a.b 1", ParsedRequest(op: .publish, stream: "a.b", value: "1", retain: true)),
      ("LIST", ParsedRequest(op: .list)),
      ("Ping", ParsedRequest(op: .ping)),
      ("HELP", ParsedRequest(op: .help)),
      ("AUTH Tok", ParsedRequest(op: .auth, token: "Tok")),
      ("Compress deflate", ParsedRequest(op: .compress, algorithm: "deflate")),
    ])
  func caseAndAliases(line: String, expected: ParsedRequest) {
    #expect(ShorthandParser.outcome(line).request == expected)
  }

  @Test("an alias's usage names the long form", arguments: ["pub", "pub a.b", "PUB a.b  "])
  func aliasUsage(line: String) throws {
    let rejection = try #require(ShorthandParser.outcome(line).rejection)
    #expect(rejection.error.code == .badRequest)
    #expect(rejection.error.message.contains("publish NAME VALUE"), "\(rejection.error.message)")
  }

  @Test(
    "an unknown word is unknown_op naming the word as typed",
    arguments: ["frob", "frob x y", "FROB", "Subscriber clock", "su a", "publ a 1", "retained a 1"])
  func unknownWord(line: String) throws {
    let word = String(line.split(separator: " ")[0])
    let rejection = try #require(ShorthandParser.outcome(line).rejection)
    #expect(rejection.error.code == .unknownOp)
    #expect(rejection.op == word)
    #expect(rejection.error.message.contains(word))
  }

  @Test("invalid UTF-8 is a bad request")
  func invalidUTF8() throws {
    let lines: [[UInt8]] = [
      Array("publish a.b ".utf8) + [0xFF],
      Array("ping".utf8) + [0xC0, 0x80],
      [0xE2, 0x82],
      Array("subscribe ".utf8) + [0xED, 0xA0, 0x80],
    ]
    for line in lines {
      let rejection = try #require(ShorthandParser.outcome(line).rejection)
      #expect(rejection.error.code == .badRequest)
      #expect(rejection.op == nil)
    }
  }

  @Test("the body's own rejection comes out unchanged, also for publish")
  func bodyRejection() {
    for line in ["ping", "publish a.b 1"] {
      let bytes = Array(line.utf8)
      let thrown = bytes.withUnsafeBytes { raw -> RequestRejection? in
        do throws(RequestRejection) {
          try ShorthandParser.parse(raw) { _ throws(RequestRejection) in
            throw RequestRejection(op: "mine", error: ProtocolError(.readOnly, "from body"))
          }
          return nil
        } catch {
          return error
        }
      }
      #expect(thrown?.op == "mine", "\(line)")
      #expect(thrown?.error.code == .readOnly, "\(line)")
    }
  }
}
