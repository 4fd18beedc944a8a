extension ObservableClient {
  /// The release this library and the `observable` command belong to, which
  /// `observable --version` prints.
  ///
  /// 1.2.0 counts the two rounds of features added since the 1.0.0 server and client. The
  /// server's `ObservableServer.version` should give the same number; the two are kept in step
  /// by hand until they share one constant.
  public static let version = "1.2.0"
}
