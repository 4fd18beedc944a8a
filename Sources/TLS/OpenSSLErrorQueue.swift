import COpenSSL

/// OpenSSL's per-thread error queue, read into Swift values.
///
/// OpenSSL records why a call failed on a queue of the calling thread. Every failure this module
/// reports reads the queue at once, on the same thread, and empties it: an entry left behind
/// would be blamed on the next connection that fails on that event loop.
enum OpenSSLErrorQueue {
  /// The first error the queue holds, as OpenSSL's reason code and its text, and empties the
  /// queue; `nil` when it is empty.
  static func take() -> (reason: Int32, text: String)? {
    let first = ERR_get_error()
    defer { ERR_clear_error() }
    guard first != 0 else { return nil }
    return (ERR_GET_REASON(first), text(of: first))
  }

  /// Empties the queue before a call whose failure will be read from it. Looks first: the
  /// queue is nearly always empty, and `ERR_clear_error` resets all 16 of its slots even
  /// then, about 150 instructions on every read and write of a session.
  static func clear() {
    if ERR_peek_error() != 0 { ERR_clear_error() }
  }

  /// OpenSSL's text for `code`: the reason string, such as "key values mismatch".
  static func text(of code: UInt) -> String {
    if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
