import Locking
import Logging
import Testing

@testable import ObservableServer

/// Failed authentications are logged at a bounded rate, however fast they come.
@Suite("Authentication failures in the log")
struct AuthenticationFailuresTests {
  @Test func aBurstIsLoggedAtMostFiveTimesASecondThenCounted() {
    let lines = CapturedLines()
    let failures = AuthenticationFailures(logger: Logger(label: "test") { _ in lines.handler() })
    for index in 0..<10_000 { failures.record(peer: "peer-\(index)") }
    #expect(lines.messages.count == AuthenticationFailures.perSecond)
    #expect(lines.messages.allSatisfy { $0 == "authentication failed" })
  }
}

/// Log messages, captured from any thread.
private final class CapturedLines: Sendable {
  private let captured = Locked<[String]>([])

  var messages: [String] { captured.withLock { $0 } }

  func handler() -> some LogHandler { Handler(lines: self) }

  fileprivate func append(_ message: String) { captured.withLock { $0.append(message) } }

  private struct Handler: LogHandler {
    let lines: CapturedLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lines.append("\(event.message)") }
  }
}
