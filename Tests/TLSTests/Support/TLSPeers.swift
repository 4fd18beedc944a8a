import Foundation
import TLS
import TestSupport
import XCTest

/// The peers the tests run against, and the one connection each test serves or opens.
extension XCTestCase {
  /// Fails under CI, skips elsewhere, when `tool` is missing.
  func require(_ tool: String) throws {
    try RequiredTool.require(ChildProcess.isInstalled(tool), tool)
  }

  /// Listens on loopback, starts `peer` with the port, and pumps the one connection it makes
  /// through a server session of `context`.
  func serve(
    _ context: TLSContext, peer: (UInt16) throws -> ChildProcess
  ) throws -> (TLSPump, ChildProcess) {
    let (listener, port) = try LoopbackSocket.listen()
    defer { close(listener) }
    let child = try peer(port)
    let descriptor = try LoopbackSocket.accept(listener)
    return (TLSPump(descriptor: descriptor, session: try TLSSession(context: context)), child)
  }

  /// Ends a session that went well: close_notify, which ends a quiet `s_client` (it ignores
  /// the end of its stdin), then the child's exit status.
  @discardableResult
  func finish(_ pump: TLSPump, _ client: ChildProcess) -> Int32? {
    pump.close()
    pump.run { $0.socketEnded }
    XCTAssertNil(pump.failure)
    client.closeInput()
    return client.exitStatus()
  }

  /// `openssl s_client` to `port`, trusting the test authority and checking `localhost`,
  /// quiet (only the data on stdout) unless `extra` says otherwise.
  func openSSLClient(
    _ port: UInt16, _ certificates: TestCertificates, _ extra: [String] = ["-quiet"]
  ) throws -> ChildProcess {
    try ChildProcess(
      tool: "openssl",
      [
        "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", certificates.path("ca.pem"),
        "-verify_return_error", "-verify_hostname", "localhost", "-servername", "localhost",
      ] + extra)
  }

  /// `openssl s_server` on a free loopback port, and that port: reversing each line it
  /// receives (`-rev`), or else printing what it receives and taking commands on stdin.
  func openSSLServer(_ arguments: [String], reversing: Bool = true) throws -> (ChildProcess, UInt16)
  {
    let server = try ChildProcess(
      tool: "openssl",
      ["s_server", "-accept", "127.0.0.1:0", "-naccept", "1"] + (reversing ? ["-rev"] : [])
        + arguments)
    var port: UInt16?
    server.wait { child in
      port =
        child.stdout.split(separator: "\n").lazy
        .compactMap { $0.hasPrefix("ACCEPT 127.0.0.1:") ? UInt16($0.dropFirst(17)) : nil }.first
      return port != nil
    }
    guard let port else { throw LoopbackSocket.Failure(description: "s_server: \(server.stderr)") }
    return (server, port)
  }

  /// A client session of `context` connected to `port`, pumped.
  func connect(_ context: TLSContext, port: UInt16, serverName: String? = "localhost") throws
    -> TLSPump
  {
    let descriptor = try LoopbackSocket.connect(port: port)
    return TLSPump(
      descriptor: descriptor, session: try TLSSession(context: context, serverName: serverName))
  }

  /// Python's `ssl` module running `script` with `arguments` (`sys.argv[1...]`).
  func python(_ script: String, _ arguments: [String]) throws -> ChildProcess {
    try ChildProcess(tool: "python3", ["-c", script] + arguments)
  }
}
