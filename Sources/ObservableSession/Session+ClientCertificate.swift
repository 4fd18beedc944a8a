import ObservableAuthorization
import TLS

/// A TLS client certificate that the server's authorities signed (`--tls-client-ca`) can name
/// a user of the auth file by its subject's common name: such a client needs no `auth`, and
/// its first request is answered under that user's rules.
extension Session {
  /// Authenticates the connection as the file user its certificate names; returns whether it
  /// did. Asked only while the connection is not authenticated.
  func authenticateByCertificate() -> Bool {
    guard let certificate = clientCertificate,
      let name = Self.commonName(inSubject: certificate.subject),
      let identity = context.access.authenticate(certificateUser: name)
    else { return false }
    access.authenticated(as: identity, policy: context.access)
    authenticated = true
    output.authenticated()
    context.logger.debug(
      "authenticated by certificate", metadata: ["peer": "\(output.peer)", "user": "\(name)"])
    return true
  }

  /// The `CN` of an RFC 2253 subject such as `CN=alice,O=Example`. A value with an escaped
  /// comma is not a user name (those are letters, digits, `_` and `-`), so a plain split will do.
  static func commonName(inSubject subject: String) -> String? {
    for component in subject.split(separator: ",") where component.hasPrefix("CN=") {
      let name = String(component.dropFirst(3))
      return PlaceholderName.isValid(name) ? name : nil
    }
    return nil
  }
}
