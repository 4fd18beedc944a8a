/// What an error reply quotes of a client's text (an op, a key, a command word): the text
/// itself when short, otherwise its start. A request line may be as long as `--max-line-bytes`,
/// and an error that repeated it whole could be larger than the limit on what may wait for one
/// client, which would then be closed as a slow consumer for the server's own reply.
package enum QuotedPrefix {
  /// The most UTF-8 bytes of a client's text an error reply quotes.
  static let maximumBytes = 64

  /// `text` when it has at most ``maximumBytes`` UTF-8 bytes; otherwise the Unicode scalars
  /// that fit in them, followed by `…`.
  package static func of<Text: StringProtocol>(_ text: Text) -> String {
    guard text.utf8.count > maximumBytes else { return String(text) }
    var kept = String.UnicodeScalarView()
    var bytes = 0
    for scalar in text.unicodeScalars {
      bytes += UTF8.width(scalar)
      if bytes > maximumBytes { break }
      kept.append(scalar)
    }
    return String(kept) + "…"
  }
}
