import Foundation
import Glibc
import TestSupport

/// An `observable-server` process on a data directory (`--data-dir`), started, killed and
/// started again on the same directory by the store's tests.
final class StoreServer {
  /// The data directory, the server's store in `observable.sqlite3` inside it.
  let directory: String
  /// The running process.
  let process: ServerProcess
  /// Its line protocol port.
  let port: UInt16

  /// The store's file.
  var storePath: String { directory + "/observable.sqlite3" }

  /// Starts a server on `directory` with `--fsync fsync` and waits until it listens.
  init(directory: String, fsync: String, arguments: [String] = []) throws {
    self.directory = directory
    process = try ServerProcess(
      arguments: [
        "--listen", "127.0.0.1:0", "--data-dir", directory, "--fsync", fsync, "--threads", "1",
      ] + arguments)
    guard let port = process.listeningPort(timeout: .seconds(30)) else {
      throw TestSupportError("the server did not listen:\n\(process.output)")
    }
    self.port = port
  }

  /// A fresh directory for a store, under the temporary directory, that `body` may use; it
  /// is removed afterwards.
  static func withDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("observable-store-server-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try body(directory)
  }

  /// Runs `body` with a server on a new store in `fsync` mode and a client connected to it,
  /// and the store's directory; stops both, and removes the directory, when it returns.
  static func withClient<T>(
    fsync: String,
    _ body: (_ server: StoreServer, _ client: LineClient, _ directory: String) throws -> T
  ) throws -> T {
    try withDirectory { directory in
      let server = try StoreServer(directory: directory, fsync: fsync)
      defer { server.terminate() }
      let client = try LineClient(port: server.port)
      defer { client.close() }
      return try body(server, client, directory)
    }
  }

  /// Stops the server with SIGTERM and returns its exit status.
  @discardableResult
  func terminate() -> Int32? {
    process.signal(SIGTERM)
    return process.waitForExit(timeout: .seconds(30))
  }

  /// Kills the server with SIGKILL, as a crash would, and waits until it is gone.
  func kill() {
    process.signal(SIGKILL)
    _ = process.waitForExit(timeout: .seconds(30))
  }

  /// The retained values of every topic `pattern` matches, by topic, as the raw JSON text
  /// of each value; read by subscribing to the pattern and reading until `count` arrived or
  /// nothing more comes for a moment.
  func retained(matching pattern: String, expecting count: Int? = nil) throws -> [String: String] {
    let client = try LineClient(port: port)
    defer { client.close() }
    let reply = try client.request(#"{"op":"subscribe","stream":"\#(pattern)"}"#)
    guard reply["ok"] as? Bool == true else { throw TestSupportError("subscribe: \(reply)") }
    var values: [String: String] = [:]
    while count.map({ values.count < $0 }) ?? true {
      guard let line = try? client.readLine(timeout: .milliseconds(count == nil ? 500 : 10_000))
      else { break }
      guard let (stream, value) = Self.streamAndValue(line) else { continue }
      values[stream] = value
    }
    return values
  }

  /// The `stream` and raw `value` of a delivery line `{"stream":S,"sub":P,"value":V}`.
  static func streamAndValue(_ line: String) -> (String, String)? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let stream = object["stream"] as? String, let value = object["value"]
    else { return nil }
    if let number = value as? NSNumber { return (stream, number.stringValue) }
    if let text = value as? String { return (stream, text) }
    return (stream, "\(value)")
  }
}
