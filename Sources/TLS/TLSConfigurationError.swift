/// A TLS context that could not be built, naming the file and OpenSSL's reason, so that the
/// one log line a failed start or reload writes says what to fix.
public struct TLSConfigurationError: Error, Equatable, CustomStringConvertible {
  /// Which part of the configuration failed.
  public enum Part: String, Sendable {
    /// The certificate chain (missing file, not PEM, not a certificate).
    case certificateChain = "certificate chain"
    /// The private key (missing file, not PEM, encrypted, not a key).
    case privateKey = "private key"
    /// The key is readable but is not the key of the chain's first certificate.
    case keyMismatch = "private key does not match the certificate"
    /// The authorities that sign client certificates (the server's `--tls-client-ca`).
    case clientAuthorities = "client certificate authorities"
    /// The authorities that sign server certificates (the client's `--ca-file`).
    case serverAuthorities = "server certificate authorities"
    /// OpenSSL could not make a context at all (out of memory, a broken library).
    case context = "TLS context"
  }

  /// Which part failed.
  public let part: Part
  /// The file involved, if one was.
  public let file: String?
  /// Why: OpenSSL's reason (such as "key values mismatch") or the system's ("no such file").
  public let reason: String

  /// An error about `part` of the configuration, from `file`, because of `reason`.
  public init(_ part: Part, file: String?, reason: String) {
    self.part = part
    self.file = file
    self.reason = reason
  }

  /// For example `TLS private key does not match the certificate (key.pem): key values
  /// mismatch`.
  public var description: String {
    let source = file.map { " (\($0))" } ?? ""
    return "TLS \(part.rawValue)\(source): \(reason)"
  }
}
