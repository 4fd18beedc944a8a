/// Why a TLS session failed, as a value: what the server logs and counts as a failed
/// handshake, and what a client reports to its user.
///
/// A failure is final: the session answers every later call with the same failure. The alert
/// OpenSSL wrote for the peer, if any, is still waiting in ``TLSSession/takeCiphertext(appendingTo:)``
/// and is worth sending before the socket closes, so the peer learns why too.
public struct TLSFailure: Error, Equatable, CustomStringConvertible {
  /// The kind of failure, for counting and for tests; ``message`` has the detail.
  public enum Kind: Equatable, Sendable {
    /// The bytes are not TLS: plain text, an HTTP request, a NATS `INFO` line, garbage.
    case notTLS
    /// The peer offers only protocol versions this side refuses (TLS 1.0 or 1.1 against the
    /// TLS 1.2 minimum), or refused all of this side's.
    case protocolVersion
    /// The peer ended the session with this fatal alert (RFC 8446, section 6): 48
    /// `unknown_ca`, 45 `certificate_expired`, 70 `protocol_version`, 116
    /// `certificate_required`, ...
    case alertReceived(UInt8)
    /// This side refused the peer's certificate; the code is OpenSSL's `X509_V_ERR_*`, such as
    /// 10 (expired), 20 (unknown issuer), 18 (self-signed) or 62 (host name mismatch).
    case certificateRejected(verifyResult: Int)
    /// The server requires a client certificate and the client sent none.
    case peerCertificateMissing
    /// The socket ended without a close_notify: mid-handshake, or a truncated stream.
    case truncated
    /// Any other violation of the protocol, with OpenSSL's reason code.
    case protocolError(reason: Int32)
  }

  /// What failed.
  public let kind: Kind
  /// What happened in words, from OpenSSL's reason or verification result, such as
  /// "certificate has expired" or "peer sent alert: unknown CA".
  public let message: String

  /// A failure of `kind`, described by `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// For example `TLS failed: the peer's certificate: certificate has expired`.
  public var description: String { "TLS failed: \(message)" }
}
