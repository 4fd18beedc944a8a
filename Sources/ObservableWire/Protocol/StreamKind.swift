/// What produces a stream's values, as shown by the `list` op.
public enum StreamKind: String, Sendable {
  /// Made by the server itself, such as `clock` and `stats`.
  case builtin
  /// The output of a command started with `--exec`.
  case exec
  /// Values that clients publish.
  case topic
}
