import Foundation
import Glibc
import Logging
import TestSupport
import Testing

@testable import ObservablePOSIX
@testable import ObservableServer

/// An exec source driven directly on an event loop, for what the protocol cannot show: the
/// polling fallback for kernels without pidfd, shutdown's wait, and subscription churn.
@Suite("Exec sources on an event loop", .timeLimit(.minutes(1)))
struct ExecSourceTests {
  /// Runs `body` with a started loop and an exec source for `command` on it; shuts the source
  /// down and stops the loop afterwards, so no process or thread outlives the test.
  static func withSource(
    _ command: String, gracePeriod: Duration = .seconds(1),
    exitWatch: ExecExitWatch.Mode = .pidfd, _ body: (ExecSource) throws -> Void
  ) throws {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    let loop = try EventLoop(name: "exec-test", logger: logger)
    try loop.start()
    let source = ExecSource(
      name: "test", command: command, gracePeriod: gracePeriod, maxLineBytes: 1024,
      logger: logger, exitWatch: exitWatch)
    source.start(on: loop)
    defer {
      source.shutdown()
      loop.stop()
      loop.join()
    }
    try body(source)
  }

  /// The values delivered so far, as integers (the commands here print process ids).
  static func numbers(_ collector: LineCollector) -> [Int32] {
    collector.texts.compactMap { text in
      guard let start = text.range(of: #""value":"#)?.upperBound else { return nil }
      return Int32(text[start...].prefix { $0.isNumber })
    }
  }

  @Test(arguments: [ExecExitWatch.Mode.pidfd, .polling])
  func exitIsSeenAndTheProcessRestartedWhileObserved(exitWatch: ExecExitWatch.Mode) throws {
    try Self.withSource("echo $$", exitWatch: exitWatch) { source in
      let collector = LineCollector()
      source.attach(collector.observer, key: 1)
      #expect(eventually(timeout: .seconds(15)) { Self.numbers(collector).count >= 2 })
      let pids = Self.numbers(collector)
      #expect(Set(pids).count == pids.count, "each restart is a new process")
      source.detach(key: 1)
    }
  }

  @Test(arguments: [ExecExitWatch.Mode.pidfd, .polling])
  func lastObserverLeavingEndsTheProcess(exitWatch: ExecExitWatch.Mode) throws {
    try Self.withSource("echo $$; exec sleep 1000", exitWatch: exitWatch) { source in
      let collector = LineCollector()
      source.attach(collector.observer, key: 1)
      #expect(eventually { !Self.numbers(collector).isEmpty })
      let pid = try #require(Self.numbers(collector).first)
      source.detach(key: 1)
      #expect(eventually { !ExecStreamTests.exists(pid) }, "process \(pid) outlived its observer")
    }
  }

  @Test func shutdownWaitsUntilAStubbornProcessIsKilledAndReaped() throws {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    let loop = try EventLoop(name: "exec-test", logger: logger)
    try loop.start()
    defer {
      loop.stop()
      loop.join()
    }
    let source = ExecSource(
      name: "test", command: "trap '' TERM; echo $$; while :; do sleep 0.05; done",
      gracePeriod: .milliseconds(300), maxLineBytes: 1024, logger: logger)
    source.start(on: loop)
    let collector = LineCollector()
    source.attach(collector.observer, key: 1)
    #expect(eventually { !Self.numbers(collector).isEmpty })
    let pid = try #require(Self.numbers(collector).first)
    let started = ContinuousClock.now
    source.shutdown()
    #expect(ContinuousClock.now - started >= .milliseconds(250), "SIGTERM alone cannot end it")
    #expect(!ExecStreamTests.exists(pid), "shutdown returned before the process was reaped")
  }

  @Test func subscriptionChurnLeavesExactlyTheObservedProcess() throws {
    let path = "/tmp/exec-churn-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(path) }
    try Self.withSource("echo $$ >> \(path); exec sleep 1000") { source in
      // Four threads subscribe and unsubscribe at once; one observer stays at the end.
      let churners = (0..<4).map { thread in
        { @Sendable in
          for round in 0..<50 {
            let key = UInt64(thread * 1000 + round)
            source.attach(LineCollector().observer, key: key)
            source.detach(key: key)
          }
        }
      }
      try #require(StartBarrier.run(churners))
      source.attach(LineCollector().observer, key: 99_999)
      let started = { () -> [Int32] in
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { Int32($0) }
      }
      #expect(eventually { started().contains { ExecStreamTests.exists($0) } })
      // Processes started during the churn must all be gone, save the one now observed.
      #expect(eventually { started().filter { ExecStreamTests.exists($0) }.count == 1 })
      source.detach(key: 99_999)
      #expect(eventually { !started().contains { ExecStreamTests.exists($0) } })
    }
  }
}
