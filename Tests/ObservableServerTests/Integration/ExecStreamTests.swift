import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

@Suite("Exec streams", .timeLimit(.minutes(1)))
struct ExecStreamTests {
  /// Whether a process with `pid` still exists; a zombie counts, so `false` means reaped.
  static func exists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
  }

  @Test func processIsSharedAndEndsAfterTheLastSubscriberLeaves() throws {
    let server = try TestServer {
      $0.execStreams = [ExecStreamConfiguration(#"pid=echo $$; exec sleep 1000"#)!]
    }
    let first = try server.connect()
    try first.request("subscribe pid")
    let pid = try #require(try first.readJSON()["value"] as? Int)
    #expect(Self.exists(Int32(pid)))
    let second = try server.connect()
    try second.request("subscribe pid")
    try first.request("unsubscribe pid")
    #expect(Self.exists(Int32(pid)), "one subscriber is left, so the process stays")
    #expect(server.server.registry.list().first { $0.name == "pid" }?.subscribers == 1)
    second.reset()
    #expect(eventually { !Self.exists(Int32(pid)) }, "process \(pid) outlived its last subscriber")
  }

  @Test func linesAreJSONWhenTheyParseAndStringsOtherwise() throws {
    let server = try TestServer {
      $0.execStreams = [
        ExecStreamConfiguration(#"lines=printf '{"a":1}\nplain words\n42\n'; sleep 1000"#)!
      ]
    }
    let client = try server.connect()
    try client.request("subscribe lines")
    #expect((try client.readJSON()["value"] as? [String: Any])?["a"] as? Int == 1)
    #expect(try client.readJSON()["value"] as? String == "plain words")
    #expect(try client.readJSON()["value"] as? Int == 42)
  }

  @Test func processThatExitsWhileObservedIsRestarted() throws {
    let server = try TestServer {
      $0.execStreams = [ExecStreamConfiguration(#"short=echo $$"#)!]
    }
    let client = try server.connect()
    try client.request("subscribe short")
    // Generous deadlines: the restart waits 100 ms, but a loaded machine may be slow to spawn.
    let first = try #require(try client.readJSON(timeout: .seconds(15))["value"] as? Int)
    let second = try #require(try client.readJSON(timeout: .seconds(15))["value"] as? Int)
    #expect(first != second)
    #expect(!Self.exists(Int32(first)))
  }

  @Test func processThatIgnoresSIGTERMIsKilledAfterTheGracePeriod() throws {
    let server = try TestServer {
      $0.execGracePeriod = .milliseconds(300)
      $0.execStreams = [
        ExecStreamConfiguration(#"stubborn=trap '' TERM; echo $$; while :; do sleep 0.05; done"#)!
      ]
    }
    let client = try server.connect()
    try client.request("subscribe stubborn")
    let pid = try #require(try client.readJSON()["value"] as? Int)
    let started = ContinuousClock.now
    try client.request("unsubscribe stubborn")
    #expect(eventually { !Self.exists(Int32(pid)) })
    #expect(
      ContinuousClock.now - started >= .milliseconds(250), "SIGTERM alone should not have ended it")
  }

  @Test func stderrGoesToTheLogNotToSubscribers() throws {
    let server = try TestServer {
      $0.execStreams = [ExecStreamConfiguration(#"mixed=echo oops >&2; echo fine; sleep 1000"#)!]
    }
    let client = try server.connect()
    try client.request("subscribe mixed")
    #expect(try client.readJSON()["value"] as? String == "fine")
    #expect(try client.request("ping")["ok"] as? Bool == true)
    #expect(client.takeDeliveries().isEmpty)
  }
}
