import Logging
import ObservablePOSIX
import TLS

/// The server's TLS listeners: their addresses, and the certificate they serve, read again on
/// demand (SIGHUP).
extension ObservableServer {
  /// The line protocol's TLS addresses served (`--listen tls://…`), with port 0 resolved;
  /// empty unless the server runs.
  public var tlsAddresses: [ListenAddress] { running.withLock { $0?.tlsAddresses } ?? [] }

  /// The HTTPS addresses served (`--http https://…`), with port 0 resolved; empty unless the
  /// server runs.
  public var httpsAddresses: [ListenAddress] { running.withLock { $0?.httpsAddresses } ?? [] }

  /// Reads the certificate chain and key again, and the client authorities: connections
  /// accepted from now on get the new certificate, connections already open keep theirs.
  /// When reading fails (a missing file, a key that does not match), the server goes on with
  /// the certificate it had, and logs one error line that says why. Returns whether the new
  /// certificate is served.
  @discardableResult
  public func reloadCertificates() -> Bool {
    guard let certificates = running.withLock({ $0?.tls }) else {
      logger.notice("no TLS certificate to reload")
      return false
    }
    do {
      try certificates.reload()
    } catch {
      logger.error(
        "TLS certificate not reloaded; still serving the previous one",
        metadata: ["error": "\(error)"])
      return false
    }
    logger.notice(
      "TLS certificate reloaded",
      metadata: ["certificate": "\(certificates.configuration.certificateChainFile)"])
    return true
  }

  /// The context TLS listeners start from, built from the configuration: `nil` when no socket
  /// serves TLS and no certificate is configured.
  func certificates(for sockets: ListeningSockets) throws -> ReloadableTLSContext? {
    guard let tls = configuration.tls else {
      guard !sockets.entries.contains(where: \.servesTLS) else {
        throw TLSConfigurationError(
          .certificateChain, file: nil,
          reason: "a TLS listener needs a certificate and key (--tls-cert, --tls-key)")
      }
      return nil
    }
    return try ReloadableTLSContext(tls)
  }
}
