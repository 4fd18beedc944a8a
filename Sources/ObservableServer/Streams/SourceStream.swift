/// A read-only stream whose values come from the server rather than from clients: the built-in
/// `clock` and `stats`, and `--exec` commands.
class SourceStream: NamedStream, @unchecked Sendable {
  /// How many observers are subscribed now.
  var subscriberCount: Int { 0 }

  /// Ends whatever the stream runs in the background, at server shutdown.
  func shutdown() {}
}
