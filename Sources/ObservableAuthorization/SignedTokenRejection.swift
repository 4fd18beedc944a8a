/// Why a signed token was refused. The reason never quotes the token.
package struct SignedTokenRejection: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong, for the client's `unauthorized` reply and the server's debug log.
  package let reason: String

  package init(_ reason: String) {
    self.reason = reason
  }

  package var description: String { reason }
}

/// Why `--jwt-key` cannot be used.
package struct SignedTokenKeyError: Error, Sendable, Equatable, CustomStringConvertible {
  package let message: String

  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }
}
