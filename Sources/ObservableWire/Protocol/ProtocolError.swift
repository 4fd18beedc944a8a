/// A request the server refuses, with the code and message of its error reply.
package struct ProtocolError: Error, Sendable {
  package let code: ErrorCode
  package let message: String

  package init(_ code: ErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }
}
