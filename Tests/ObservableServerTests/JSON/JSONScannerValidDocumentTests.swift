import Testing

@testable import ObservableServer
@testable import ObservableWire

@Suite struct JSONScannerValidDocumentTests {
  @Test(arguments: [
    ("{}", JSONValueKind.object),
    (#"{"a":1}"#, .object),
    (#"{"a":[1,{"b":null}],"c":{"d":"e"},"f":true}"#, .object),
    ("[]", .array),
    ("[1,-2.5e3,\"x\",true,false,null,[],{}]", .array),
    (#""""#, .string),
    (#""hello""#, .string),
    (#""\"\\\/\b\f\n\r\t""#, .string),
    (#""\u00e9\u00E9\ud83d\ude00\u0000""#, .string),
    ("\"é😀\u{7F} \"", .string),
    ("0", .number),
    ("-0", .number),
    ("7", .number),
    ("-1234567890", .number),
    ("0.5", .number),
    ("-0.0e0", .number),
    ("1e5", .number),
    ("1E+5", .number),
    ("1e-05", .number),
    ("12.34E-56", .number),
    ("123456789012345678901234567890", .number),
    ("true", .bool),
    ("false", .bool),
    ("null", .null),
  ])
  func acceptsDocument(text: String, kind: JSONValueKind) throws {
    let bytes = Array(text.utf8)
    let scanned = try scanValue(bytes)
    #expect(scanned.kind == kind)
    #expect(scanned.range == 0..<bytes.count)
  }

  @Test(
    arguments: [
      [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE1, 0x80, 0x80], [0xEC, 0xBF, 0xBF],
      [0xED, 0x80, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
      [0xF0, 0x90, 0x80, 0x80], [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
    ] as [[UInt8]])
  func acceptsBoundaryUTF8Sequences(sequence: [UInt8]) throws {
    let bytes = [0x22, 0x61] + sequence + [0x62, 0x22]
    let scanned = try scanValue(bytes)
    #expect(scanned.range == 0..<bytes.count)
    #expect(decodeString(bytes, scanned.range).utf8.elementsEqual([0x61] + sequence + [0x62]))
  }

  /// Every printable ASCII byte, DEL included, may appear raw in a string; checking each one at
  /// several offsets covers both the word-at-a-time search and its byte-wise tail.
  @Test func acceptsEveryUnescapedASCIIByteAtEveryOffset() throws {
    for byte in UInt8(0x20)...0x7F where byte != 0x22 && byte != 0x5C {
      for offset in 0..<18 {
        var content = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
        content[offset] = byte
        let bytes = [0x22] + content + [0x22]
        let scanned = try scanValue(bytes)
        #expect(scanned.range == 0..<22, "byte \(byte) at \(offset)")
      }
    }
  }

  @Test func findsClosingQuoteForEveryStringLength() throws {
    for length in 0..<40 {
      let content = String(repeating: "x", count: length)
      let bytes = Array("[\"\(content)\",1]".utf8)
      let scanned = try scanValue(bytes)
      #expect(scanned.range == 0..<bytes.count, "length \(length)")
      let members = try #require(try scanObject("{\"\(content)\":\"\(content)\"}"))
      #expect(members.map(\.key) == [content])
      #expect(members.map(\.value) == [(length + 4)..<(2 * length + 6)])
    }
  }
}
