import Glibc

/// A system call that failed, with the `errno` it left behind.
public struct SystemError: Error, Sendable, CustomStringConvertible {
  /// The name of the call, such as `bind` or `accept4`.
  public let call: String
  /// The `errno` value the call set.
  public let code: Int32

  /// Creates an error for `call` that failed with `code`.
  public init(call: String, code: Int32) {
    self.call = call
    self.code = code
  }

  public var description: String {
    "\(call): \(String(cString: strerror(code))) (errno \(code))"
  }
}
