import Logging

/// A swift-log handler that writes one logfmt line per event, for people and log shippers.
///
/// ```
/// ts=2026-11-23T17:00:00.123Z level=notice msg="listening" address=127.0.0.1:7070
/// ```
///
/// `msg` is always quoted so a message reads the same whatever it contains; metadata follows
/// sorted by key, so lines of one kind always look alike. When standard error is the systemd
/// journal's stream, each line starts with the syslog priority (`<5>` for notice...) so that
/// `journalctl -p warning` filters, and carries no timestamp since the journal keeps its own.
public struct LogfmtLogHandler: LogHandler {
  /// Messages below this level are not logged.
  public var logLevel: Logger.Level = .info
  /// Metadata added to every line this handler writes.
  public var metadata: Logger.Metadata = [:]
  /// Contextual metadata, merged under the handler's and the event's own.
  public var metadataProvider: Logger.MetadataProvider?

  private let sink: LogSink
  private let journal: Bool

  /// A handler writing to `sink`; `journal` selects the journal's form of a line.
  public init(sink: LogSink = .standardError, journal: Bool = JournalStream.isConnected()) {
    self.sink = sink
    self.journal = journal
  }

  /// One metadata value.
  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  /// Formats `event` and writes it as one line.
  public func log(event: LogEvent) {
    var merged = metadataProvider?.get() ?? [:]
    merged.merge(metadata) { $1 }
    if let own = event.metadata { merged.merge(own) { $1 } }
    sink.write(Self.line(event: event, metadata: merged, journal: journal, time: LogTimestamp.now))
  }

  /// The text of one line, newline included. `time` is read only when the line carries one.
  package static func line(
    event: LogEvent, metadata: Logger.Metadata, journal: Bool, time: () -> String
  ) -> String {
    var line = ""
    if journal {
      line += "<\(priority(event.level))>level=\(event.level.rawValue)"
    } else {
      line += "ts=\(time()) level=\(event.level.rawValue)"
    }
    line += " msg="
    LogfmtEncoding.appendValue(event.message.description, quoted: true, to: &line)
    if let error = event.error { LogfmtEncoding.appendPair("error", "\(error)", to: &line) }
    for key in metadata.keys.sorted() {
      guard let value = metadata[key] else { continue }
      LogfmtEncoding.appendPair(key, value.description, to: &line)
    }
    return line + "\n"
  }

  /// The syslog priority of `level`, as sd-daemon(3) prefixes read it.
  static func priority(_ level: Logger.Level) -> Int {
    switch level {
    case .trace, .debug: 7
    case .info: 6
    case .notice: 5
    case .warning: 4
    case .error: 3
    case .critical: 2
    }
  }
}
