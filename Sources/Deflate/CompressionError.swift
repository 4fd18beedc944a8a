import CZlib

/// A failure of the connection's deflate or inflate stream.
///
/// Every case is fatal for the connection: zlib streams carry state from one call to the
/// next, so once a call fails there is no way to resynchronise with the peer.
package enum CompressionError: Error, CustomStringConvertible {
  /// zlib refused to set up a stream, for instance because of an invalid level or memory.
  case initializationFailed(code: Int32, message: String)
  /// The peer sent bytes that are not valid raw deflate data (zlib's `Z_DATA_ERROR`).
  case corruptInput(message: String)
  /// zlib failed for a reason other than bad data, for instance running out of memory.
  case streamFailed(code: Int32, message: String)
  /// The peer ended its deflate stream and then sent more bytes.
  ///
  /// RFC 4978 keeps compression on for the rest of the connection, so a peer that ends its
  /// stream has nothing valid left to send; the bytes are refused rather than guessed at.
  case inputAfterStreamEnd(byteCount: Int)
  /// The closure that received decompressed bytes threw; the original error is kept so the
  /// caller can tell its own limits (such as an over-long line) from zlib failures.
  case consumerFailed(any Error)
  /// An earlier call failed, leaving the stream in an unknown position.
  case streamUnusable

  package var description: String {
    switch self {
    case .initializationFailed(let code, let message):
      "zlib stream setup failed (\(code)): \(message)"
    case .corruptInput(let message):
      "compressed input is corrupt: \(message)"
    case .streamFailed(let code, let message):
      "zlib failed (\(code)): \(message)"
    case .inputAfterStreamEnd(let byteCount):
      "\(byteCount) byte(s) arrived after the peer ended its compressed stream"
    case .consumerFailed(let error):
      "decompressed data was rejected: \(error)"
    case .streamUnusable:
      "the compressed stream failed earlier and cannot be used again"
    }
  }

  /// zlib's own explanation of a failure, which names the actual defect (for instance
  /// "invalid block type"); falls back to the generic text for the code when zlib left none.
  static func zlibMessage(_ stream: z_stream, code: Int32) -> String {
    if let message = stream.msg {
      return String(cString: message)
    }
    return String(cString: zError(code))
  }
}
