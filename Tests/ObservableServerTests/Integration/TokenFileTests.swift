import Foundation
import Glibc
import TestSupport
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

  /// Writes `bytes` to a fresh file and returns its path; the caller unlinks it.
  static func temporaryFile(_ bytes: [UInt8]) throws -> String {
    let path = "/tmp/os-token-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aByteOrderMarkBlankLinesAndCRLFAreNotPartOfTheToken() throws {
    // What a Windows editor saves: the server read such files with Foundation before and
    // must take the same token from them now that it reads them itself.
    let path = try Self.temporaryFile(
      [0xEF, 0xBB, 0xBF] + Array("\r\n\r\nbom-s3cret\r\nrest\r\n".utf8))
    defer { unlink(path) }
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--token-file", path, "--log-level", "warning",
    ])
    #expect(eventually { (try? LineClient(port: port)) != nil }, "\(server.output)")
    let client = try LineClient(port: port)
    #expect(try client.request("auth bom-s3cret")["ok"] as? Bool == true)
  }

  @Test(arguments: [
    ("invalid UTF-8", [0x73, 0x65, 0xFF, 0x0A] as [UInt8], "cannot be read"),
    ("only newlines", Array("\n\r\n\n".utf8), "empty"),
  ])
  func aTokenFileWithoutATokenStopsTheServer(_ kind: String, bytes: [UInt8], message: String)
    throws
  {
    let path = try Self.temporaryFile(bytes)
    defer { unlink(path) }
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:0", "--token-file", path])
    #expect(server.waitForExit(timeout: .seconds(10)).map { $0 != 0 } == true, "\(kind)")
    #expect(server.output.contains("--token-file \(path): \(message)"), "\(server.output)")
  }

  @Test func anEndlessTokenFileIsRefusedWithoutReadingItAll() throws {
    // /dev/zero never ends: reading it whole would take all memory, so the server stops at
    // its limit and says so.
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:0", "--token-file", "/dev/zero",
    ])
    #expect(server.waitForExit(timeout: .seconds(10)).map { $0 != 0 } == true)
    #expect(server.output.contains("--token-file /dev/zero: larger than"), "\(server.output)")
  }
}
