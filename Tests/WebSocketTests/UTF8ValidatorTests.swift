import XCTest

@testable import WebSocket

final class UTF8ValidatorTests: XCTestCase {
  private func isValid(_ bytes: [UInt8]) -> Bool {
    var validator = UTF8Validator()
    return validator.validate(bytes) && validator.isAtBoundary
  }

  func testWellFormedSequencesAtTheEdgesOfEachRange() {
    let valid: [[UInt8]] = [
      [], [0x00], [0x7F], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xEC, 0xBF, 0xBF],
      [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
      [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
      Array("κόσμε, plain ASCII long enough for the eight-byte path 🎉".utf8),
    ]
    for bytes in valid { XCTAssertTrue(isValid(bytes), "\(bytes)") }
  }

  func testIllFormedSequences() {
    let invalid: [(String, [UInt8])] = [
      ("overlong 2", [0xC0, 0x80]), ("overlong 2 C1", [0xC1, 0xBF]),
      ("overlong 3", [0xE0, 0x80, 0x80]), ("overlong 3 edge", [0xE0, 0x9F, 0xBF]),
      ("overlong 4", [0xF0, 0x80, 0x80, 0x80]), ("overlong 4 edge", [0xF0, 0x8F, 0xBF, 0xBF]),
      ("surrogate high", [0xED, 0xA0, 0x80]), ("surrogate low", [0xED, 0xBF, 0xBF]),
      ("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80]), ("F5", [0xF5, 0x80, 0x80, 0x80]),
      ("FF", [0xFF]), ("lone continuation", [0x80]), ("truncated 2", [0xC2]),
      ("truncated 4", [0xF0, 0x90, 0x80]), ("bad continuation", [0xE1, 0x80, 0x41]),
      ("after ASCII run", Array("abcdefghijklmnop".utf8) + [0xC0]),
    ]
    for (name, bytes) in invalid { XCTAssertFalse(isValid(bytes), name) }
  }

  /// The standard library's own validation is the oracle for random bytes, each input also
  /// split at every position to check that state carries across pieces.
  func testAgreesWithTheStandardLibraryOnRandomInputSplitAnywhere() {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [UInt8] = [
      0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF,
      0xF0, 0xF3, 0xF4, 0xF5,
    ]
    var validCount = 0
    for _ in 0..<3000 {
      let length = Int.random(in: 1...12, using: &generator)
      let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
      let expected = String(validating: bytes, as: UTF8.self) != nil
      if expected { validCount += 1 }
      for split in 0...length {
        var validator = UTF8Validator()
        let first = validator.validate(bytes[..<split])
        let whole = first && validator.validate(bytes[split...]) && validator.isAtBoundary
        XCTAssertEqual(whole, expected, "\(bytes) split at \(split)")
      }
    }
    XCTAssertGreaterThan(validCount, 10, "the random inputs should include valid text")
  }

  func testStopsAtTheFirstBadByteEvenInsideAPiece() {
    var validator = UTF8Validator()
    XCTAssertTrue(validator.validate([0xF0, 0x9F]))
    XCTAssertFalse(validator.isAtBoundary)
    XCTAssertFalse(validator.validate([0x41]))
  }
}
