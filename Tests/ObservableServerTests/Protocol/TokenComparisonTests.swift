import Testing

@testable import ObservableAuthorization

/// Secret comparison: true exactly when the bytes are equal.
@Suite(.timeLimit(.minutes(1)))
struct TokenComparisonTests {
  @Test("equal tokens match")
  func equal() {
    #expect(TokenComparison.matches([], []))
    #expect(TokenComparison.matches(Array("s3cret".utf8), Array("s3cret".utf8)))
    let long = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    #expect(TokenComparison.matches(long, long))
  }

  @Test("a difference anywhere is a mismatch")
  func differences() {
    let expected = Array("correct-horse".utf8)
    for index in expected.indices {
      var given = expected
      given[index] ^= 0x01
      #expect(!TokenComparison.matches(given, expected), "byte \(index)")
    }
  }

  @Test("prefixes and extensions do not match, either way round")
  func lengths() {
    let expected = Array("token".utf8)
    #expect(!TokenComparison.matches([], expected))
    #expect(!TokenComparison.matches(expected, []))
    for length in 0..<expected.count {
      #expect(!TokenComparison.matches(Array(expected.prefix(length)), expected))
      #expect(!TokenComparison.matches(expected, Array(expected.prefix(length))))
    }
    #expect(!TokenComparison.matches(expected + [0], expected))
    #expect(!TokenComparison.matches(expected + expected, expected))
  }

  @Test("every pair of one-byte tokens matches exactly when equal")
  func everySingleByte() {
    var wrong = 0
    for a in 0...255 {
      for b in 0...255 where TokenComparison.matches([UInt8(a)], [UInt8(b)]) != (a == b) {
        wrong += 1
      }
    }
    #expect(wrong == 0)
  }

  @Test("every pair of short tokens over a small alphabet matches exactly when equal")
  func shortTokens() {
    // The alphabet includes a byte and its complement, the filler used past the given token.
    let alphabet: [UInt8] = [0x00, 0xFF, 0x41]
    var tokens: [[UInt8]] = [[]]
    for length in 1...3 {
      tokens += tokens.filter { $0.count == length - 1 }.flatMap { prefix in
        alphabet.map { prefix + [$0] }
      }
    }
    #expect(tokens.count == 1 + 3 + 9 + 27)
    for given in tokens {
      for expected in tokens {
        #expect(
          TokenComparison.matches(given, expected) == (given == expected), "\(given) \(expected)")
      }
    }
  }
}
