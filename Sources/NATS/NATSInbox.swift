/// Unique reply subjects for requests.
public enum NATSInbox {
  private static let alphabet = Array(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

  /// 22 random base-62 characters, about 131 bits: inboxes of different clients never meet.
  public static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<22).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
