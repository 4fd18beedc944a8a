import Dispatch
import Foundation
import Locking

/// A built-in stream that sends each observer a fresh value right after it subscribes and then
/// once per interval, from a timer of its own that its disconnect cancels.
final class PeriodicStream: SourceStream, @unchecked Sendable {
  /// Creates a stream whose values `makeValue` encodes as JSON.
  init(
    name: String,
    interval: DispatchTimeInterval,
    counters: ServerCounters,
    makeValue: @escaping @Sendable () -> [UInt8]
  ) {
    let observers = ObserverTally()
    self.observers = observers
    let queue = DispatchQueue(label: "observable-server.\(name)")
    super.init(name: name, kind: .builtin, counters: counters) { observer in
      observers.count.withLock { $0 += 1 }
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.setEventHandler {
        let line = makeValue().withUnsafeBytes { DeliveryEncoder.line(stream: name, rawValue: $0) }
        observer.next(line)
      }
      timer.schedule(deadline: .now(), repeating: interval, leeway: .milliseconds(10))
      timer.activate()
      return {
        timer.cancel()
        observers.count.withLock { $0 -= 1 }
      }
    }
  }

  override var subscriberCount: Int { observers.count.withLock { $0 } }

  private let observers: ObserverTally
}

/// How many observers a periodic stream has, shared with its connect closure.
private final class ObserverTally: Sendable {
  let count = Locked(0)
}

extension PeriodicStream {
  /// The `clock` stream: the current time as an ISO 8601 UTC string, once per second.
  static func clock(counters: ServerCounters) -> PeriodicStream {
    PeriodicStream(name: "clock", interval: .seconds(1), counters: counters) {
      var encoded: [UInt8] = []
      JSONStringEncoding.append(Date.now.formatted(.iso8601), to: &encoded)
      return encoded
    }
  }

  /// The `stats` stream: the server's counters, once per second.
  static func stats(counters: ServerCounters) -> PeriodicStream {
    PeriodicStream(name: "stats", interval: .seconds(1), counters: counters) {
      counters.encodedJSON()
    }
  }
}
