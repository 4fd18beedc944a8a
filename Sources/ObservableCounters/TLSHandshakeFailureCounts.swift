/// How many TLS handshakes failed, by why, for `stats` and `/metrics`.
///
/// The kinds are coarser than the TLS module's failures: an operator asks whether clients
/// speak plain text to the port, offer old versions, bring certificates the server refuses,
/// refuse the server's certificate (their alert), vanish, or stall, not which alert number.
package struct TLSHandshakeFailureCounts: Sendable, Equatable {
  /// Why a handshake failed.
  package enum Kind: String, CaseIterable, Sendable {
    /// The client did not speak TLS at all (plain text, HTTP, garbage).
    case notTLS = "not_tls"
    /// The client offered only TLS 1.0 or 1.1, or SSL.
    case protocolVersion = "protocol_version"
    /// The server refused the client's certificate, or the client sent none when required.
    case clientCertificate = "client_certificate"
    /// The client ended the handshake with an alert, usually refusing the server's
    /// certificate (expired, unknown authority, wrong name).
    case peerAlert = "peer_alert"
    /// The client closed the connection in the middle of the handshake.
    case truncated
    /// The handshake did not finish within `--tls-handshake-timeout`.
    case timeout
    /// Any other violation of the protocol (a truncated or malformed message).
    case protocolError = "protocol_error"
  }

  private var counts = [Int](repeating: 0, count: Kind.allCases.count)

  /// No failures yet.
  package init() {}

  /// The failures of `kind`.
  package subscript(kind: Kind) -> Int {
    get { counts[Self.index(of: kind)] }
    set { counts[Self.index(of: kind)] = newValue }
  }

  /// The failures of every kind together.
  package var total: Int { counts.reduce(0, +) }

  private static func index(of kind: Kind) -> Int {
    Kind.allCases.firstIndex(of: kind) ?? 0
  }
}
