import Foundation
import Glibc
import ObservableAuthorization
import ObservableCredentials
import TestSupport
import XCTest

/// A real `observable-server` started with an authorization file and signed-token key written
/// for the test, and clients that authenticate as its users over TCP.
final class AuthorizedServer {
  /// Tokens of the file's users, in clear, as the clients know them.
  static let tokens = ["ann": NewToken(), "bob": NewToken(), "cat": NewToken()]
  /// The token of `--token`, which makes one user with every permission.
  static let sharedToken = NewToken().token
  /// The HS256 secret of `--jwt-key`.
  static let jwtSecret = Array(NewToken().token.utf8)

  /// Three users whose rules overlap (the same as the unit matrix).
  static func fileText() -> String {
    func token(_ user: String) -> String { tokens[user]!.digest.text }
    return """
      {"users": {
        "ann": {"token": "\(token("ann"))",
                "subscribe": {"allow": ["room.>", "user.{user}.>"], "deny": ["room.secret"]},
                "publish": {"allow": ["room.*"], "deny": ["room.locked"]},
                "stats": true, "list": true},
        "bob": {"token": "\(token("bob"))",
                "subscribe": {"allow": ["room.lobby", "user.*.inbox"], "deny": ["user.ann.>"]},
                "publish": ["user.{user}.>"], "list": true},
        "cat": {"token": "\(token("cat"))",
                "subscribe": {"allow": [">"], "deny": ["room.>"]}, "stats": true}
      }}
      """
  }

  let directory: String
  let authFile: String
  let process: ServerProcess
  let port: UInt16
  let httpPort: UInt16

  init(extra: [String] = []) throws {
    directory = "/tmp/os-auth-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    authFile = directory + "/users.json"
    try Self.fileText().write(toFile: authFile, atomically: true, encoding: .utf8)
    let keyFile = directory + "/jwt.key"
    try Data(Self.jwtSecret + [0x0A]).write(to: URL(fileURLWithPath: keyFile))
    let tokenFile = directory + "/token"
    try (Self.sharedToken + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
    port = try freeLoopbackPort()
    httpPort = try freeLoopbackPort()
    process = try ServerProcess(
      arguments: [
        "--listen", "127.0.0.1:\(port)", "--http", "127.0.0.1:\(httpPort)", "--log-level", "debug",
        "--auth-file", authFile, "--jwt-key", keyFile, "--token-file", tokenFile,
      ] + extra)
    guard process.waitForLog("listening") else {
      throw TestSupportError("no `listening` line:\n\(process.output)")
    }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// A client authenticated as `user` of the file (or `--token`'s user for `nil`).
  func client(_ user: String?) throws -> LineClient {
    let client = try LineClient(port: port)
    let auth =
      user.map { #"{"op":"auth","user":"\#($0)","token":"\#(Self.tokens[$0]!.token)"}"# }
      ?? #"{"op":"auth","token":"\#(Self.sharedToken)"}"#
    let reply = try client.request(auth)
    XCTAssertEqual(reply["ok"] as? Bool, true, "\(reply)")
    return client
  }

  /// The body of `GET /metrics` on the HTTP port.
  func metrics() throws -> String {
    try httpAnswer("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
  }

  /// What the HTTP port answers `request`, which must ask it to close the connection.
  func httpAnswer(_ request: String) throws -> String {
    let client = try LineClient(port: httpPort, readGreeting: false)
    defer { client.close() }
    try client.sendRaw(Array(request.utf8))
    var bytes: [UInt8] = []
    // Until the server closes (a read of nothing) or the deadline passes.
    _ = eventually(timeout: .seconds(5)) {
      guard let more = try? client.readAvailable(timeout: .seconds(1)) else { return false }
      bytes += more
      return more.isEmpty
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// The error code of a reply, or `nil` for a success.
func errorCode(_ reply: [String: Any]) -> String? {
  (reply["error"] as? [String: Any])?["code"] as? String
}
