import CZlib
import Deflate

/// zlib refused to start or to go on.
public struct ZlibFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// zlib's return code (`Z_DATA_ERROR`, `Z_MEM_ERROR`...).
  public let code: Int32
  /// zlib's message, or a description of the code.
  public let message: String

  /// The failure the shared zlib wrapper reported, with zlib's code where it has one.
  init(_ error: CompressionError) {
    switch error {
    case .initializationFailed(let code, let message), .streamFailed(let code, let message):
      self.code = code
      self.message = message
    case .corruptInput(let message):
      self.code = Z_DATA_ERROR
      self.message = message
    case .inputAfterStreamEnd, .consumerFailed, .streamUnusable:
      self.code = Z_STREAM_ERROR
      self.message = error.description
    }
  }

  /// `zlib: message`.
  public var description: String { "zlib: \(message)" }
}
