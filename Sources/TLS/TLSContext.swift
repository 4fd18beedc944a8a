import COpenSSL
import Glibc

/// A configured OpenSSL `SSL_CTX`: the certificates, keys, trusted authorities and protocol
/// limits every session made from it shares.
///
/// A context is immutable once built, which is what makes it safe to share: OpenSSL allows
/// `SSL_new` on one `SSL_CTX` from many threads, and each session holds a reference of its own
/// (`SSL_CTX` is reference-counted), so a reload builds a new context and swaps it in
/// (``ReloadableTLSContext``) while open sessions go on with the one they started with.
///
/// Every context accepts TLS 1.2 and 1.3 only, with OpenSSL's default cipher suites and
/// groups, refuses renegotiation, and releases its record buffers while a session is idle.
public final class TLSContext: @unchecked Sendable {
  /// Which end of a connection sessions from this context are.
  public enum Role: Sendable { case server, client }

  /// Which end sessions from this context are.
  public let role: Role
  /// Whether client sessions check the server's certificate and name.
  let verifiesPeer: Bool
  /// The `SSL_CTX`, owned: freed (one reference dropped) when the context is.
  let pointer: OpaquePointer

  /// A server context serving the chain and key `configuration` names.
  public convenience init(server configuration: TLSServerConfiguration)
    throws(TLSConfigurationError)
  {
    try self.init(role: .server, verifiesPeer: configuration.clientCertificates != .none)
    try useCertificate(
      chain: configuration.certificateChainFile, key: configuration.privateKeyFile)
    switch configuration.clientCertificates {
    case .none:
      return
    case .request(let caFile):
      try trustClientAuthorities(in: caFile, require: false)
    case .require(let caFile):
      try trustClientAuthorities(in: caFile, require: true)
    }
  }

  /// A client context that checks servers as `configuration` says.
  public convenience init(client configuration: TLSClientConfiguration)
    throws(TLSConfigurationError)
  {
    let verifies = configuration.serverVerification != .insecure
    try self.init(role: .client, verifiesPeer: verifies)
    if case .verify(let caFile) = configuration.serverVerification {
      SSL_CTX_set_verify(pointer, SSL_VERIFY_PEER, nil)
      if let caFile {
        try check(readable: caFile, .serverAuthorities)
        guard SSL_CTX_load_verify_locations(pointer, caFile, nil) == 1 else {
          throw failure(.serverAuthorities, caFile)
        }
      } else if SSL_CTX_set_default_verify_paths(pointer) != 1 {
        throw failure(.serverAuthorities, nil)
      }
    } else {
      SSL_CTX_set_verify(pointer, SSL_VERIFY_NONE, nil)
    }
    switch (configuration.certificateChainFile, configuration.privateKeyFile) {
    case (let chain?, let key?):
      try useCertificate(chain: chain, key: key)
    case (nil, nil):
      break
    case (let chain, let key):
      // One without the other is a mistake in the options, not a choice to send none.
      throw TLSConfigurationError(
        chain == nil ? .certificateChain : .privateKey, file: chain ?? key,
        reason: "a client certificate needs both its chain and its key")
    }
  }

  private init(role: Role, verifiesPeer: Bool) throws(TLSConfigurationError) {
    OpenSSLErrorQueue.clear()
    guard let made = SSL_CTX_new(role == .server ? TLS_server_method() : TLS_client_method())
    else {
      throw TLSConfigurationError(
        .context, file: nil, reason: OpenSSLErrorQueue.take()?.text ?? "SSL_CTX_new failed")
    }
    self.role = role
    self.verifiesPeer = verifiesPeer
    pointer = made
    _ = observable_ssl_ctx_set_min_proto_version(made, TLS1_2_VERSION)
    _ = SSL_CTX_set_options(made, observable_ssl_op_no_renegotiation)
    if role == .server {
      // OpenSSL's default order puts AES-256-GCM first; AES-128-GCM is as safe for this use
      // (128-bit security, TLS 1.3's mandatory suite) and encrypts each byte about a third
      // faster with AES-NI, which is most of a TLS fan-out's cost. Go's crypto/tls, and so
      // NATS, orders them the same way.
      _ = SSL_CTX_set_ciphersuites(made, Self.serverCipherSuites)
      _ = SSL_CTX_set_options(made, observable_ssl_op_cipher_server_preference)
    }
    // An idle session then holds no 16 KiB record buffers: what 10,000 idle connections cost.
    _ = observable_ssl_ctx_set_mode(made, Int(SSL_MODE_RELEASE_BUFFERS))
  }

  deinit { SSL_CTX_free(pointer) }

  /// The TLS 1.3 suites a server offers, in the order it prefers them.
  static let serverCipherSuites =
    "TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384"

  private func useCertificate(chain: String, key: String) throws(TLSConfigurationError) {
    try check(readable: chain, .certificateChain)
    try check(readable: key, .privateKey)
    guard SSL_CTX_use_certificate_chain_file(pointer, chain) == 1 else {
      throw failure(.certificateChain, chain)
    }
    guard SSL_CTX_use_PrivateKey_file(pointer, key, SSL_FILETYPE_PEM) == 1 else {
      // OpenSSL checks the key against the certificate as it loads it.
      let error = OpenSSLErrorQueue.take()
      let mismatched = [X509_R_KEY_VALUES_MISMATCH, X509_R_KEY_TYPE_MISMATCH]
        .contains(error?.reason ?? 0)
      throw TLSConfigurationError(
        mismatched ? .keyMismatch : .privateKey, file: key,
        reason: error?.text ?? "rejected by OpenSSL")
    }
    guard SSL_CTX_check_private_key(pointer) == 1 else {
      throw failure(.keyMismatch, key)
    }
  }

  private func trustClientAuthorities(in caFile: String, require: Bool)
    throws(TLSConfigurationError)
  {
    try check(readable: caFile, .clientAuthorities)
    guard SSL_CTX_load_verify_locations(pointer, caFile, nil) == 1,
      let names = SSL_load_client_CA_file(caFile)
    else { throw failure(.clientAuthorities, caFile) }
    // The CertificateRequest names these authorities, so a client picks a certificate they
    // signed.
    SSL_CTX_set_client_CA_list(pointer, names)
    let mode = SSL_VERIFY_PEER | (require ? SSL_VERIFY_FAIL_IF_NO_PEER_CERT : 0)
    SSL_CTX_set_verify(pointer, mode, nil)
    // Without a session ID context, OpenSSL refuses to resume a session it verified a client
    // certificate in, and fails the handshake instead of starting a full one.
    let scope: [UInt8] = Array("observable-server".utf8)
    _ = SSL_CTX_set_session_id_context(pointer, scope, UInt32(scope.count))
  }

  private func check(readable file: String, _ part: TLSConfigurationError.Part)
    throws(TLSConfigurationError)
  {
    guard access(file, R_OK) == 0 else {
      throw TLSConfigurationError(part, file: file, reason: String(cString: strerror(errno)))
    }
  }

  private func failure(_ part: TLSConfigurationError.Part, _ file: String?)
    -> TLSConfigurationError
  {
    TLSConfigurationError(
      part, file: file, reason: OpenSSLErrorQueue.take()?.text ?? "rejected by OpenSSL")
  }
}
