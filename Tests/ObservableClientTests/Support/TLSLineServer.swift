import Foundation
import TestSupport

/// A stand-in `tls://` listener in Python's `ssl` module, an independent TLS peer: it serves
/// `connections` connections on a free loopback port, greets each like observable-server,
/// answers `{"ok":true}` to every request line, and writes what happened to its output
/// (`client: CN` for a client certificate, `request: LINE`, `handshake failed: REASON`).
///
/// It exits after its connections, or is killed after a minute, so it never outlives a test.
struct TLSLineServer {
  /// The port it listens on.
  let port: UInt16
  private let run: Task<String, any Error>

  /// Serves `certificate` (a name in `certificates`, with `key`); with `clientCA`, requires a
  /// client certificate from that authority.
  init(
    _ certificates: TestCertificates, certificate: String = "server", key: String = "server",
    clientCA: String? = nil, connections: Int = 1
  ) async throws {
    let portFile = certificates.path("port-\(UUID().uuidString)")
    let arguments = [
      "-c", Self.script, portFile, certificates.path("\(certificate).pem"),
      certificates.path("\(key).key"), clientCA.map { certificates.path("\($0).pem") } ?? "-",
      String(connections),
    ]
    let run = Task {
      String(decoding: try await PythonProcess.run(arguments: arguments, input: []), as: UTF8.self)
    }
    self.run = run
    var port: UInt16?
    _ = await eventually(timeout: .seconds(20)) {
      port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap {
        UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      return port != nil
    }
    guard let port else {
      run.cancel()
      throw TestSupportError("the Python TLS server did not start: \(try await run.value)")
    }
    self.port = port
  }

  /// Fresh certificates for a test against this server; `openssl` and `python3` are required
  /// (a missing one fails under CI and skips elsewhere).
  static func certificates() throws -> TestCertificates {
    try RequiredTool.require(TestCertificates.isAvailable, "openssl")
    try RequiredTool.require(PythonProcess.interpreter != nil, "python3")
    return try TestCertificates()
  }

  /// What the server wrote, once it has served its connections.
  func output() async throws -> String { try await run.value }

  private static let script = #"""
    import os, socket, ssl, sys
    port_file, cert, key, ca, connections = sys.argv[1:6]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    if ca != "-":
        context.load_verify_locations(ca)
        context.verify_mode = ssl.CERT_REQUIRED
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(30)
    with open(port_file + ".new", "w") as f:
        f.write(str(listener.getsockname()[1]))
    os.rename(port_file + ".new", port_file)
    greeting = b'{"hello":"observable-server","version":"1.1.0","protocol":1,"features":["sub"]}\n'
    for _ in range(int(connections)):
        conn, _ = listener.accept()
        conn.settimeout(10)
        try:
            tls = context.wrap_socket(conn, server_side=True)
        except (ssl.SSLError, OSError) as error:
            print("handshake failed:", error, flush=True)
            conn.close()
            continue
        peer = tls.getpeercert()
        if peer:
            names = dict(item[0] for item in peer["subject"])
            print("client:", names["commonName"], flush=True)
        try:
            tls.sendall(greeting)
            for line in tls.makefile("rb"):
                print("request:", line.decode().strip(), flush=True)
                tls.sendall(b'{"ok":true}\n')
        except (ssl.SSLError, OSError) as error:
            print("ended:", error, flush=True)
        tls.close()
    """#
}
