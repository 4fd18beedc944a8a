import ObservableAuthorization

/// A fresh random token for a user of the authorization file, and the file's line for it.
package struct NewToken: Sendable {
  /// What the client sends: 64 hex digits, 256 random bits.
  package let token: String
  /// What the file keeps.
  package let digest: TokenDigest

  /// Draws 32 bytes from the system's generator (`getrandom` on Linux, never a seeded one).
  package init() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64, Array.init) }
    let digits = Array("0123456789abcdef".utf8)
    token = String(
      decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    digest = TokenDigest(hashing: token)
  }

  /// The `"token"` member to paste into the user's object in the file.
  package var fileLine: String { "\"token\": \"\(digest.text)\"" }
}
