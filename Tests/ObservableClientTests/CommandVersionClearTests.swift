import Foundation
import TestSupport
import Testing

@testable import ObservableClient

/// `observable --version` and `observable clear`, as processes against a real server process.
@Suite("The observable command: --version and clear", .timeLimit(.minutes(1)))
struct CommandVersionClearTests {
  @Test("--version prints the version and exits 0")
  func version() throws {
    let run = try CommandRun(["--version"])
    #expect(run.status == 0)
    #expect(run.stdout == ObservableClient.version + "\n")
    #expect(ObservableClient.version.split(separator: ".").count == 3)
  }

  @Test("clear forgets the retained value: a later subscriber gets the next value, not it")
  func clear() async throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port)
    #expect(try CommandRun(["pub", "kept", #"{"t":21}"#, "--retain"], port: port).status == 0)
    // Retained before the clear, so the clear has something to forget.
    #expect(
      try CommandRun(["sub", "kept", "--count", "1"], port: port).lines == [#"kept {"t":21}"#])
    let cleared = try CommandRun(["clear", "kept"], port: port)
    #expect(cleared.status == 0)
    #expect(cleared.stdout == "true\n")
    #expect(try CommandRun(["clear", "kept"], port: port).stdout == "false\n")
    // A subscriber from now on: once it is subscribed, a plain publish is the first (and,
    // with --count 1, only) thing it prints; the retained value would have come before it.
    let sub = try ChildProcess(
      "observable", ["sub", "kept", "--count", "1", "--server", "127.0.0.1:\(port)"])
    #expect(await eventually { (try? subscriberCount("kept", port: port)) == 1 })
    #expect(try CommandRun(["pub", "kept", "after"], port: port).stdout == "1\n")
    #expect(sub.waitForExit() == 0)
    #expect(sub.lines == [#"kept "after""#])
    _ = server
  }

  @Test("clear of a read-only stream fails with the server's code and exit status 1")
  func clearRefused() throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port)
    let refused = try CommandRun(["clear", "clock"], port: port)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("read_only"))
    #expect(try CommandRun(["clear"], port: port).status == 64)
    _ = server
  }

  /// The subscriber count `observable list` shows for `name`.
  private func subscriberCount(_ name: String, port: UInt16) throws -> Int? {
    let list = try CommandRun(["list", "--json"], port: port)
    let streams = try JSONDecoder().decode([StreamInfo].self, from: Data(list.stdout.utf8))
    return streams.first { $0.name == name }?.subscribers
  }
}
