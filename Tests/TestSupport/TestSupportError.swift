import Glibc

/// A test-support call that could not do its job (no free port, a process that did not start),
/// with what went wrong.
public struct TestSupportError: Error, CustomStringConvertible {
  public let description: String

  public init(_ description: String) { self.description = description }

  /// A system call that failed with `code`, described as `strerror` has it ("Connection
  /// refused"), which tests match on.
  public init(call: String, code: Int32) {
    self.init("\(call): \(String(cString: strerror(code))) (errno \(code))")
  }
}
