import Glibc
import Locking
import Logging
import TestSupport
import Testing

@testable import ObservableLogging
@testable import ObservablePOSIX
@testable import ObservableServer

/// Warnings clients can repeat at will are logged a few times a second, with a count of the
/// rest, whatever kind they are.
@Suite("Repeated warnings in the log", .timeLimit(.minutes(1)))
struct RepeatedWarningsTests {
  @Test func aBurstLogsAFewLinesThenOneCountOnceTheWindowEnds() throws {
    let lines = CapturedWarnings()
    let warnings = RepeatedWarnings(
      logger: Logger(label: "test") { _ in lines.handler() }, window: .milliseconds(300))
    let loop = try Self.runningLoop()
    defer { Self.stop(loop) }
    warnings.reportOn(loop)
    // A burst small enough to fit in one window even under ThreadSanitizer, where 10,000
    // warnings outlasted the window and a second one began logging again.
    for index in 0..<200 {
      warnings.warn(.slowConsumer, "closing slow consumer", metadata: ["peer": "p\(index)"])
    }
    #expect(lines.messages == Array(repeating: "closing slow consumer", count: 5))
    // No further warning comes: the count goes out when the window ends all the same.
    #expect(eventually(timeout: .seconds(5)) { lines.messages.count == 6 })
    #expect(lines.messages.last == "warnings not logged")
    #expect(lines.counts == ["slow consumer": 195])
  }

  @Test func eachKindHasItsOwnAllowance() {
    let lines = CapturedWarnings()
    let warnings = RepeatedWarnings(logger: Logger(label: "test") { _ in lines.handler() })
    for _ in 0..<100 {
      warnings.warn(.connectionRefused, "connection refused: too many connections")
    }
    for _ in 0..<100 { warnings.warn(.authenticationFailed, "authentication failed") }
    #expect(lines.messages.filter { $0 == "authentication failed" }.count == 5)
    #expect(lines.messages.filter { $0.hasPrefix("connection refused") }.count == 5)
  }

  @Test func theNextWindowLogsAgainAndReportsThePreviousCount() throws {
    let lines = CapturedWarnings()
    let warnings = RepeatedWarnings(
      logger: Logger(label: "test") { _ in lines.handler() }, window: .milliseconds(100))
    let loop = try Self.runningLoop()
    defer { Self.stop(loop) }
    warnings.reportOn(loop)
    for _ in 0..<8 { warnings.warn(.retainedNotStored, "retained value not stored") }
    #expect(eventually(timeout: .seconds(5)) { lines.counts["retained value not stored"] == 3 })
    warnings.warn(.retainedNotStored, "retained value not stored")
    #expect(lines.messages.filter { $0 == "retained value not stored" }.count == 6)
  }

  @Test func withoutALoopTheCountWaitsForTheNextWindow() throws {
    let lines = CapturedWarnings()
    let warnings = RepeatedWarnings(
      logger: Logger(label: "test") { _ in lines.handler() }, window: .milliseconds(50))
    for _ in 0..<8 { warnings.warn(.slowConsumer, "closing slow consumer") }
    let windowOver = ContinuousClock.now + .milliseconds(60)
    #expect(eventually(timeout: .seconds(1)) { ContinuousClock.now >= windowOver })
    #expect(lines.counts.isEmpty)
    warnings.warn(.slowConsumer, "closing slow consumer")
    #expect(lines.counts == ["slow consumer": 3])
  }

  /// An event loop whose timers report the windows' counts.
  private static func runningLoop() throws -> EventLoop {
    let loop = try EventLoop(name: "warnings", logger: Logger(label: "test"))
    try loop.start()
    return loop
  }

  private static func stop(_ loop: EventLoop) {
    loop.stop()
    loop.join()
  }
}

/// Warnings captured from any thread: their messages, and the counts of the lines that say
/// how many were not logged, by kind.
final class CapturedWarnings: Sendable {
  private let captured = Locked<[(String, Logger.Metadata)]>([])

  var messages: [String] { captured.withLock { $0.map(\.0) } }

  var counts: [String: Int] {
    captured.withLock { lines in
      var counts: [String: Int] = [:]
      for (message, metadata) in lines where message == "warnings not logged" {
        counts["\(metadata["kind"] ?? "")", default: 0] += Int("\(metadata["count"] ?? "")") ?? 0
      }
      return counts
    }
  }

  func handler() -> some LogHandler { Handler(lines: self) }

  fileprivate func append(_ message: String, _ metadata: Logger.Metadata) {
    captured.withLock { $0.append((message, metadata)) }
  }

  private struct Handler: LogHandler {
    let lines: CapturedWarnings
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lines.append("\(event.message)", event.metadata ?? [:]) }
  }
}
