/// The version of the project's programs, written in this one place.
///
/// The server sends it in its greeting, `/healthz` and `/metrics`, and the NATS `CONNECT` of a
/// cluster node; the `observable` command prints it. It is a module of its own, depending on
/// nothing, so that the client and its command can read it without linking the server.
public enum ReleaseVersion {
  /// The release, as `major.minor.patch`; the minor number counts the rounds of features
  /// since 1.0 (protocol 1 is unchanged, so the major number stays).
  public static let current = "1.2.0"
}
