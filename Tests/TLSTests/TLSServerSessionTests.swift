import Foundation
import TLS
import TestSupport
import XCTest

/// The server side of the transform against `openssl s_client` and Python's `ssl` module.
final class TLSServerSessionTests: CertificateTestCase {

  private func context(_ certificate: String = "server") throws -> TLSContext {
    try TLSContext(
      server: TLSServerConfiguration(
        certificateChainFile: certificates.path("\(certificate).pem"),
        privateKeyFile: certificates.path(
          "\(certificate == "expired" ? "server" : certificate).key")))
  }

  private func echo(version flag: String, expecting version: String) throws {
    let (pump, client) = try serve(try context()) {
      try openSSLClient($0, certificates, ["-quiet", flag])
    }
    pump.echoes = true
    pump.send("greeting from the server\n")
    client.write("hello from s_client\n")
    XCTAssertTrue(pump.run { $0.text == "hello from s_client\n" }, "\(pump.failure as Any)")
    XCTAssertEqual(pump.handshakes, 1)
    XCTAssertEqual(pump.session.negotiatedProtocol, version)
    XCTAssertNotNil(pump.session.cipher)
    XCTAssertTrue(
      client.wait { $0.stdout == "greeting from the server\nhello from s_client\n" }, client.stdout)
    XCTAssertEqual(finish(pump, client), 0, client.stderr)
  }

  func testEchoesBothWaysOverTLS13() throws {
    try echo(version: "-tls1_3", expecting: "TLSv1.3")
  }

  func testEchoesBothWaysOverTLS12() throws {
    try echo(version: "-tls1_2", expecting: "TLSv1.2")
  }

  /// s_client lists AES-256-GCM first, as OpenSSL does by default; the server's order wins.
  func testTheServerPrefersAES128GCMOverTLS13() throws {
    let (pump, client) = try serve(try context()) {
      try openSSLClient($0, certificates, ["-quiet", "-tls1_3"])
    }
    pump.echoes = true
    client.write("which suite\n")
    XCTAssertTrue(pump.run { $0.text == "which suite\n" }, "\(pump.failure as Any)")
    XCTAssertEqual(pump.session.cipher, "TLS_AES_128_GCM_SHA256")
    XCTAssertTrue(client.wait { $0.stdout == "which suite\n" }, client.stdout)
    XCTAssertEqual(finish(pump, client), 0, client.stderr)
  }

  func testRefusesTLS10And11() throws {
    for flag in ["-tls1", "-tls1_1"] {
      let (pump, client) = try serve(try context()) {
        // Security level 0, or s_client itself would refuse the old protocol.
        try openSSLClient($0, certificates, ["-quiet", flag, "-cipher", "DEFAULT@SECLEVEL=0"])
      }
      pump.run { $0.failure != nil }
      XCTAssertEqual(pump.failure?.kind, .protocolVersion, "\(flag): \(pump.failure as Any)")
      XCTAssertEqual(pump.handshakes, 0)
      client.closeInput()
      XCTAssertNotEqual(client.exitStatus(), 0)
      XCTAssertTrue(client.stderr.contains("protocol version"), client.stderr)
    }
  }

  /// Writes `bytes` from a raw client socket, optionally closes, and returns the failure.
  private func failureAfterRawClient(sending bytes: [UInt8], thenClose: Bool) throws
    -> TLSFailure?
  {
    let (listener, port) = try LoopbackSocket.listen()
    defer { close(listener) }
    let raw = try LoopbackSocket.connect(port: port)
    defer { close(raw) }
    let pump = TLSPump(
      descriptor: try LoopbackSocket.accept(listener), session: try TLSSession(context: context()))
    _ = bytes.withUnsafeBytes { send(raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    if thenClose { shutdown(raw, Int32(SHUT_WR)) }
    pump.run { $0.failure != nil }
    XCTAssertEqual(pump.handshakes, 0)
    return pump.failure
  }

  func testPlainTextIsNotTLS() throws {
    for text in ["GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", "{\"op\":\"ping\"}\n"] {
      let failure = try failureAfterRawClient(sending: Array(text.utf8), thenClose: false)
      XCTAssertEqual(failure?.kind, .notTLS, "\(text): \(failure as Any)")
    }
  }

  func testGarbageHandshakeFails() throws {
    // A handshake record whose body is not a ClientHello.
    let garbage: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x08] + Array(repeating: 0xEE, count: 8)
    let failure = try failureAfterRawClient(sending: garbage, thenClose: false)
    XCTAssertNotNil(failure)
    XCTAssertNotEqual(failure?.kind, .truncated)
  }

  func testTruncatedHandshakeFails() throws {
    let client = try TLSSession(
      context: TLSContext(client: TLSClientConfiguration(serverVerification: .insecure)))
    try client.startHandshake()
    var hello: [UInt8] = []
    client.takeCiphertext(appendingTo: &hello)
    XCTAssertGreaterThan(hello.count, 100)
    let failure = try failureAfterRawClient(
      sending: Array(hello.prefix(hello.count / 2)), thenClose: true)
    XCTAssertEqual(failure?.kind, .truncated, "\(failure as Any)")
  }

  func testClientRefusesAnExpiredCertificate() throws {
    let (pump, client) = try serve(try context("expired")) { try openSSLClient($0, certificates) }
    pump.run { $0.failure != nil }
    XCTAssertEqual(pump.failure?.kind, .alertReceived(45), "\(pump.failure as Any)")
    XCTAssertTrue(pump.failure?.message.contains("certificate expired") ?? false)
    client.closeInput()
    XCTAssertNotEqual(client.exitStatus(), 0)
    XCTAssertTrue(client.stderr.contains("certificate has expired"), client.stderr)
  }

  /// OpenSSL 3 refuses a client's renegotiation by default as well (it needs
  /// `SSL_OP_ALLOW_CLIENT_RENEGOTIATION`), so this passes without `SSL_OP_NO_RENEGOTIATION`;
  /// the client's test, where the server asks, is the one that needs the option.
  func testRenegotiationIsRefused() throws {
    let (pump, client) = try serve(try context()) {
      // Not quiet: s_client reads the `R` command from stdin only then.
      try openSSLClient($0, certificates, ["-tls1_2"])
    }
    XCTAssertTrue(pump.run { $0.handshakes == 1 })
    client.write("R\n")
    pump.run { $0.failure != nil || $0.socketEnded }
    XCTAssertTrue(client.wait { $0.stderr.contains("no renegotiation") }, client.stderr)
    XCTAssertEqual(pump.handshakes, 1)
    client.closeInput()
    client.exitStatus()
  }

  func testEchoesWithPythonSSL() throws {
    try require("python3")
    let script = """
      import socket, ssl, sys
      context = ssl.create_default_context(cafile=sys.argv[2])
      with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10) as raw:
          with context.wrap_socket(raw, server_hostname="localhost") as tls:
              tls.sendall(b"hello from python\\n" * 2000)
              data = b""
              while len(data) < 36000:
                  chunk = tls.recv(65536)
                  if not chunk: break
                  data += chunk
              print(tls.version(), len(data), data == b"hello from python\\n" * 2000)
      """
    let (pump, client) = try serve(try context()) {
      try python(script, ["\($0)", certificates.path("ca.pem")])
    }
    pump.echoes = true
    XCTAssertTrue(pump.run { $0.received.count == 36000 }, "\(pump.failure as Any)")
    XCTAssertEqual(client.exitStatus(), 0, client.stderr)
    XCTAssertEqual(client.stdout, "TLSv1.3 36000 True\n")
  }
}
