import Foundation
import TestSupport
import Testing

/// A client certificate that the server's authority signed names a user of the auth file by
/// its CN: that client needs no `auth`, and gets that user's rules.
@Suite("A client certificate names the user", .timeLimit(.minutes(1)))
struct TLSClientUserTests {
  @Test func theCertificatesCommonNameIsTheUser() throws {
    try RequiredTool.require(TestCertificates.isAvailable, "openssl")
    let certificates = try TestCertificates()
    // alice (the test client certificate's CN) may read rooms and nothing else.
    try certificates.write(
      "users.json",
      #"{"users": {"alice": {"token": "sha256:\#(String(repeating: "0", count: 64))", "#
        + #""subscribe": ["room.*"]}}}"#)
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "tls://127.0.0.1:\(port)", "--tls-cert", certificates.path("server.pem"),
      "--tls-key", certificates.path("server.key"), "--tls-client-ca",
      certificates.path("ca.pem"), "--auth-file", certificates.path("users.json"),
    ])
    #expect(server.waitForLog("listening"), "\(server.output)")

    let alice = try TLSLineClient(
      port: port, context: try TLSLineClient.context(certificates, certificate: "client"))
    _ = try alice.readLine()
    try alice.send("subscribe room.lobby")
    #expect(try alice.readLine().contains(#""ok":true"#))
    try alice.send("publish room.lobby 1")
    #expect(try alice.readLine().contains(#""code":"forbidden""#))

    // Without a certificate the client must still authenticate.
    let anonymous = try TLSLineClient(port: port, context: try TLSLineClient.context(certificates))
    _ = try anonymous.readLine()
    try anonymous.send("subscribe room.lobby")
    #expect(try anonymous.readLine().contains(#""code":"unauthorized""#))
  }
}
