import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// Reloading the certificate without a restart: new connections get the new one, open ones
/// keep theirs, and a reload that fails keeps the old one and says why in one line.
@Suite("TLS certificate reload", .timeLimit(.minutes(2)))
struct TLSReloadTests {
  @Test func newConnectionsGetTheReloadedCertificateOpenOnesKeepTheirs() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    let before = try server.connectTLS(certificates)
    _ = try before.readLine()
    #expect(before.serverCertificate?.serialNumber == "1001")
    try certificates.replace("server.pem", with: "renewed.pem")
    try certificates.replace("server.key", with: "renewed.key")
    #expect(server.server.reloadCertificates())
    let after = try server.connectTLS(certificates)
    _ = try after.readLine()
    #expect(after.serverCertificate?.serialNumber == "2002")
    // The connection opened before goes on, with its certificate.
    try before.send("ping")
    #expect(try before.readLine().contains(#""op":"ping""#))
    #expect(before.serverCertificate?.serialNumber == "1001")
  }

  @Test func sighupReloadsAndAFailedReloadKeepsTheOldCertificate() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "tls://127.0.0.1:\(port)", "--tls-cert", certificates.path("server.pem"),
      "--tls-key", certificates.path("server.key"), "--log-level", "info",
    ])
    #expect(server.waitForLog("listening"), "\(server.output)")
    let context = try TLSLineClient.context(certificates)
    #expect(
      try TLSLineClient(port: port, context: context).serverCertificate?.serialNumber == "1001")

    // A key that does not match the new certificate: the reload fails, the old one stays.
    try certificates.replace("server.pem", with: "renewed.pem")
    server.signal(SIGHUP)
    #expect(server.waitForLog("TLS certificate not reloaded"), "\(server.output)")
    #expect(server.output.contains("does not match"), "\(server.output)")
    #expect(
      try TLSLineClient(port: port, context: context).serverCertificate?.serialNumber == "1001")

    try certificates.replace("server.key", with: "renewed.key")
    server.signal(SIGHUP)
    #expect(server.waitForLog("TLS certificate reloaded"), "\(server.output)")
    #expect(
      try TLSLineClient(port: port, context: context).serverCertificate?.serialNumber == "2002")
    let errors = server.output.split(separator: "\n").filter { $0.contains("level=error") }
    #expect(errors.count == 1, "\(errors)")
    server.signal(SIGTERM)
    #expect(server.waitForExit() == 0)
  }

  @Test func tlsListenerWithoutCertificateIsRefusedAtStart() throws {
    let server = try ServerProcess(arguments: ["--listen", "tls://127.0.0.1:0"])
    #expect(server.waitForExit() != 0)
    #expect(server.output.contains("--tls-cert"), "\(server.output)")
  }
}
