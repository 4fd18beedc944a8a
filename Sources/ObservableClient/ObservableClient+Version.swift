import ObservableVersion

extension ObservableClient {
  /// The release this library and the `observable` command belong to, which
  /// `observable --version` prints: the same number the server sends in its greeting, from the
  /// one constant both read (`ReleaseVersion.current` in `ObservableVersion`).
  public static var version: String { ReleaseVersion.current }
}
