import Foundation
import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableClient

/// A subscriber whose connection is cut again and again while values flow, against a real
/// server process with history: it resumes by itself each time.
@Suite(
  "Resuming after resets, with server history", .timeLimit(.minutes(2)),
  .enabled(if: RequiredTool.runs(ChildProcess.isInstalled("ss"))))
struct ResumeAcrossResetTests {
  static let topics = (0..<5).map { "feed.\($0)" }

  /// A server process with `history` values per topic, and the clients of the test on it.
  static func setup(
    history: Int, reconnectDelay: Duration = .milliseconds(20)
  ) async throws -> ResumingClients {
    try RequiredTool.require(ChildProcess.isInstalled("ss"), "ss")
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port, arguments: ["--history", "\(history)"])
    return try await ResumingClients(
      publishingTo: "127.0.0.1:\(port)", subscribingAt: "127.0.0.1:\(port)",
      reconnectDelay: reconnectDelay, keeping: server)
  }

  /// Cuts `cutter`'s connection `times` times at random moments, alternating a server-side
  /// reset and a client-side shutdown, each after the previous reconnect.
  static func cut(_ cutter: ConnectionCutter, times: Int, gap: ClosedRange<Int>) async throws {
    for cut in 0..<times {
      try await Task.sleep(for: .milliseconds(Int.random(in: gap)))
      let before = cutter.connectionCount
      if cut.isMultiple(of: 2) {
        #expect(try cutter.resetFromServer())
      } else {
        cutter.shutDownClientSide()
      }
      #expect(await eventually(timeout: .seconds(10)) { cutter.connectionCount > before })
    }
  }

  @Test("every value arrives once and in order, exact and pattern, across 30 cuts")
  func exactlyOnce() async throws {
    let setup = try await Self.setup(history: 100_000)
    defer { setup.close() }
    let cutter = ConnectionCutter(setup.subscriber)
    let (exact, pattern) = (setup.exact, setup.pattern)

    let rounds = 800
    let publishing = Task {
      try await SteadyPublisher(client: setup.publisher, topics: Self.topics).run(rounds: rounds)
    }
    try await Self.cut(cutter, times: 30, gap: 5...60)
    #expect(try await publishing.value == rounds)

    #expect(
      await eventually(timeout: .seconds(20)) {
        exact.count >= rounds && pattern.count >= rounds * Self.topics.count
      })
    setup.expectEveryValueOnce(rounds: rounds, topics: Self.topics)
    #expect(cutter.connectionCount >= 31)
  }

  @Test("cut before any value arrived, a subscription resumes from where it started")
  func cutBeforeAnyValue() async throws {
    let setup = try await Self.setup(history: 100, reconnectDelay: .milliseconds(500))
    defer { setup.close() }
    let cutter = ConnectionCutter(setup.subscriber)
    let before = cutter.connectionCount
    cutter.shutDownClientSide()
    let rounds = 5
    let published = try await SteadyPublisher(client: setup.publisher, topics: ["feed.1"])
      .run(rounds: rounds, pause: .zero)
    #expect(published == rounds)
    // Published while the subscriber was away: it reconnects only after its delay.
    #expect(cutter.connectionCount == before)
    #expect(
      await eventually(timeout: .seconds(10)) {
        setup.exact.count >= rounds && setup.pattern.count >= rounds
      })
    setup.expectEveryValueOnce(rounds: rounds, topics: ["feed.1"])
  }

  @Test("with too small a history the gap is reported, and no value arrives twice")
  func gapReported() async throws {
    // Away 150 ms while values flow: far more than 3 values a topic go by.
    let setup = try await Self.setup(history: 3, reconnectDelay: .milliseconds(150))
    defer { setup.close() }
    let cutter = ConnectionCutter(setup.subscriber)
    let exact = setup.exact

    let publishing = Task {
      try await SteadyPublisher(client: setup.publisher, topics: Self.topics).run(
        rounds: 1_000_000, pause: .milliseconds(1))
    }
    #expect(await eventually { exact.count > 10 })
    try await Self.cut(cutter, times: 6, gap: 20...80)
    let lastBefore = exact.count
    #expect(await eventually { exact.count > lastBefore + 10 })
    publishing.cancel()
    _ = try await publishing.value

    setup.expectGapsReportedAndNothingTwice()
  }
}
