import Foundation
import TLS
import TestSupport
import XCTest

/// The client side of the transform against `openssl s_server` and Python's `ssl` module.
final class TLSClientSessionTests: CertificateTestCase {

  private func context(
    _ verification: TLSClientConfiguration.ServerVerification? = nil, certificate: String? = nil
  ) throws -> TLSContext {
    try TLSContext(
      client: TLSClientConfiguration(
        serverVerification: verification ?? .verify(caFile: certificates.path("ca.pem")),
        certificateChainFile: certificate.map { certificates.path("\($0).pem") },
        privateKeyFile: certificate.map { certificates.path("\($0).key") }))
  }

  /// `s_server` serving `certificate` (signed by the test authority unless named otherwise).
  private func server(_ certificate: String = "server", _ extra: [String] = []) throws
    -> (ChildProcess, UInt16)
  {
    let key = certificate == "expired" ? "server" : certificate
    return try openSSLServer(
      ["-cert", certificates.path("\(certificate).pem"), "-key", certificates.path("\(key).key")]
        + extra)
  }

  private func reversesALine(_ pump: TLSPump) {
    pump.send("hello from the client\n")
    XCTAssertTrue(
      pump.run { $0.text.contains("tneilc eht morf olleh\n") }, "\(pump.failure as Any)")
    XCTAssertEqual(pump.handshakes, 1)
  }

  func testVerifiesTheServerAndExchangesData() throws {
    let (server, port) = try server()
    let pump = try connect(try context(), port: port)
    reversesALine(pump)
    XCTAssertEqual(pump.session.negotiatedProtocol, "TLSv1.3")
    XCTAssertEqual(pump.session.peerCertificate?.serialNumber, "1001")
    XCTAssertEqual(pump.session.peerCertificate?.subject, "CN=localhost")
    XCTAssertEqual(pump.session.peerCertificate?.alternativeNames, ["localhost", "127.0.0.1"])
    pump.close()
    pump.run { $0.socketEnded }
    server.exitStatus()
  }

  func testVerifiesAnIPAddressAgainstTheCertificate() throws {
    let (server, port) = try server("server", ["-tls1_2"])
    let pump = try connect(try context(), port: port, serverName: "127.0.0.1")
    reversesALine(pump)
    XCTAssertEqual(pump.session.negotiatedProtocol, "TLSv1.2")
    withExtendedLifetime(server) {}
  }

  private func rejection(_ certificate: String, _ context: TLSContext) throws -> TLSFailure? {
    let (server, port) = try server(certificate)
    let pump = try connect(context, port: port)
    pump.run { $0.failure != nil }
    XCTAssertEqual(pump.handshakes, 0)
    XCTAssertTrue(server.wait { $0.stderr.contains("alert") || $0.stdout.contains("ERROR") })
    return pump.failure
  }

  func testRefusesACertificateForAnotherHost() throws {
    let failure = try rejection("elsewhere", try context())
    XCTAssertEqual(failure?.kind, .certificateRejected(verifyResult: 62), "\(failure as Any)")
    XCTAssertTrue(failure?.message.contains("hostname mismatch") ?? false)
  }

  func testRefusesAnExpiredCertificate() throws {
    let failure = try rejection("expired", try context())
    XCTAssertEqual(failure?.kind, .certificateRejected(verifyResult: 10), "\(failure as Any)")
    XCTAssertTrue(failure?.message.contains("certificate has expired") ?? false)
  }

  func testRefusesAnAuthorityItDoesNotTrust() throws {
    // The system's authorities, which never signed the test's.
    let failure = try rejection("server", try context(.verify(caFile: nil)))
    XCTAssertEqual(failure?.kind, .certificateRejected(verifyResult: 20), "\(failure as Any)")
  }

  func testInsecureModeAcceptsAnyCertificate() throws {
    for certificate in ["elsewhere", "expired"] {
      let (server, port) = try server(certificate)
      let pump = try connect(try context(.insecure), port: port)
      reversesALine(pump)
      withExtendedLifetime(server) {}
    }
  }

  func testPresentsAClientCertificate() throws {
    let (server, port) = try server(
      "server", ["-Verify", "1", "-verify_return_error", "-CAfile", certificates.path("ca.pem")])
    let pump = try connect(try context(certificate: "client"), port: port)
    reversesALine(pump)
    XCTAssertTrue(
      server.wait { $0.stderr.contains("CN = alice") || $0.stdout.contains("CN = alice") })
  }

  func testRefusesARenegotiationTheServerAsksFor() throws {
    let (server, port) = try openSSLServer(
      [
        "-cert", certificates.path("server.pem"), "-key", certificates.path("server.key"),
        "-tls1_2",
      ], reversing: false)
    let pump = try connect(try context(), port: port)
    pump.send("hello\n")
    XCTAssertTrue(pump.run { _ in server.stdout.contains("hello") }, server.stdout)
    // s_server's `r` command sends a HelloRequest.
    server.write("r\n")
    pump.run { $0.failure != nil }
    XCTAssertEqual(pump.failure?.kind, .alertReceived(40), "\(pump.failure as Any)")
    XCTAssertTrue(server.wait { $0.stderr.contains("no renegotiation") }, server.stderr)
    XCTAssertEqual(pump.handshakes, 1)
  }

  func testExchangesDataWithPythonSSL() throws {
    try require("python3")
    let script = """
      import socket, ssl, sys
      context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
      context.load_cert_chain(sys.argv[1], sys.argv[2])
      context.sni_callback = lambda tls, name, _: print("sni", name, flush=True)
      with socket.create_server(("127.0.0.1", 0)) as listener:
          print(listener.getsockname()[1], flush=True)
          listener.settimeout(10)
          raw, _ = listener.accept()
          raw.settimeout(10)
          with context.wrap_socket(raw, server_side=True) as tls:
              data = b""
              while not data.endswith(b"\\n"):
                  data += tls.recv(65536)
              tls.sendall(data.upper() * 1000)
              print(tls.version(), data.decode(), end="", flush=True)
      """
    let server = try python(
      script, [certificates.path("server.pem"), certificates.path("server.key")])
    var port: UInt16?
    server.wait { child in
      port = child.stdout.split(separator: "\n").first.flatMap { UInt16($0) }
      return port != nil
    }
    let pump = try connect(try context(), port: XCTUnwrap(port, server.stderr))
    pump.send("hello python\n")
    XCTAssertTrue(pump.run { $0.received.count == 13000 }, "\(pump.failure as Any)")
    XCTAssertEqual(pump.text, String(repeating: "HELLO PYTHON\n", count: 1000))
    XCTAssertEqual(server.exitStatus(), 0, server.stderr)
    XCTAssertTrue(server.stdout.hasSuffix("\nsni localhost\nTLSv1.3 hello python\n"), server.stdout)
  }
}
