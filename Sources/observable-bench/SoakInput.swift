/// The input side of one soak client: bytes as read, lines out, inflated once the reply to
/// `compress` has arrived (everything after that reply, even in the same read, is deflate).
///
/// Belongs to one soak client, on the load thread.
final class SoakInput {
  /// Why input could not be turned into lines.
  enum Failure: Error, CustomStringConvertible {
    case zlibUnavailable
    case corrupt
    case lineTooLong

    var description: String {
      switch self {
      case .zlibUnavailable: "zlib could not start a stream"
      case .corrupt: "the server's deflate stream did not inflate"
      case .lineTooLong: "a line over 1 MiB from the server"
      }
    }
  }

  /// Both directions' zlib streams once compression is on; the client compresses with it too.
  private(set) var codec: SoakDeflate?

  /// Splits `bytes` into lines for `line`, which returns `true` for the reply that turns
  /// compression on.
  func take(
    _ bytes: ArraySlice<UInt8>, line: (ArraySlice<UInt8>) -> Bool
  ) throws(Failure) {
    if let codec {
      guard let text = codec.decompress(bytes, limit: Self.limit) else { throw .corrupt }
      pending += text
    } else {
      pending += bytes
    }
    var start = pending.startIndex
    while let newline = pending[start...].firstIndex(of: 0x0A) {
      let text = pending[start..<newline]
      start = newline + 1
      guard line(text), codec == nil else { continue }
      guard let started = SoakDeflate() else { throw .zlibUnavailable }
      codec = started
      let rest = pending[start...]
      pending = []
      if !rest.isEmpty { try take(rest, line: line) }
      return
    }
    pending.removeSubrange(..<start)
    guard pending.count <= Self.limit else { throw .lineTooLong }
  }

  /// The longest partial line kept, and the most one read may inflate to: far above any line
  /// of the soak (a `list` of its few hundred topics), so only a runaway stream reaches it.
  private static let limit = 1 << 20
  private var pending: [UInt8] = []
}
