import Testing

@testable import ObservableServer
@testable import ObservableWire

@Suite("Publish fast path", .timeLimit(.minutes(1)))
struct PublishShapeTests {
  static let matching = [
    #"{"op":"publish","stream":"bench","value":"1234567890q1xxxx"}"#,
    #"{"op":"publish","stream":"a.b-c_d","value":{"x":[1,2,{"y":null}]}}"#,
    #"{"op":"publish","stream":"n","value":-1.5e3}"#,
  ]
  static let retained = [
    #"{"op":"publish","stream":"k.1","value":5,"retain":true}"#,
    #"{"op":"publish","stream":"a.b-c_d","value":{"x":[1,{"retain":true}]},"retain":true}"#,
    #"{"op":"publish","stream":"s","value":"a,\"retain\":true}","retain":true}"#,
  ]
  static let declined = [
    #"{"op":"publish","stream":"a","value":1,"id":2}"#,
    #"{"op":"publish","stream":"a","value":1 }"#,
    #"{"op":"publish","stream":"a b","value":1}"#,
    #"{"op":"publish","stream":"a\u002e","value":1}"#,
    #"{"op":"publish","stream":"","value":1}"#,
    #"{"op":"publish","stream":"a","value":[1,}"#,
    #"{"op":"publish","stream":"a","value":1}}"#,
    #"{"op":"publish","stream":"a","retain":true,"value":1}"#,
    #"{"stream":"a","op":"publish","value":1}"#,
    #"{"op":"publish","stream":"a","value":1,"retain":false}"#,
    #"{"op":"publish","stream":"a","value":{"b":1,"retain":true}"#,
    #"{"op":"publish","stream":"a","value":,"retain":true}"#,
    #"{"op":"publish","stream":"a","value":1, "retain":true}"#,
  ]

  @Test(arguments: matching)
  func matchesWhatTheGeneralParserReads(_ line: String) throws {
    let bytes = Array(line.utf8)
    let fast = try #require(
      bytes.withUnsafeBytes { PublishShape.match($0).map(ParsedRequest.init) })
    let general = try #require(RequestParser.outcome(bytes).request)
    #expect(fast.op == general.op)
    #expect(fast.stream == general.stream)
    #expect(fast.value == general.value)
    #expect(fast.retain == false)
  }

  @Test(arguments: retained)
  func matchesARetainedPublishAsTheGeneralParserReadsIt(_ line: String) throws {
    let bytes = Array(line.utf8)
    let fast = try #require(
      bytes.withUnsafeBytes { PublishShape.match($0).map(ParsedRequest.init) })
    // A space after the brace declines the shape: the general parser reads this one.
    let general = try #require(RequestParser.outcome("{ " + line.dropFirst()).request)
    #expect(fast == general)
    #expect(fast.retain)
  }

  /// The session batches only what `parts(of:)` says is not retained.
  @Test(arguments: retained)
  func partsTellsARetainedPublishApart(_ line: String) throws {
    try Array(line.utf8).withUnsafeBytes { bytes in
      let parts = try #require(PublishShape.parts(of: bytes))
      #expect(parts.retain)
      let general = try #require(RequestParser.outcome("{ " + line.dropFirst()).request)
      #expect(String(decoding: parts.value, as: UTF8.self) == general.value)
      #expect(String(decoding: parts.name, as: UTF8.self) == general.stream)
    }
  }

  @Test(arguments: matching)
  func partsTellsAPlainPublishApart(_ line: String) {
    let retain = Array(line.utf8).withUnsafeBytes { PublishShape.parts(of: $0)?.retain }
    #expect(retain == false)
  }

  @Test(arguments: declined)
  func declinesEveryOtherShape(_ line: String) {
    #expect(Array(line.utf8).withUnsafeBytes { PublishShape.match($0) } == nil)
  }

  @Test(arguments: matching)
  func theDeliveryBodyIsTheEncodedDeliveryButForItsEnds(_ line: String) throws {
    try Array(line.utf8).withUnsafeBytes { bytes in
      let parts = try #require(PublishShape.parts(of: bytes))
      let stream = String(decoding: parts.name, as: UTF8.self)
      let encoded = DeliveryEncoder.line(stream: stream, rawValue: parts.value)
      #expect([UInt8(ascii: "{")] + Array(parts.deliveryBody) + [0x0A] == encoded)
    }
  }

  @Test func bytesCompareEqualOnlyWhenEveryByteIs() {
    let base = Array("abcdefghijklmnopqrstuvwxyz0123".utf8)
    for count in 0...base.count {
      for changed in 0..<count {
        var other = base
        other[changed] ^= 0x20
        let equal = base.withUnsafeBytes { a in
          other.withUnsafeBytes { b in a.baseAddress!.bytesEqual(b.baseAddress!, count: count) }
        }
        #expect(!equal, "count \(count), byte \(changed) differs")
      }
      let same = base.withUnsafeBytes { a in
        Array(base).withUnsafeBytes { b in a.baseAddress!.bytesEqual(b.baseAddress!, count: count) }
      }
      #expect(same, "count \(count)")
    }
  }
}
