/// Why an authorization file was refused, with the line to look at.
package struct AuthorizationFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The line (from 1) where the problem is; 0 when it is the file as a whole (unreadable).
  package let line: Int
  /// What is wrong, in words an operator can act on.
  package let message: String

  package init(line: Int, _ message: String) {
    self.line = line
    self.message = message
  }

  package var description: String { line > 0 ? "line \(line): \(message)" : message }
}
