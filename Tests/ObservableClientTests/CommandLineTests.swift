import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableClient

/// The `observable` executable end to end, as real processes against a real server process.
@Suite("The observable command", .timeLimit(.minutes(1)))
struct CommandLineTests {
  /// Runs `observable` with `arguments` against `port` to its end; its status and output.
  func observable(
    _ arguments: [String], port: UInt16, input: String? = nil
  ) throws -> (status: Int32?, stdout: String, stderr: String) {
    let process = try ChildProcess(
      "observable", arguments, environment: ["OBSERVABLE_SERVER": "127.0.0.1:\(port)"],
      withInput: input != nil)
    if let input {
      process.write(input)
      process.closeInput()
    }
    let status = process.waitForExit()
    return (status, process.stdout, process.stderr)
  }

  @Test("sub prints NAME VALUE lines, pub prints receivers, --count exits 0")
  func subAndPub() async throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port)
    let sub = try ChildProcess(
      "observable", ["sub", "room.*", "--count", "5", "--server", "127.0.0.1:\(port)"])
    // Patterns are not listed, so probe until the subscription receives; only the probe that
    // reached it is printed.
    #expect(
      await eventually {
        (try? observable(["pub", "room.0", "probe"], port: port).stdout) == "1\n"
      })
    #expect(try observable(["pub", "room.1", #"{"temp":21.5}"#], port: port).stdout == "1\n")
    #expect(try observable(["pub", "room.2", "hello world"], port: port).stdout == "1\n")
    let piped = try observable(["pub", "room.3", "-"], port: port, input: "42\nnot json\n")
    #expect(piped.status == 0)
    #expect(piped.stdout == "1\n1\n")
    #expect(sub.waitForExit() == 0)
    #expect(
      sub.lines == [
        #"room.0 "probe""#, #"room.1 {"temp":21.5}"#, #"room.2 "hello world""#, "room.3 42",
        #"room.3 "not json""#,
      ])
    #expect(try observable(["pub", "room.4", "after"], port: port).stdout == "0\n")
    _ = server
  }

  @Test("sub --json prints each delivery line as received")
  func subJSON() async throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port)
    _ = try observable(["pub", "kept", #"[1, "a b", {"c": 2}]"#, "--retain"], port: port)
    let sub = try observable(["sub", "kept", "--json", "--count", "1"], port: port)
    #expect(sub.status == 0)
    #expect(sub.stdout == #"{"stream":"kept","value":[1,"a b",{"c":2}]}"# + "\n")
    let plain = try observable(["sub", "kept", "--count", "1"], port: port)
    #expect(plain.stdout == #"kept [1,"a b",{"c":2}]"# + "\n")
    _ = server
  }

  @Test("list shows a table and JSON; stats and ping answer")
  func listStatsPing() async throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port)
    _ = try observable(["pub", "topic.a", "1", "--retain"], port: port)
    let table = try observable(["list"], port: port)
    #expect(table.status == 0)
    let rows = table.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(rows.first == ["NAME", "KIND", "SUBSCRIBERS"])
    #expect(rows.contains(["topic.a", "topic", "0"]))
    #expect(rows.contains(["clock", "builtin", "0"]))
    let json = try observable(["list", "--json"], port: port)
    let streams = try JSONDecoder().decode([StreamInfo].self, from: Data(json.stdout.utf8))
    #expect(streams.contains(StreamInfo(name: "topic.a", kind: "topic", subscribers: 0)))
    let stats = try observable(["stats"], port: port)
    #expect(stats.status == 0)
    #expect(stats.stdout.contains("published_total"))
    #expect(stats.stdout.split(separator: "\n").contains { $0.hasPrefix("connections ") })
    let ping = try observable(["ping"], port: port)
    #expect(ping.status == 0)
    #expect(ping.stdout.hasPrefix("pong from 127.0.0.1:\(port)"))
    _ = server
  }

  @Test("exit codes: 1 naming the address or the server's code, 64 for usage")
  func exitCodes() async throws {
    let port = try freeLoopbackPort()
    let refused = try observable(["sub", "x"], port: port)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("127.0.0.1:\(port)"))
    let server = try ServerProcess(port: port, arguments: ["--token", "t0k"])
    let unauthorized = try observable(["ping"], port: port)
    #expect(unauthorized.status == 1)
    #expect(unauthorized.stderr.contains("unauthorized"))
    #expect(try observable(["ping", "--token", "t0k"], port: port).status == 0)
    let readOnly = try observable(["pub", "clock", "1", "--token", "t0k"], port: port)
    #expect(readOnly.status == 1)
    #expect(readOnly.stderr.contains("read_only"))
    for usage in [["sub"], ["bogus"], ["pub", "only-name"], ["ping", "--server", "no-port"]] {
      #expect(try observable(usage, port: port).status == 64, "\(usage)")
    }
    _ = server
  }

  @Test("sub reconnects after the server is killed, with one notice, and goes on printing")
  func subReconnects() async throws {
    let port = try freeLoopbackPort()
    var server = try ServerProcess(port: port)
    let sub = try ChildProcess(
      "observable", ["sub", "news", "--count", "2", "--server", "127.0.0.1:\(port)"])
    #expect(await eventually { (try? subscribed(port)) == true })
    #expect(try observable(["pub", "news", "first"], port: port).stdout == "1\n")
    server.signal(SIGKILL)
    _ = server.waitForExit()
    #expect(await eventually { sub.stderr.contains("lost") })
    server = try ServerProcess(port: port)
    #expect(await eventually(timeout: .seconds(10)) { (try? subscribed(port)) == true })
    #expect(try observable(["pub", "news", "second"], port: port).stdout == "1\n")
    #expect(sub.waitForExit() == 0)
    #expect(sub.lines == [#"news "first""#, #"news "second""#])
    let notices = sub.stderr.split(separator: "\n")
    #expect(notices.count == 1)
    #expect(notices.first?.contains("127.0.0.1:\(port)") == true)
  }

  /// Whether some connection to the server on `port` subscribes to anything.
  private func subscribed(_ port: UInt16) throws -> Bool {
    let list = try observable(["list", "--json"], port: port)
    let streams = try JSONDecoder().decode([StreamInfo].self, from: Data(list.stdout.utf8))
    return streams.contains { $0.kind == "topic" && $0.subscribers > 0 }
  }
}
