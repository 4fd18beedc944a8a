import Testing

@testable import ObservableServer
@testable import ObservableWire

/// The greeting: `{"hello":"observable-server","version":…,"protocol":1,…}\n`.
@Suite(.timeLimit(.minutes(1)))
struct GreetingTests {
  @Test("without auth: hello, version, protocol, features, help")
  func open() throws {
    let out = Greeting.line(version: "1.2.3", authRequired: false)
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object["hello"] as? String == "observable-server")
    #expect(object["version"] as? String == "1.2.3")
    #expect(object["protocol"] as? Int == 1)
    #expect(Greeting.protocolVersion == 1)
    #expect(object["features"] as? [String] == ["sub"])
    #expect(object["auth"] == nil)
    #expect(WireJSON.keyPaths(out) == ["hello", "version", "protocol", "features", "help"])
  }

  @Test("with auth: auth is required, before help")
  func authRequired() throws {
    let out = Greeting.line(version: "0.1", authRequired: true)
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object["auth"] as? String == "required")
    #expect(object["features"] as? [String] == ["sub"])
    #expect(WireJSON.keyPaths(out) == ["hello", "version", "protocol", "features", "auth", "help"])
  }

  @Test("the help hint names a request the parser understands as help")
  func helpHint() throws {
    let hint = try #require(
      try WireJSON.object(Greeting.line(version: "1", authRequired: false))["help"] as? String)
    let start = try #require(hint.firstIndex(of: "{"))
    let end = try #require(hint.lastIndex(of: "}"))
    #expect(RequestParser.outcome(String(hint[start...end])).request == ParsedRequest(op: .help))
    #expect(hint.contains("help"))
  }

  @Test(
    "an awkward version string is escaped and stays on one line",
    arguments: ["", "1.0\n", "\"quoted\"", "back\\slash", "ctl\u{0}\u{1F}\r", "dév ✓"])
  func awkwardVersion(version: String) throws {
    for auth in [false, true] {
      let out = Greeting.line(version: version, authRequired: auth)
      #expect(WireJSON.isOneLine(out))
      #expect(try WireJSON.object(out)["version"] as? String == version)
    }
  }
}
