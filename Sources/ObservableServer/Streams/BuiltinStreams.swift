import ObservableCounters
import ObservableWire

/// The streams every server has.
enum BuiltinStreams {
  /// The `clock` stream: the current time as an ISO 8601 UTC string, once per second.
  static func clock() -> PeriodicSource {
    PeriodicSource(name: "clock", interval: .seconds(1)) {
      var encoded: [UInt8] = []
      JSONStringEncoding.append(UTCTimestamp.now(), to: &encoded)
      return encoded
    }
  }

  /// The `stats` stream: the server's counters, once per second.
  static func stats(counters: ServerCounters, cluster: ClusterLink? = nil) -> PeriodicSource {
    PeriodicSource(name: "stats", interval: .seconds(1)) {
      var json = counters.encodedJSON()
      // A clustered server's stats end with the link's state: `,"cluster":{…}}`.
      if let cluster {
        json.removeLast()
        json.append(contentsOf: ",\"cluster\":\(cluster.statusJSON())}".utf8)
      }
      return json
    }
  }
}
