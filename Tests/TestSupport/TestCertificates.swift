import Foundation

/// Certificates and keys made with the `openssl` command in a temporary directory for one
/// test, and removed after it: no key is ever committed.
///
/// One authority (`ca`) signs the server's certificates, the client's, and one for another
/// host; a second, unknown authority (`stranger`) signs a client certificate nobody trusts.
/// Shared by the TLS transform's tests, the server's, the client's and the cluster link's.
public final class TestCertificates: Sendable {
  /// The directory that holds every file.
  public let directory: URL

  /// Makes every file; throws when `openssl` is missing (``RequiredTool`` decides how).
  public init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tls-certificates-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try authority("ca")
    try authority("stranger")
    let names = "subjectAltName=DNS:localhost,IP:127.0.0.1"
    try issue("server", by: "ca", subject: "/CN=localhost", extensions: names, serial: "1001")
    try issue("renewed", by: "ca", subject: "/CN=localhost", extensions: names, serial: "2002")
    try issue(
      "expired", by: "ca", subject: "/CN=localhost", extensions: names, serial: "3003",
      days: "-1", key: "server")
    try issue(
      "elsewhere", by: "ca", subject: "/CN=elsewhere.example",
      extensions: "subjectAltName=DNS:elsewhere.example", serial: "4004")
    try issue(
      "client", by: "ca", subject: "/O=Example/CN=alice",
      extensions: "subjectAltName=DNS:alice.example,email:alice@example.com", serial: "5005")
    try issue(
      "intruder", by: "stranger", subject: "/CN=mallory",
      extensions: "subjectAltName=DNS:mallory.example", serial: "6006")
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// The path of `name` (such as `server.pem` or `server.key`).
  public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Copies `source` over `target` in the directory (a certificate renewed in place).
  public func replace(_ target: String, with source: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path(source)))
    try data.write(to: URL(fileURLWithPath: path(target)), options: .atomic)
  }

  /// Writes `text` to `name` in the directory.
  public func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
  }

  private func authority(_ name: String) throws {
    try openssl(
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
      "-keyout", path("\(name).key"), "-out", path("\(name).pem"), "-days", "2",
      "-subj", "/CN=\(name) test authority")
  }

  private func issue(
    _ name: String, by issuer: String, subject: String, extensions: String, serial: String,
    days: String = "2", key: String? = nil
  ) throws {
    let keyFile = path("\(key ?? name).key")
    if key == nil {
      try openssl(
        "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile)
    }
    try openssl("req", "-new", "-key", keyFile, "-subj", subject, "-out", path("\(name).csr"))
    try write("\(name).ext", extensions + "\n")
    // `-days -1` puts notAfter a day before notBefore: a certificate that has expired.
    try openssl(
      "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuer).pem"),
      "-CAkey", path("\(issuer).key"), "-set_serial", "0x\(serial)", "-days", days,
      "-extfile", path("\(name).ext"), "-out", path("\(name).pem"))
  }

  private func openssl(_ arguments: String...) throws {
    guard Self.openssl != nil else { throw RequiredTool.missing("openssl") }
    let child = try ChildProcess(tool: "openssl", arguments)
    child.closeInput()
    let status = child.exitStatus(within: .seconds(30))
    guard status == 0 else {
      throw TestSupportError("openssl \(arguments[0]) failed: \(child.stderr)")
    }
  }

  /// Whether the `openssl` command is installed (for ``RequiredTool``).
  public static var isAvailable: Bool { openssl != nil }

  /// The system's `openssl`, or `nil` when it is not installed.
  public static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/bin/openssl"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}
