/// A token as the authorization file keeps it: its SHA-256, written `sha256:` and 64 hex digits.
///
/// Why SHA-256 and not bcrypt or Argon2: the tokens are 256 random bits made by
/// `observable-server token`, not passwords a person chose, so there is nothing for a slow hash
/// to protect against guessing (2^256 tries either way), while a slow hash would cost every
/// connection's `auth` milliseconds of a loop thread. The same reasoning is why API-key stores
/// keep a plain SHA-256 of a random key. A file that leaks still gives no usable token.
package struct TokenDigest: Sendable, Equatable {
  /// The 32 bytes of the digest.
  package let bytes: [UInt8]

  /// The prefix that names the hash in the file, so that another can be added later.
  package static let prefix = "sha256:"

  /// A digest already computed: 32 bytes (the credentials module hashes with SHA-256).
  package init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Reads `sha256:` and 64 hex digits; `nil` for anything else.
  package init?(parsing text: String) {
    guard text.hasPrefix(Self.prefix) else { return nil }
    let digits = Array(text.utf8.dropFirst(Self.prefix.utf8.count))
    guard digits.count == 64 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    for index in stride(from: 0, to: 64, by: 2) {
      guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1])
      else { return nil }
      bytes.append(high << 4 | low)
    }
    self.bytes = bytes
  }

  /// The digest as the file writes it.
  package var text: String {
    let digits = Array("0123456789abcdef".utf8)
    var out = Array(Self.prefix.utf8)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Whether `other` is this digest, compared in constant time.
  package func matches(_ other: TokenDigest) -> Bool {
    TokenComparison.matches(other.bytes, bytes)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
