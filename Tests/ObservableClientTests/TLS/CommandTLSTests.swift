import Foundation
import TestSupport
import Testing

/// The `observable` command over TLS, run as users run it, against Python's `ssl` module.
@Suite("The observable command over TLS", .timeLimit(.minutes(2)))
struct CommandTLSTests {
  let certificates: TestCertificates

  init() throws { certificates = try TLSLineServer.certificates() }

  @Test("--ca-file verifies the server; without it the test CA is unknown; --insecure passes")
  func verifiesByDefault() async throws {
    let server = try await TLSLineServer(certificates, connections: 3)
    let address = "tls://localhost:\(server.port)"
    let trusted = try CommandRun(
      ["ping", "--server", address, "--ca-file", certificates.path("ca.pem")])
    #expect(trusted.status == 0, "\(trusted.stderr)")
    #expect(trusted.stdout.hasPrefix("pong from localhost:\(server.port)"), "\(trusted.stdout)")
    let unknown = try CommandRun(["ping", "--server", address])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("TLS failed"), "\(unknown.stderr)")
    #expect(unknown.stderr.contains("certificate"), "\(unknown.stderr)")
    let insecure = try CommandRun(["ping", "--server", address, "--insecure"])
    #expect(insecure.status == 0, "\(insecure.stderr)")
    #expect(try await server.output().components(separatedBy: "request:").count == 3)
  }

  @Test("--cert and --key present a client certificate")
  func presentsClientCertificate() async throws {
    let server = try await TLSLineServer(certificates, clientCA: "ca")
    let run = try CommandRun([
      "ping", "--server", "tls://localhost:\(server.port)", "--ca-file",
      certificates.path("ca.pem"), "--cert", certificates.path("client.pem"), "--key",
      certificates.path("client.key"),
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try await server.output().contains("client: alice"))
  }

  @Test("TLS options without a tls:// address, or at odds, are usage errors")
  func refusesOptionsThatDoNothing() throws {
    let ca = certificates.path("ca.pem")
    let cases: [([String], String)] = [
      (["--server", "127.0.0.1:1", "--ca-file", ca], "--ca-file needs a tls:// address"),
      (["--server", "127.0.0.1:1", "--insecure"], "--insecure needs a tls:// address"),
      (
        ["--server", "tls://127.0.0.1:1", "--insecure", "--ca-file", ca],
        "--insecure checks nothing"
      ),
      (["--server", "tls://127.0.0.1:1", "--cert", ca], "--cert and --key go together"),
    ]
    for (arguments, message) in cases {
      let run = try CommandRun(["ping"] + arguments)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
    }
  }

  @Test("--insecure's help says what it turns off")
  func insecureHelp() throws {
    let help = try CommandRun(["ping", "--help"], environment: ["COLUMNS": "200"])
    #expect(help.stdout.contains("Skip every check of the server's certificate"))
    #expect(help.stdout.contains("anyone on the path can pose as the server"))
  }
}
