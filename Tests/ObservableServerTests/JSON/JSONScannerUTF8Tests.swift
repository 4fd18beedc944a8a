import Testing

@testable import ObservableServer
@testable import ObservableWire

@Suite struct JSONScannerUTF8Tests {
  @Test(
    arguments: [
      // Stray continuation bytes.
      [0x80], [0xBF], [0x80, 0x80],
      // Overlong encodings.
      [0xC0, 0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
      [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
      // UTF-16 surrogates encoded as UTF-8.
      [0xED, 0xA0, 0x80], [0xED, 0xAD, 0xBF], [0xED, 0xB0, 0x80], [0xED, 0xBF, 0xBF],
      [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80],
      // Code points above U+10FFFF and bytes that never occur in UTF-8.
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF],
      [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFC, 0x84, 0x80, 0x80, 0x80, 0x80], [0xFE], [0xFF],
      // Truncated sequences followed by ASCII.
      [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xE0, 0xA0],
      // A lead byte followed by another lead byte.
      [0xC3, 0xC3, 0xA9], [0xE2, 0xE2, 0x82, 0xAC],
      // Continuation byte replaced by ASCII or by a quote.
      [0xE2, 0x41, 0xAC], [0xF0, 0x9F, 0x41, 0x80], [0xC3, 0x22],
    ] as [[UInt8]])
  func rejectsInvalidSequenceInString(sequence: [UInt8]) {
    let bytes = Array(#"["ab"#.utf8) + sequence + Array(#"cd"]"#.utf8)
    #expect(syntaxError(bytes) == JSONSyntaxError(offset: 4, reason: "invalid UTF-8 in string"))
  }

  @Test(arguments: [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] as [[UInt8]])
  func rejectsSequenceTruncatedByEndOfInput(sequence: [UInt8]) {
    let bytes = Array(#""ab"#.utf8) + sequence
    #expect(syntaxError(bytes) == JSONSyntaxError(offset: 3, reason: "invalid UTF-8 in string"))
  }

  /// The scanner must stop at the end of the buffer it was given even when the memory after it
  /// would complete the sequence.
  @Test(arguments: [[0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80]] as [[UInt8]])
  func rejectsSequenceCutByBufferEnd(sequence: [UInt8]) {
    let line = Array(#""ab"#.utf8) + sequence + Array(#""]"#.utf8)
    let error = line.withUnsafeBytes { raw in
      Result { () throws(JSONSyntaxError) in
        try JSONScanner.scanValue(UnsafeRawBufferPointer(rebasing: raw[0..<3 + sequence.count - 1]))
      }
    }
    #expect(throws: JSONSyntaxError(offset: 3, reason: "invalid UTF-8 in string")) {
      try error.get()
    }
  }

  /// Non-ASCII must be validated wherever it falls relative to 8-byte words.
  @Test func validatesNonASCIIAtEveryOffset() throws {
    for offset in 0..<18 {
      var valid = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
      valid.replaceSubrange(offset..<offset + 2, with: [0xC3, 0xA9])
      #expect(try scanValue([0x22] + valid + [0x22]).range == 0..<22, "offset \(offset)")

      var invalid = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
      invalid[offset] = 0xC0
      #expect(
        syntaxError([0x22] + invalid + [0x22])
          == JSONSyntaxError(offset: 1 + offset, reason: "invalid UTF-8 in string"),
        "offset \(offset)")
    }
  }

  @Test func rejectsInvalidUTF8InObjectKey() {
    let bytes: [UInt8] = [0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D]
    #expect(syntaxError(bytes) == JSONSyntaxError(offset: 2, reason: "invalid UTF-8 in string"))
    #expect(throws: JSONSyntaxError(offset: 2, reason: "invalid UTF-8 in string")) {
      try scanObject(bytes)
    }
  }

  @Test(arguments: [[0xC3, 0xA9], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80]] as [[UInt8]])
  func rejectsNonASCIIOutsideStrings(sequence: [UInt8]) {
    let bytes = Array("[1,".utf8) + sequence + Array("]".utf8)
    #expect(
      syntaxError(bytes)
        == JSONSyntaxError.unexpected(sequence[0], at: 3))
    #expect(syntaxError(bytes)?.reason.hasPrefix("unexpected byte 0x") == true)
  }
}
