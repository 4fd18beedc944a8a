import ObservableCounters
import ObservableWire

/// The streams every server has.
package enum BuiltinStreams {
  /// The `clock` stream: the time `now` gives (an ISO 8601 UTC string), once per second.
  ///
  /// The wall clock comes from the caller because reading it is a system call, which this
  /// layer does not make (`ObservableServer` passes `UTCTimestamp.now`).
  package static func clock(now: @escaping @Sendable () -> String) -> PeriodicSource {
    PeriodicSource(name: "clock", interval: .seconds(1)) {
      var encoded: [UInt8] = []
      JSONStringEncoding.append(now(), to: &encoded)
      return encoded
    }
  }

  /// The `stats` stream: the server's counters, once per second.
  package static func stats(
    counters: ServerCounters, replication: (any StreamReplication)? = nil
  ) -> PeriodicSource {
    PeriodicSource(name: "stats", interval: .seconds(1)) {
      var json = counters.encodedJSON()
      // A clustered server's stats end with the link's state: `,"cluster":{…}}`.
      if let replication {
        json.removeLast()
        json.append(contentsOf: ",\"cluster\":\(replication.statusJSON())}".utf8)
      }
      return json
    }
  }
}
