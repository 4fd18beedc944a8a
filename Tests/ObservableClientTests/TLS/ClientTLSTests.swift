import Foundation
import Logging
import TestSupport
import Testing

@testable import ObservableClient

/// `ObservableClient` over TLS against Python's `ssl` module: the handshake, each way the
/// server's certificate is refused, `insecure`, and client certificates.
@Suite("The client over TLS", .timeLimit(.minutes(2)))
struct ClientTLSTests {
  let certificates: TestCertificates

  init() throws { certificates = try TLSLineServer.certificates() }

  private func configuration(_ tls: ClientTLSConfiguration) -> ClientConfiguration {
    .quiet { $0.tls = tls }
  }

  @Test("tls:// with the test CA: the handshake checks the server, and requests get replies")
  func connectsAndVerifies() async throws {
    let server = try await TLSLineServer(certificates)
    let client = try ObservableClient(
      "tls://localhost:\(server.port)",
      configuration: configuration(.init(caFile: certificates.path("ca.pem"))))
    try await client.connect()
    _ = try await client.ping()
    client.close()
    #expect(try await server.output().contains(#"request: {"op":"ping"}"#))
  }

  @Test(
    "a certificate the client cannot trust fails the connection, saying why",
    arguments: [
      ("elsewhere", "ca", "hostname mismatch"),
      ("expired", "ca", "certificate has expired"),
      ("server", "stranger", "unable to get local issuer certificate"),
    ])
  func refusesUntrustedCertificates(certificate: String, authority: String, reason: String)
    async throws
  {
    let server = try await TLSLineServer(
      certificates, certificate: certificate, key: certificate == "expired" ? "server" : certificate
    )
    let client = try ObservableClient(
      "tls://localhost:\(server.port)",
      configuration: configuration(.init(caFile: certificates.path("\(authority).pem"))))
    let error = await #expect(throws: ClientError.self) { try await client.connect() }
    guard case .connectionFailed(_, let message) = error else {
      Issue.record("expected connectionFailed, got \(String(describing: error))")
      return
    }
    #expect(message.contains(reason), "\(message)")
    #expect(message.contains("TLS failed"), "\(message)")
    #expect(try await server.output().contains("handshake failed"))
  }

  @Test("insecure accepts a certificate for another host, and still speaks TLS")
  func insecureSkipsTheChecks() async throws {
    let server = try await TLSLineServer(certificates, certificate: "elsewhere", key: "elsewhere")
    let client = try ObservableClient(
      "tls://127.0.0.1:\(server.port)", configuration: configuration(.insecure))
    try await client.connect()
    _ = try await client.ping()
    client.close()
    #expect(try await server.output().contains(#"request: {"op":"ping"}"#))
  }

  @Test("a client certificate is presented when configured, and refused when missing")
  func clientCertificates() async throws {
    let server = try await TLSLineServer(certificates, clientCA: "ca", connections: 2)
    let presenting = try ObservableClient(
      "tls://localhost:\(server.port)",
      configuration: configuration(
        .init(
          caFile: certificates.path("ca.pem"), certificateFile: certificates.path("client.pem"),
          privateKeyFile: certificates.path("client.key"))))
    try await presenting.connect()
    _ = try await presenting.ping()
    presenting.close()
    let without = try ObservableClient(
      "tls://localhost:\(server.port)",
      configuration: configuration(.init(caFile: certificates.path("ca.pem"))))
    let error = await #expect(throws: ClientError.self) { try await without.connect() }
    #expect("\(String(describing: error))".contains("TLS failed"))
    let output = try await server.output()
    #expect(output.contains("client: alice"), "\(output)")
    #expect(output.contains("handshake failed"), "\(output)")
  }

  @Test("tls:// to a plain server fails, saying the server does not speak TLS")
  func plainServerIsNotTLS() async throws {
    let server = try ScriptedServer(
      greeting: #"{"hello":"observable-server","version":"1.1.0","protocol":1}"#, requests: 0,
      then: [])
    let client = try ObservableClient(
      "tls://127.0.0.1:\(server.port)",
      configuration: configuration(.init(caFile: certificates.path("ca.pem"))))
    let error = await #expect(throws: ClientError.self) { try await client.connect() }
    #expect("\(String(describing: error))".contains("does not speak TLS"))
  }

  @Test("requests from many tasks while replies are read: every reply arrives, in one session")
  func concurrentRequestsShareTheSession() async throws {
    let server = try await TLSLineServer(certificates)
    let client = try ObservableClient(
      "tls://localhost:\(server.port)",
      configuration: configuration(.init(caFile: certificates.path("ca.pem"))))
    try await client.connect()
    // Callers encrypt while the connection thread decrypts replies, through one session. A
    // lost or broken record ends the session and fails the pings. (OpenSSL is not
    // instrumented, so ThreadSanitizer cannot see a missing session lock; the lock is there
    // because OpenSSL forbids using one SSL from two threads at once.)
    let replies = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<50 { _ = try await client.ping() }
          return 50
        }
      }
      return try await group.reduce(0, +)
    }
    client.close()
    #expect(replies == 400)
    let output = try await server.output()
    #expect(output.components(separatedBy: "request:").count - 1 == 400)
    #expect(!output.contains("ended:"), "\(output)")
  }

  @Test("tls:// sets the default checks; a plain address stays plain")
  func addressesSayTLS() throws {
    #expect(try ServerAddress.parsing(url: "tls://localhost:7443").usesTLS)
    #expect(
      try ServerAddress.parsing(url: "tls://localhost:7443").address
        == .tcp(host: "localhost", port: 7443))
    #expect(try !ServerAddress.parsing(url: "localhost:7070").usesTLS)
    #expect(throws: ClientError.invalidAddress("tls://nohost")) {
      try ServerAddress.parsing(url: "tls://nohost")
    }
    #expect(try ObservableClient("tls://localhost:7443").core.configuration.tls == .init())
    #expect(try ObservableClient("localhost:7070").core.configuration.tls == nil)
  }
}
