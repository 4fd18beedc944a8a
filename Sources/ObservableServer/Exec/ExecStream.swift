/// A stream whose values are the stdout lines of a command, started under `/bin/sh -c` when
/// the first observer subscribes and shared by all of them.
///
/// Each line is a value: JSON if it parses, else a string. The command is stopped (`SIGTERM`,
/// then `SIGKILL` after a grace period) and reaped when the last observer leaves, and restarted
/// with a growing delay if it exits while observed.
final class ExecStream: SourceStream, @unchecked Sendable {
  init(source: ExecSource, name: String, counters: ServerCounters) {
    self.source = source
    super.init(name: name, kind: .exec, counters: counters) { observer in
      let key = SubscriptionKey.next()
      source.attach(observer, key: key)
      return { source.detach(key: key) }
    }
  }

  override var subscriberCount: Int { source.observerCount }

  override func shutdown() { source.shutdown() }

  private let source: ExecSource
}
