import Testing

@testable import ObservableServer

@Suite struct JSONStringDecodingTests {
  @Test(arguments: [
    (#""""#, ""),
    (#""hello""#, "hello"),
    ("\"é😀 raw\"", "é😀 raw"),
    (#""\"""#, "\""),
    (#""\\""#, "\\"),
    (#""\/""#, "/"),
    (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
    (#""\u0041\u00e9\u00E9\u20AC\uffff""#, "Aéé€\u{FFFF}"),
    (#""\u0000\u001f""#, "\u{0}\u{1F}"),
    (#""\ud83d\ude00""#, "😀"),
    (#""\uD83D\uDE00\uDBFF\uDFFF""#, "😀\u{10FFFF}"),
    (#""a\\u0041""#, "a\\u0041"),
    (#""0123456789\n0123456789\t0123456789\"end""#, "0123456789\n0123456789\t0123456789\"end"),
  ])
  func decodesEscapes(token: String, text: String) throws {
    #expect(try decodeToken(token) == text)
  }

  @Test(arguments: [
    (#""\ud83d""#, "\u{FFFD}"),
    (#""\ud83dx""#, "\u{FFFD}x"),
    (#""\ude00""#, "\u{FFFD}"),
    (#""\udfff\udc00""#, "\u{FFFD}\u{FFFD}"),
    (#""\udbff""#, "\u{FFFD}"),
    (#""\ude00\ud83d""#, "\u{FFFD}\u{FFFD}"),
    (#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀"),
    (#""\ud83d\n""#, "\u{FFFD}\n"),
    (#""\ud83d\u0041""#, "\u{FFFD}A"),
    (#""\udbff\ue000""#, "\u{FFFD}\u{E000}"),
  ])
  func replacesUnpairedSurrogatesWithReplacementCharacter(token: String, text: String) {
    // The scanner refuses these (see JSONScannerInvalidDocumentTests); decoding input that was
    // not validated still yields U+FFFD rather than trapping.
    let bytes = Array(token.utf8)
    #expect(decodeString(bytes, 0..<bytes.count) == text)
  }

  @Test func decodesTokenInsideLargerBuffer() throws {
    let bytes = Array(#"[1,"a\tb",2]"#.utf8)
    #expect(decodeString(bytes, 3..<9) == "a\tb")
    let members = try #require(try scanObject(#"{"k":"x\u0022y"}"#))
    #expect(members.first?.value == 5..<15)
    #expect(decodeString(Array(#"{"k":"x\u0022y"}"#.utf8), 5..<15) == "x\"y")
  }

  /// Decoding trusts prior validation, but must stay in bounds and deterministic if misused.
  @Test(arguments: [
    (#""\x""#, "x"),
    (#""ab\u12""#, "ab12"),
    (#""ab\""#, "ab"),
    (#""\u""#, ""),
    ("\"\u{1}\"", "\u{1}"),
  ])
  func toleratesUnvalidatedInput(token: String, text: String) {
    let bytes = Array(token.utf8)
    #expect(decodeString(bytes, 0..<bytes.count) == text)
  }

  @Test func repairsInvalidUTF8InUnvalidatedInput() {
    #expect(decodeString([0x22, 0x61, 0xFF, 0x22], 0..<4) == "a\u{FFFD}")
    #expect(decodeString([0x22, 0x5C, 0x6E, 0xC0, 0x22], 0..<5) == "\n\u{FFFD}")
  }
}
