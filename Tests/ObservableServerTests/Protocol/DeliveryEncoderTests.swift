import Testing

@testable import ObservableServer
@testable import ObservableWire

/// Delivery lines: `{"stream":NAME,"value":V}\n`.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryEncoderTests {
  @Test(
    "a raw value is copied unchanged after the stream name",
    arguments: [
      "42", "-0.5e-3", "true", "null", #""s""#, #""line\nbreak\u0000""#, #"{"a":[1,2,{"b":null}]}"#,
      "[]", #"[1, "two"]"#,
    ])
  func rawValue(value: String) throws {
    let out = Array(value.utf8).withUnsafeBytes {
      DeliveryEncoder.line(stream: "room.1", rawValue: $0)
    }
    #expect(
      String(decoding: out, as: UTF8.self) == #"{"stream":"room.1","value":\#(value)}"# + "\n")
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object.count == 2)
    #expect(object["stream"] as? String == "room.1")
    #expect(
      WireJSON.canonical(object["value"] as Any) == WireJSON.canonical(try WireJSON.parse(value)))
    #expect(WireJSON.keyPaths(out).prefix(2) == ["stream", "value"])
  }

  @Test("lines built on a shared prefix are the lines encoded one by one, back to back")
  func sharedPrefix() {
    let values = ["1", #""two""#, #"{"three":[3]}"#]
    let prefix = DeliveryEncoder.prefix(stream: "batch.topic")
    var batched: [UInt8] = []
    var single: [UInt8] = []
    for value in values {
      Array(value.utf8).withUnsafeBytes {
        DeliveryEncoder.append(rawValue: $0, after: prefix, to: &batched)
        single += DeliveryEncoder.line(stream: "batch.topic", rawValue: $0)
      }
    }
    #expect(batched == single)
    #expect(String(decoding: prefix, as: UTF8.self) == #"{"stream":"batch.topic","value":"#)
  }

  @Test("the longest valid name is written as it is")
  func longName() throws {
    let name = Array(repeating: "a-_Z9", count: 42).joined(separator: ".")
    try StreamName.validate(name)
    let out = Array("1".utf8).withUnsafeBytes { DeliveryEncoder.line(stream: name, rawValue: $0) }
    #expect(try WireJSON.object(out)["stream"] as? String == name)
  }

  @Test("text that parses as JSON is sent as that JSON, without surrounding blanks")
  func jsonText() throws {
    let cases: [(text: String, value: String)] = [
      ("42", "42"), ("  42\t", "42"), (#"{"x":1}"#, #"{"x":1}"#), (#" "quoted" "#, #""quoted""#),
      ("null", "null"), (#""a\nb""#, #""a\nb""#),
    ]
    for (text, value) in cases {
      let out = Array(text.utf8).withUnsafeBytes {
        DeliveryEncoder.line(stream: "exec.x", text: $0)
      }
      #expect(
        String(decoding: out, as: UTF8.self) == #"{"stream":"exec.x","value":\#(value)}"# + "\n")
      #expect(WireJSON.isOneLine(out))
    }
  }

  @Test(
    "other text is sent as a JSON string, on one line however many control characters it holds",
    arguments: [
      "", "hello world", "1 2", #"{"x":"#, #"say "hi" \ bye"#, "line\nbreak", "cr\rlf\r\n", "tab\t",
      "nul\u{0}", "esc\u{1B}[0m", "\u{1F}\u{7F}", "ünïcödé ✓", "\u{2028}",
    ])
  func stringText(text: String) throws {
    let out = Array(text.utf8).withUnsafeBytes { DeliveryEncoder.line(stream: "exec.x", text: $0) }
    #expect(WireJSON.isOneLine(out))
    let object = try WireJSON.object(out)
    #expect(object["stream"] as? String == "exec.x")
    #expect(object["value"] as? String == text)
    #expect(WireJSON.keyPaths(out) == ["stream", "value"])
  }

  @Test("invalid UTF-8 text still gives valid JSON, with the bad bytes replaced")
  func invalidUTF8Text() throws {
    let bytes: [UInt8] = Array("ok ".utf8) + [0xFF, 0xC0, 0x80] + Array(" end".utf8)
    let out = bytes.withUnsafeBytes { DeliveryEncoder.line(stream: "exec.x", text: $0) }
    #expect(WireJSON.isOneLine(out))
    let value = try WireJSON.object(out)["value"] as? String
    #expect(value == String(decoding: bytes, as: UTF8.self))
    #expect(value?.hasPrefix("ok ") == true)
    #expect(value?.contains("\u{FFFD}") == true)
  }
}
