import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

@Suite("The observable-server executable", .timeLimit(.minutes(1)))
struct ExecutableTests {
  @Test func sigtermClosesEverythingAndExitsZeroWithinTwoSeconds() throws {
    let path = temporarySocketPath("sigterm")
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:0", "--listen", "unix:\(path)",
      "--exec", "pid=echo $$; exec sleep 1000",
    ])
    let port = try #require(server.listeningPort(), "\(server.output)")
    #expect(server.waitForLog("unix:\(path)"))
    #expect(FileManager.default.fileExists(atPath: path))
    let client = try LineClient(port: port)
    try client.request("subscribe pid")
    let pid = try #require(try client.readJSON()["value"] as? Int)
    let overUnix = try LineClient(.unix(path: path))
    try overUnix.request("subscribe clock")

    let started = ContinuousClock.now
    server.signal(SIGTERM)
    #expect(server.waitUntilExited(timeout: .seconds(3)))
    #expect(ContinuousClock.now - started < .seconds(2))
    #expect(server.waitForExit(timeout: .seconds(1)) == 0, "\(server.output)")
    #expect(client.waitForClose())
    #expect(overUnix.waitForClose())
    #expect(!FileManager.default.fileExists(atPath: path), "the Unix socket file was left behind")
    #expect(kill(Int32(pid), 0) == -1 && errno == ESRCH, "exec process \(pid) outlived the server")
    #expect(server.output.contains("shutting down"))
  }

  @Test func sigintAlsoShutsDownCleanly() throws {
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:0"])
    _ = try #require(server.listeningPort(), "\(server.output)")
    server.signal(SIGINT)
    #expect(server.waitForExit(timeout: .seconds(3)) == 0)
  }

  @Test func ncSessionSubscribesPublishesAndReceives() throws {
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:0"])
    let port = try #require(server.listeningPort(), "\(server.output)")
    let watcher = try LineClient(port: port)
    try watcher.request("subscribe chat.room")

    let nc = Process()
    nc.executableURL = URL(fileURLWithPath: "/usr/bin/nc")
    // -N: shut the socket down for writing at the end of input, as a script piping into nc does.
    nc.arguments = ["-N", "127.0.0.1", String(port)]
    let input = Pipe()
    let output = Pipe()
    nc.standardInput = input
    nc.standardOutput = output
    try nc.run()
    defer { if nc.isRunning { nc.terminate() } }
    let script =
      "ping\nsubscribe chat.*\npublish chat.room hello from nc\n{\"op\":\"list\",\"id\":3}\nbogus\n"
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    #expect(eventually(timeout: .seconds(10)) { !nc.isRunning }, "nc did not finish")
    let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").map(String.init)
    #expect(lines.count == 7, "\(lines)")
    #expect(lines.first?.contains(#""hello":"observable-server""#) == true)
    #expect(lines.contains(#"{"ok":true,"op":"ping"}"#))
    #expect(lines.contains(#"{"ok":true,"op":"subscribe","stream":"chat.*"}"#))
    // Through the pattern, the delivery names it (protocol 1.1).
    #expect(lines.contains(#"{"stream":"chat.room","sub":"chat.*","value":"hello from nc"}"#))
    #expect(lines.contains(#"{"ok":true,"op":"publish","receivers":2}"#))
    #expect(lines.contains { $0.hasPrefix(#"{"ok":true,"op":"list","id":3,"streams":["#) })
    #expect(lines.last?.contains(#""code":"unknown_op""#) == true)
    #expect(try watcher.readJSON()["value"] as? String == "hello from nc")
  }

  @Test func checkSubcommandReportsWhetherAServerAnswers() throws {
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:0", "--token", "t0ken"])
    let port = try #require(server.listeningPort(), "\(server.output)")
    let healthy = try ServerProcess(arguments: ["check", "--connect", "127.0.0.1:\(port)"])
    #expect(healthy.waitForExit(timeout: .seconds(5)) == 0, "\(healthy.output)")
    server.signal(SIGTERM)
    #expect(server.waitForExit(timeout: .seconds(3)) == 0)
    let unhealthy = try ServerProcess(arguments: [
      "check", "--connect", "127.0.0.1:\(port)", "--timeout", "1",
    ])
    #expect(unhealthy.waitForExit(timeout: .seconds(5)) == 1)
    #expect(unhealthy.output.contains("failed"))
  }

  @Test func malformedFlagsExitNonZeroWithAMessage() throws {
    let server = try ServerProcess(arguments: ["--listen", "nowhere"])
    #expect(server.waitForExit(timeout: .seconds(5)) != 0)
    #expect(server.output.contains("--listen nowhere"))
    let taken = try ServerProcess(arguments: ["--listen", "127.0.0.1:0"])
    let port = try #require(taken.listeningPort())
    let second = try ServerProcess(arguments: ["--listen", "127.0.0.1:\(port)"])
    #expect(second.waitForExit(timeout: .seconds(5)) != 0)
    #expect(second.output.contains("cannot start"))
  }
}
