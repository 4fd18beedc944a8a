import CZlib

/// zlib refused to start or to go on.
public struct ZlibFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// zlib's return code (`Z_DATA_ERROR`, `Z_MEM_ERROR`...).
  public let code: Int32
  /// zlib's message, or a description of the code.
  public let message: String

  /// The failure `code`, with the message zlib left in `stream`.
  init(code: Int32, stream: z_stream) {
    self.code = code
    self.message = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
  }

  /// `zlib: message`.
  public var description: String { "zlib: \(message)" }

  /// Allocates a `z_stream` for `initialize` to set up; frees it again and throws when zlib
  /// refuses. zlib keeps pointers into the struct, so it lives on the heap and never moves.
  static func makeStream(
    _ initialize: (UnsafeMutablePointer<z_stream>) -> Int32
  ) throws(ZlibFailure) -> UnsafeMutablePointer<z_stream> {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let code = initialize(stream)
    guard code == Z_OK else {
      let failure = ZlibFailure(code: code, stream: stream.pointee)
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw failure
    }
    return stream
  }
}
