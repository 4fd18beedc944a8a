import Testing

@testable import ObservableServer
@testable import ObservableWire

/// A value that starts with a quote, as most published values do, is checked without a
/// ``JSONReader`` (``JSONStringToken``): it must come out exactly as the reader's scan of the
/// same document, the ranges, kinds and errors with their offsets alike.
@Suite struct JSONScannerStringValueTests {
  static let documents: [[UInt8]] =
    [
      #""""#, #""abc""#, #""a\"b\\c""#, #""\u00e9\ud83d\ude00""#, #""é 😀""#, #""abc" "#,
      "\"abc\"\n", #""abc"x"#, #""abc" "d""#, #""abc"#, "\"", #""a\qb""#, #""\ud800""#,
      #""\udc00x""#, #""\u12""#, "\"a\u{01}b\"",
    ].map { Array($0.utf8) } + [[0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]]

  /// The reader's scan: collecting children takes it whatever the document.
  static func readerScan(_ bytes: [UInt8]) -> Result<(Range<Int>, JSONValueKind), JSONSyntaxError> {
    bytes.withUnsafeBytes { raw in
      Result { () throws(JSONSyntaxError) in
        let scanned = try JSONScanner.scanChildren(raw)
        return (scanned.range, scanned.kind)
      }
    }
  }

  @Test(arguments: documents)
  func aStringValueScansAsTheReaderScansIt(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    switch (Result { () throws(JSONSyntaxError) in try scanValue(bytes) }, Self.readerScan(bytes)) {
    case (.success(let fast), .success(let reader)):
      #expect(fast.range == reader.0 && fast.kind == reader.1, "\(text)")
    case (.failure(let fast), .failure(let reader)):
      #expect(fast == reader, "\(text)")
    case (let fast, let reader):
      Issue.record("\(text): \(fast) against the reader's \(reader)")
    }
  }
}
