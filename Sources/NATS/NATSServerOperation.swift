/// What the server sent, one protocol operation at a time.
public enum NATSServerOperation: Sendable, Equatable {
  /// `INFO`: the server's description, at connection and again when the cluster changes.
  case info(NATSServerInfo)
  /// `MSG` or `HMSG`.
  case message(NATSMessage)
  /// `PING`: the server checks that the client is alive, and expects a `PONG`.
  case ping
  /// `PONG`: the answer to the client's `PING`.
  case pong
  /// `+OK`, sent only in verbose mode.
  case ok
  /// `-ERR`, with the text between the quotes.
  case error(String)
}
