import Foundation
import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableClient

/// A subscriber whose connection is cut again and again while values flow, and which comes
/// back each time on the other node of a cluster (``JetStreamNodes``): it resumes there by
/// itself, from positions the first node wrote.
@Suite(
  "Resuming across the nodes of a cluster", .serialized, .timeLimit(.minutes(3)),
  .enabled(if: RequiredTool.runs(ChildProcess.isInstalled("nats-server"))))
struct ResumeAcrossNodesTests {
  static let topics = (0..<20).map { "feed.\($0)" }

  /// A cluster keeping `history` values per topic, a publisher on node 0 over TCP, and a
  /// subscriber through the link, on node 1 first.
  static func setup(
    history: Int, reconnectDelay: Duration = .milliseconds(20)
  ) async throws -> (JetStreamNodes, ResumingClients) {
    let nodes = try JetStreamNodes(history: history)
    try nodes.point(at: 1)
    let clients = try await ResumingClients(
      publishingTo: "127.0.0.1:\(nodes.ports[0])", subscribingAt: "unix:\(nodes.link)",
      reconnectDelay: reconnectDelay, keeping: nodes)
    return (nodes, clients)
  }

  /// Cuts the subscriber's connection `times` times at random moments, each after the
  /// previous reconnect, pointing the link at the other node first: it alternates between
  /// the nodes, starting on node 1.
  static func cut(
    _ nodes: JetStreamNodes, _ cutter: ConnectionCutter, times: Int, gap: ClosedRange<Int>
  ) async throws {
    for cut in 0..<times {
      try await Task.sleep(for: .milliseconds(Int.random(in: gap)))
      let before = cutter.connectionCount
      try nodes.point(at: cut % 2)
      cutter.shutDownClientSide()
      #expect(await eventually(timeout: .seconds(10)) { cutter.connectionCount > before })
    }
  }

  @Test("every value arrives once and in order, exact and pattern, across 50 moves")
  func exactlyOnce() async throws {
    let (nodes, setup) = try await Self.setup(history: 100_000)
    defer { setup.close() }
    let cutter = ConnectionCutter(setup.subscriber)
    let (exact, pattern) = (setup.exact, setup.pattern)

    let rounds = 500
    let begun = ContinuousClock.now
    let publishing = Task {
      try await SteadyPublisher(client: setup.publisher, topics: Self.topics).run(rounds: rounds)
    }
    try await Self.cut(nodes, cutter, times: 50, gap: 5...40)
    #expect(try await publishing.value == rounds)

    #expect(
      await eventually(timeout: .seconds(30)) {
        exact.count >= rounds && pattern.count >= rounds * Self.topics.count
      })
    print(
      "resume across nodes: \(pattern.count) values, \(cutter.connectionCount) connections, \(ContinuousClock.now - begun)"
    )
    setup.expectEveryValueOnce(rounds: rounds, topics: Self.topics)
    #expect(cutter.connectionCount >= 51)
  }

  @Test("with too small a history the gap is reported on the other node, nothing twice")
  func gapReported() async throws {
    // Away 150 ms while values flow: far more than 3 values a topic go by.
    let (nodes, setup) = try await Self.setup(history: 3, reconnectDelay: .milliseconds(150))
    defer { setup.close() }
    let cutter = ConnectionCutter(setup.subscriber)
    let exact = setup.exact

    let publishing = Task {
      try await SteadyPublisher(client: setup.publisher, topics: Self.topics).run(
        rounds: 1_000_000, pause: .milliseconds(1))
    }
    #expect(await eventually { exact.count > 10 })
    try await Self.cut(nodes, cutter, times: 6, gap: 20...80)
    let lastBefore = exact.count
    #expect(await eventually { exact.count > lastBefore + 10 })
    publishing.cancel()
    _ = try await publishing.value

    setup.expectGapsReportedAndNothingTwice()
  }
}
