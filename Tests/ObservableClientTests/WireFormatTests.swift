import Foundation
import Testing

@testable import ObservableClient

@Suite("Addresses, lines and back-off")
struct WireFormatTests {
  @Test(
    "addresses people write",
    arguments: [
      ("127.0.0.1:7070", ServerAddress.tcp(host: "127.0.0.1", port: 7070)),
      ("localhost:1", .tcp(host: "localhost", port: 1)),
      ("[::1]:7070", .tcp(host: "::1", port: 7070)),
      ("unix:/tmp/o.sock", .unix(path: "/tmp/o.sock")),
    ])
  func addresses(_ text: String, _ expected: ServerAddress) throws {
    let parsed = try ServerAddress(parsing: text)
    #expect(parsed == expected)
    #expect(parsed.description == text)
  }

  @Test(
    "addresses that are refused",
    arguments: ["", "7070", "host:", "host:0", "host:70000", "::1:7070", "[::1]7070", "unix:"])
  func badAddresses(_ text: String) {
    #expect(throws: ClientError.invalidAddress(text)) { try ServerAddress(parsing: text) }
  }

  @Test("the raw value of a delivery, whatever its shape")
  func rawValue() {
    let cases: [(String, String?)] = [
      (#"{"stream":"a","value":21.5}"#, "21.5"),
      (#"{"stream":"a","sub":"a.*","value":{"x":[1,"}"],"y":"\""}}"#, #"{"x":[1,"}"],"y":"\""}"#),
      (#"{"value": [1, 2] , "stream":"a"}"#, "[1, 2]"),
      (#"{"stream":"va\"lue","value":"v"}"#, #""v""#),
      (#"{"stream":"a"}"#, nil),
    ]
    for (line, expected) in cases {
      let found = RawJSONMember.value(named: "value", in: ArraySlice(Array(line.utf8)))
      #expect(found.map { String(decoding: $0, as: UTF8.self) } == expected, "\(line)")
    }
  }

  @Test("request lines are one line of JSON whatever the names and values hold")
  func requestLines() throws {
    let line = RequestLine.publish("a", value: Array("[1,\n2]".utf8), retain: true)
    #expect(line.filter { $0 == 0x0A }.count == 1)
    #expect(line.last == 0x0A)
    let object = try JSONSerialization.jsonObject(with: Data(line.dropLast())) as? [String: Any]
    #expect(object?["retain"] as? Bool == true)
    let odd = "quote\" back\\slash\nnew\u{01}line"
    let subscribe = RequestLine.stream("subscribe", odd)
    let decoded =
      try JSONSerialization.jsonObject(with: Data(subscribe.dropLast())) as? [String: Any]
    #expect(decoded?["stream"] as? String == odd)
  }

  @Test("patterns match as the server matches them")
  func patterns() {
    #expect(TopicPatternMatch.matches("room.*", "room.1"))
    #expect(!TopicPatternMatch.matches("room.*", "room.1.a"))
    #expect(TopicPatternMatch.matches("room.>", "room.1.a"))
    #expect(!TopicPatternMatch.matches("room.>", "room"))
    #expect(TopicPatternMatch.matches("*.1", "room.1"))
    #expect(!TopicPatternMatch.matches("room.1", "room.2"))
    #expect(TopicPatternMatch.isPattern("a.>") && !TopicPatternMatch.isPattern("a.b"))
  }

  @Test("back-off grows, is capped, and jitters within its bounds")
  func backOff() {
    let policy = ReconnectPolicy(
      initialDelay: .milliseconds(100), multiplier: 2, maximumDelay: .seconds(1), jitter: 0.5)
    #expect(policy.delay(beforeAttempt: 0, random: 0) == .milliseconds(100))
    #expect(policy.delay(beforeAttempt: 2, random: 0) == .milliseconds(400))
    #expect(policy.delay(beforeAttempt: 50, random: 0) == .seconds(1))
    #expect(policy.delay(beforeAttempt: 1_000_000, random: 1) == .milliseconds(1_500))
    #expect(policy.delay(beforeAttempt: 0, random: -1) == .milliseconds(50))
    for attempt in 0..<20 {
      let delay = policy.delay(beforeAttempt: attempt)
      #expect(delay >= .milliseconds(50) && delay <= .milliseconds(1_500))
    }
  }
}
