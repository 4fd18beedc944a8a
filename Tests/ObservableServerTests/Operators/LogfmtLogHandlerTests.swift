import Foundation
import Glibc
import Locking
import Logging
import Testing

@testable import ObservableLogging
@testable import ObservableServer

/// The log handler's lines, read back by an independent logfmt parser (a Python script).
@Suite("Logfmt log lines", .timeLimit(.minutes(1)))
struct LogfmtLogHandlerTests {
  /// One parsed line: the syslog priority, if any, and its pairs in order.
  struct ParsedLine {
    var priority: Int?
    var pairs: [(key: String, value: String)]

    func value(_ key: String) -> String? { pairs.first { $0.key == key }?.value }
  }

  static func parse(_ text: String) throws -> [ParsedLine] {
    let output = try PythonScript(name: "logfmt_parse.py").run(input: Data(text.utf8))
    return try output.split(separator: UInt8(ascii: "\n")).map { line in
      let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
      let pairs = try #require(object["pairs"] as? [[String]])
      return ParsedLine(
        priority: object["priority"] as? Int, pairs: pairs.map { ($0[0], $0[1]) })
    }
  }

  static func line(
    _ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata = [:],
    journal: Bool = false
  ) -> String {
    let event = LogEvent(
      level: level, message: "\(message)", metadata: nil, source: "test", file: #fileID,
      function: #function, line: #line)
    return LogfmtLogHandler.line(
      event: event, metadata: metadata, journal: journal, time: { "2026-11-23T17:00:00.123Z" })
  }

  static let awkwardValues = [
    "plain", "two words", "", "a=b", "say \"hi\"", "back\\slash", "line\nbreak", "cr\rtab\t",
    "bell\u{07}nul\u{00}", "del\u{7F}", "c1\u{85}", "sep\u{2028}", "é ünïcode 🎉", "=", "\"",
    " leading", "trailing ", "nbsp\u{A0}x",
  ]

  @Test func everyAwkwardValueReadsBackExactly() throws {
    var metadata: Logger.Metadata = [:]
    for (index, value) in Self.awkwardValues.enumerated() {
      metadata[String(format: "k%02d", index)] = "\(value)"
    }
    let text = Self.awkwardValues.map { Self.line(.info, $0, metadata) }.joined()
    #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 19)
    let parsed = try Self.parse(text)
    try #require(parsed.count == Self.awkwardValues.count)
    for (line, message) in zip(parsed, Self.awkwardValues) {
      #expect(line.pairs.map(\.key).prefix(3) == ["ts", "level", "msg"])
      #expect(line.value("msg") == message)
      for (index, value) in Self.awkwardValues.enumerated() {
        #expect(line.value(String(format: "k%02d", index)) == value, "value \(index)")
      }
    }
  }

  @Test func plainValuesStayUnquotedAndMessagesAreAlwaysQuoted() {
    let line = Self.line(.notice, "listening", ["address": "127.0.0.1:7070"])
    #expect(
      line == "ts=2026-11-23T17:00:00.123Z level=notice msg=\"listening\" address=127.0.0.1:7070\n")
  }

  @Test func metadataIsSortedAndKeysAreMadeSafe() throws {
    let line = Self.line(.info, "m", ["zeta": "1", "alpha": "2", "mid dle=\"": "3", "": "4"])
    let parsed = try #require(try Self.parse(line).first)
    #expect(parsed.pairs.map(\.key) == ["ts", "level", "msg", "_", "alpha", "mid_dle__", "zeta"])
    #expect(parsed.pairs.map(\.value).suffix(4) == ["4", "2", "3", "1"])
  }

  @Test func aHugeValueIsCutAtACharacterBoundary() throws {
    let huge = String(repeating: "é", count: 10_000)
    let line = Self.line(.info, "big", ["v": "\(huge)"])
    #expect(line.utf8.count < LogfmtEncoding.maximumValueBytes + 200)
    let value = try #require(try Self.parse(line).first?.value("v"))
    #expect(value.hasSuffix("…") && value.dropLast().allSatisfy { $0 == "é" })
  }

  @Test func journalLinesCarryThePriorityAndNoTimestamp() throws {
    let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
    let text = levels.map { Self.line($0, "x", journal: true) }.joined()
    let parsed = try Self.parse(text)
    #expect(parsed.map(\.priority) == [7, 7, 6, 5, 4, 3, 2])
    #expect(parsed.allSatisfy { $0.value("ts") == nil })
    #expect(parsed.map { $0.value("level") } == levels.map(\.rawValue))
  }

  @Test func timestampsAreRFC3339InUTCWithMilliseconds() {
    #expect(LogTimestamp.format(seconds: 0, milliseconds: 7) == "1970-01-01T00:00:00.007Z")
    #expect(
      LogTimestamp.format(seconds: 1_795_453_200, milliseconds: 123) == "2026-11-23T17:00:00.123Z")
    let now = LogTimestamp.now()
    #expect(
      now.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression)
        != nil)
  }

  @Test func handlerMergesProviderHandlerAndEventMetadata() throws {
    let (sink, read) = try Self.pipeSink()
    var handler = LogfmtLogHandler(sink: sink, journal: false)
    handler.metadataProvider = Logger.MetadataProvider { ["from": "provider", "p": "1"] }
    handler[metadataKey: "from"] = "handler"
    handler[metadataKey: "h"] = "2"
    let logger = Logger(label: "t") { _ in handler }
    logger.warning("careful", metadata: ["e": "3"])
    let parsed = try #require(try Self.parse(read()).first)
    #expect(parsed.value("level") == "warning")
    #expect(parsed.value("from") == "handler")
    #expect([parsed.value("p"), parsed.value("h"), parsed.value("e")] == ["1", "2", "3"])
  }

  @Test func linesFromManyThreadsNeverInterleave() throws {
    let (sink, read) = try Self.pipeSink()
    let handler = LogfmtLogHandler(sink: sink, journal: false)
    let threads = 8
    let perThread = 100
    let padding = String(repeating: "x y", count: 1_200)  // two make a line over PIPE_BUF
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      let logger = Logger(label: "t") { _ in handler }
      for index in 0..<perThread {
        logger.info(
          "message \(index)",
          metadata: ["thread": "\(thread)", "a": "\(padding)", "b": "\(padding)"])
      }
    }
    let parsed = try Self.parse(read())
    #expect(parsed.count == threads * perThread)
    for thread in 0..<threads {
      let messages = parsed.filter { $0.value("thread") == "\(thread)" }.map { $0.value("msg") }
      #expect(messages == (0..<perThread).map { "message \($0)" })
    }
  }

  /// A sink on a pipe drained by a reader thread, as stderr is under systemd or a shell, and
  /// a function that closes the pipe and returns everything written.
  ///
  /// On a pipe a write larger than `PIPE_BUF` may be split, so lines longer than that show
  /// whether the sink keeps each line whole.
  static func pipeSink() throws -> (LogSink, () -> String) {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    // One page (F_SETPIPE_SZ) read a little at a time, so long lines cannot go in one step.
    _ = fcntl(writeEnd, 1031, 4096)
    let received = Locked<[UInt8]>([])
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var buffer = [UInt8](repeating: 0, count: 1000)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        received.withLock { $0 += buffer[0..<count] }
      }
      close(readEnd)
      finished.signal()
    }
    return (
      LogSink(descriptor: writeEnd),
      {
        close(writeEnd)
        _ = finished.wait(timeout: .now() + 10)
        return String(decoding: received.withLock { $0 }, as: UTF8.self)
      }
    )
  }
}
