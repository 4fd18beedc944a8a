/// A request the server refuses, with the code and message of its error reply.
struct ProtocolError: Error, Sendable {
  let code: ErrorCode
  let message: String

  init(_ code: ErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }
}
