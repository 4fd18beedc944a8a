import Crypto
import ObservableAuthorization

extension TokenDigest {
  /// The SHA-256 digest of `token`'s UTF-8 bytes.
  package init(hashing token: String) {
    self.init(bytes: Array(SHA256.hash(data: Array(token.utf8))))
  }

  /// Whether `token` hashes to this digest, comparing the digests in constant time.
  package func matches(_ token: String) -> Bool {
    matches(TokenDigest(hashing: token))
  }
}
