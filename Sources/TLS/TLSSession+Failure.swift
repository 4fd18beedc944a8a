import COpenSSL

extension TLSSession {
  /// What went wrong, from `SSL_get_error`'s `code` and OpenSSL's error queue.
  func failure(after code: Int32) -> TLSFailure {
    let error = OpenSSLErrorQueue.take()
    let reason = error?.reason ?? 0
    let text = error?.text ?? "connection ended"
    if code == SSL_ERROR_SYSCALL || reason == SSL_R_UNEXPECTED_EOF_WHILE_READING {
      let when = isHandshakeComplete ? "in the middle of a record" : "during the handshake"
      return TLSFailure(.truncated, "the peer closed the connection \(when)")
    }
    // A fatal alert from the peer arrives as reason 1000 + the alert's number.
    if (Int32(SSL_AD_REASON_OFFSET)..<Int32(SSL_AD_REASON_OFFSET) + 256).contains(reason) {
      let alert = Int32(reason - Int32(SSL_AD_REASON_OFFSET))
      let name = String(cString: SSL_alert_desc_string_long(alert))
      return TLSFailure(.alertReceived(UInt8(alert)), "the peer sent alert \(alert): \(name)")
    }
    switch reason {
    case SSL_R_CERTIFICATE_VERIFY_FAILED:
      let result = SSL_get_verify_result(ssl)
      let why = String(cString: X509_verify_cert_error_string(result))
      return TLSFailure(
        .certificateRejected(verifyResult: result), "the peer's certificate: \(why)")
    case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE:
      return TLSFailure(.peerCertificateMissing, "the client sent no certificate")
    case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_NO_PROTOCOLS_AVAILABLE, SSL_R_VERSION_TOO_LOW:
      return TLSFailure(.protocolVersion, "the peer offers only TLS versions below 1.2 (\(text))")
    case SSL_R_HTTP_REQUEST, SSL_R_HTTPS_PROXY_REQUEST, SSL_R_WRONG_VERSION_NUMBER,
      SSL_R_UNKNOWN_PROTOCOL, SSL_R_PACKET_LENGTH_TOO_LONG:
      return TLSFailure(.notTLS, "the peer does not speak TLS (\(text))")
    default:
      return TLSFailure(.protocolError(reason: reason), text)
    }
  }
}
