import Foundation
import Glibc
import Testing

@testable import ObservableServer

/// `--token-file` keeps the token out of the process list, where `--token` shows it.
@Suite("Token from a file", .timeLimit(.minutes(1)))
struct TokenFileTests {
  @Test func tokenFromAFileWorksAndIsNotInTheCommandLine() throws {
    let path = "/tmp/os-token-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try "file-s3cret\n".write(toFile: path, atomically: true, encoding: .utf8)
    defer { unlink(path) }
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--token-file", path, "--log-level", "warning",
    ])
    #expect(eventually { (try? LineClient(port: port)) != nil })
    let commandLine = try String(
      contentsOfFile: "/proc/\(server.process.processIdentifier)/cmdline", encoding: .utf8)
    #expect(commandLine.contains("--token-file"))
    #expect(!commandLine.contains("file-s3cret"))
    let client = try LineClient(port: port)
    #expect(client.greeting["auth"] as? String == "required")
    #expect(try client.request("auth file-s3cret")["ok"] as? Bool == true)
  }

  @Test func anUnreadableTokenFileStopsTheServerWithAMessage() throws {
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:0", "--token-file", "/nonexistent/token",
    ])
    #expect(server.waitForExit(timeout: .seconds(10)).map { $0 != 0 } == true)
    #expect(server.output.contains("--token-file /nonexistent/token"), "\(server.output)")
  }
}
