import Foundation
import Glibc
import TestSupport
import Testing

/// A store the server cannot use stops it at start with a message naming the file and an
/// exit status that says why (65: the file's content, 74: reading or writing it, 64: the
/// flags), and the file is left as it was.
@Suite("The store at start", .serialized, .timeLimit(.minutes(2)))
struct StoreStartupErrorTests {
  /// Makes a store in `directory` holding a few retained values, through a server.
  private func makeStore(in directory: String) throws {
    let server = try StoreServer(directory: directory, fsync: "always")
    let client = try LineClient(port: server.port)
    for topic in 0..<50 {
      let value = String(repeating: "v", count: 200)
      let reply = try client.request(
        #"{"op":"publish","stream":"c.\#(topic)","value":"\#(value)","retain":true}"#)
      #expect(reply["ok"] as? Bool == true)
    }
    client.close()
    #expect(server.terminate() == 0)
  }

  /// Starts a server on `directory` that must exit with `status`, naming `path`.
  private func expectRefusal(_ directory: String, status: Int32, naming path: String) throws {
    let server = try ServerProcess(
      arguments: ["--listen", "127.0.0.1:0", "--data-dir", directory, "--fsync", "always"])
    #expect(server.waitForExit(timeout: .seconds(20)) == status, "\(server.output)")
    #expect(server.output.contains(path), "\(server.output)")
    #expect(!server.output.contains("listening"), "\(server.output)")
  }

  @Test func aTruncatedStoreIsRefusedAndLeftAsItWas() throws {
    try StoreServer.withDirectory { directory in
      try makeStore(in: directory)
      let path = directory + "/observable.sqlite3"
      let whole = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(truncate(path, off_t(whole.count / 2)) == 0)
      let half = try Data(contentsOf: URL(fileURLWithPath: path))
      try expectRefusal(directory, status: 65, naming: path)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == half)
    }
  }

  @Test func aFileOfAnotherFormatIsRefusedAndLeftAsItWas() throws {
    try StoreServer.withDirectory { directory in
      let path = directory + "/observable.sqlite3"
      let text = Data(String(repeating: "not a database, a text file\n", count: 200).utf8)
      try text.write(to: URL(fileURLWithPath: path))
      try expectRefusal(directory, status: 65, naming: path)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }
  }

  @Test func aStoreOnAReadOnlyFileSystemIsRefused() throws {
    guard geteuid() == 0 || RequiredTool.isCI() else { return }
    try StoreServer.withDirectory { directory in
      let mount = try TmpfsMount(size: "4m", in: directory)
      defer { mount.unmount() }
      try makeStore(in: mount.path + "/data")
      try mount.remountReadOnly()
      try expectRefusal(mount.path + "/data", status: 74, naming: mount.path + "/data")
    }
  }

  @Test(arguments: [
    (["--fsync", "sometimes", "--data-dir", "/tmp/x"], "--fsync sometimes"),
    (["--fsync", "always"], "--fsync needs --data-dir"),
    (["--data-dir", "/tmp/x", "--cluster", "nats://127.0.0.1:1"], "--data-dir and --cluster"),
  ])
  func badStoreFlagsAreAUsageError(_ flags: [String], _ message: String) throws {
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:0"] + flags)
    #expect(server.waitForExit(timeout: .seconds(10)) == 64, "\(server.output)")
    #expect(server.output.contains(message), "\(server.output)")
  }
}
