import Testing

@testable import ObservableServer
@testable import ObservableWire

@Suite struct JSONScannerInvalidDocumentTests {
  @Test(arguments: [
    // Empty and whitespace-only input.
    ("", 0, "unexpected end of input"),
    ("   ", 3, "unexpected end of input"),
    (" \t\r\n", 4, "unexpected end of input"),
    // Trailing garbage.
    ("{} x", 3, "trailing characters after value"),
    ("1 2", 2, "trailing characters after value"),
    (#""a""b""#, 3, "trailing characters after value"),
    ("nulll", 4, "trailing characters after value"),
    ("[1]]", 3, "trailing characters after value"),
    // Numbers.
    ("01", 0, "leading zero in number"),
    ("-01", 1, "leading zero in number"),
    ("[00]", 1, "leading zero in number"),
    ("1.", 2, "expected digit after decimal point"),
    ("1.e5", 2, "expected digit after decimal point"),
    ("[1.]", 3, "expected digit after decimal point"),
    (".5", 0, "unexpected character '.'"),
    ("+1", 0, "unexpected character '+'"),
    ("-", 1, "expected digit in number"),
    ("-a", 1, "expected digit in number"),
    ("- 1", 1, "expected digit in number"),
    ("1e", 2, "expected digit in exponent"),
    ("1E+", 3, "expected digit in exponent"),
    ("1e-x", 3, "expected digit in exponent"),
    ("0x10", 1, "trailing characters after value"),
    ("NaN", 0, "unexpected character 'N'"),
    ("Infinity", 0, "unexpected character 'I'"),
    ("-Infinity", 1, "expected digit in number"),
    // Literals.
    ("tru", 0, "invalid literal"),
    ("trUe", 0, "invalid literal"),
    ("fals", 0, "invalid literal"),
    ("nul", 0, "invalid literal"),
    ("True", 0, "unexpected character 'T'"),
    ("undefined", 0, "unexpected character 'u'"),
    // Structure.
    ("[1,]", 3, "trailing comma in array"),
    ("[1, ]", 4, "trailing comma in array"),
    (#"{"a":1,}"#, 7, "trailing comma in object"),
    (#"{"a":1 , }"#, 9, "trailing comma in object"),
    ("[,1]", 1, "unexpected character ','"),
    ("[1,,2]", 3, "unexpected character ','"),
    ("{,}", 1, "expected string as object key"),
    ("[1 2]", 3, "expected ',' or ']' in array"),
    ("[1}", 2, "expected ',' or ']' in array"),
    (#"{"a":1]"#, 6, "expected ',' or '}' in object"),
    (#"{"a":1 "b":2}"#, 7, "expected ',' or '}' in object"),
    (#"{"a" 1}"#, 5, "expected ':' after object key"),
    (#"{"a"}"#, 4, "expected ':' after object key"),
    (#"{"a":}"#, 5, "unexpected character '}'"),
    ("{1:2}", 1, "expected string as object key"),
    ("{a:1}", 1, "expected string as object key"),
    ("[}", 1, "unexpected character '}'"),
    ("{]", 1, "expected string as object key"),
    ("]", 0, "unexpected character ']'"),
    ("[", 1, "unexpected end of input"),
    ("[1", 2, "unexpected end of input"),
    ("[1,", 3, "unexpected end of input"),
    ("{", 1, "unexpected end of input"),
    (#"{"a""#, 4, "unexpected end of input"),
    (#"{"a":"#, 5, "unexpected end of input"),
    (#"{"a":1"#, 6, "unexpected end of input"),
    (#"{"a":1,"#, 7, "unexpected end of input"),
    // Single quotes.
    ("'a'", 0, "unexpected character '''"),
    ("['a']", 1, "unexpected character '''"),
    ("{'a':1}", 1, "expected string as object key"),
    // Strings.
    (#""abc"#, 0, "unterminated string"),
    (#"["abc"#, 1, "unterminated string"),
    (#""abc\"#, 0, "unterminated string"),
    (#""abc\""#, 0, "unterminated string"),
    (#""\u12"#, 0, "unterminated string"),
    (#""\x""#, 1, "invalid escape sequence"),
    (#""\'""#, 1, "invalid escape sequence"),
    (#""\U0041""#, 1, "invalid escape sequence"),
    (#""ab\u12g4""#, 3, "invalid \\u escape"),
    (#""\u12""#, 1, "invalid \\u escape"),
    // Unpaired surrogate escapes (I-JSON, RFC 7493 section 2.1).
    (#""\ud800""#, 1, "unpaired surrogate escape"),
    (#""\udc00 lone low""#, 1, "unpaired surrogate escape"),
    (#""\udfff\udc00""#, 1, "unpaired surrogate escape"),
    (#""ab\ud83dx""#, 3, "unpaired surrogate escape"),
    (#""\ud83d\u0041""#, 1, "unpaired surrogate escape"),
    (#""\ud83d\ud83d\ude00""#, 1, "unpaired surrogate escape"),
    (#""\ud83d\n""#, 1, "unpaired surrogate escape"),
    (#""😀\udbff\ue000""#, 5, "unpaired surrogate escape"),
    (#"{"\ude00":1}"#, 2, "unpaired surrogate escape"),
    (#"["\ud83d"]"#, 2, "unpaired surrogate escape"),
    (#""\ud83d\ude0""#, 7, "invalid \\u escape"),
    (#""\ud83d\ude0"#, 0, "unterminated string"),
    // Input that ends where the low escape would start is cut short, not unpaired (the fuzzer's
    // prefix property: the bytes before an error only ever fail by ending too early).
    (#""\ud83d"#, 0, "unterminated string"),
    (#""ab\ud83d\"#, 0, "unterminated string"),
    ("\"a\nb\"", 2, "unescaped control character in string"),
    ("\"a\tb\"", 2, "unescaped control character in string"),
    ("\"\u{1F}\"", 1, "unescaped control character in string"),
    ("\"0123456789abc\r\"", 14, "unescaped control character in string"),
    // Whitespace RFC 8259 does not allow.
    ("\u{0C}1", 0, "unexpected byte 0x0C"),
    ("\u{0B}1", 0, "unexpected byte 0x0B"),
    ("\u{A0}1", 0, "unexpected byte 0xC2"),
    ("1\u{FEFF}", 1, "trailing characters after value"),
    ("\u{FEFF}1", 0, "unexpected byte 0xEF"),
    // Garbage.
    ("<html>", 0, "unexpected character '<'"),
    ("é", 0, "unexpected byte 0xC3"),
    ("[é]", 1, "unexpected byte 0xC3"),
    ("{\"a\":é}", 5, "unexpected byte 0xC3"),
  ])
  func rejectsDocument(text: String, offset: Int, reason: String) {
    #expect(syntaxError(text) == JSONSyntaxError(offset: offset, reason: reason))
  }

  @Test(
    arguments: [
      ([0x00], 0, "unexpected byte 0x00"),
      ([0x31, 0x00], 1, "trailing characters after value"),
      ([0x00, 0x31], 0, "unexpected byte 0x00"),
      ([0x20, 0x00, 0x20], 1, "unexpected byte 0x00"),
      ([0x22, 0x61, 0x00, 0x22], 2, "unescaped control character in string"),
      ([0x5B, 0x31, 0x2C, 0x00, 0x5D], 3, "unexpected byte 0x00"),
      ([0x5B, 0x31, 0x00, 0x5D], 2, "expected ',' or ']' in array"),
      ([0x7B, 0x22, 0x61, 0x22, 0x00, 0x3A, 0x31, 0x7D], 4, "expected ':' after object key"),
      ([0x74, 0x72, 0x75, 0x00], 0, "invalid literal"),
      ([0xFF], 0, "unexpected byte 0xFF"),
      ([0xFE, 0xFF, 0x00, 0x31], 0, "unexpected byte 0xFE"),
      ([0x80], 0, "unexpected byte 0x80"),
      ([0x1B, 0x5B, 0x41], 0, "unexpected byte 0x1B"),
      ([0x7F], 0, "unexpected byte 0x7F"),
      ([0x5B, 0x31, 0x5D, 0xFF], 3, "trailing characters after value"),
    ] as [([UInt8], Int, String)])
  func rejectsBytes(bytes: [UInt8], offset: Int, reason: String) {
    #expect(syntaxError(bytes) == JSONSyntaxError(offset: offset, reason: reason))
  }

  /// Control bytes are rejected wherever they sit in a string, whether the word-at-a-time search
  /// or the byte-wise tail finds them.
  @Test func rejectsEveryControlByteAtEveryOffset() {
    for byte in UInt8(0x00)..<0x20 {
      for offset in 0..<18 {
        var content = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
        content[offset] = byte
        let expected = JSONSyntaxError(
          offset: 1 + offset, reason: "unescaped control character in string")
        #expect(syntaxError([0x22] + content + [0x22]) == expected, "byte \(byte) at \(offset)")
      }
    }
  }

  @Test func describesErrorWithReasonAndOffset() {
    let error = JSONSyntaxError(offset: 7, reason: "nesting too deep")
    #expect(error.description == "nesting too deep at byte 7")
  }
}
