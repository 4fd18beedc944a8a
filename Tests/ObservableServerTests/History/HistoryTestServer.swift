import Foundation
import TestSupport

@testable import ObservableServer

/// Servers with topic history for the history suites, and the requests they make.
extension TestServer {
  /// A server keeping `values` per topic, `--history-ttl` of `ttl` and `maxBytes` in all,
  /// under epoch 0x0000abcd so positions are predictable, with HTTP when `http`.
  static func withHistory(
    _ values: Int = 100, ttl: Duration? = nil, maxBytes: Int = 64 << 20, http: Bool = false
  ) throws -> TestServer {
    try TestServer {
      $0.historyPerTopic = values
      $0.historyTimeToLive = ttl
      $0.maxHistoryBytes = maxBytes
      $0.historyEpoch = 0xabcd
      if http { $0.httpListen = [.tcp(host: "127.0.0.1", port: 0)] }
    }
  }
}

extension LineClient {
  /// Sends `history` for `stream` and returns the values, in the order they came, and the reply.
  func history(_ stream: String, limit: Int? = nil) throws -> (
    values: [[String: Any]], reply: [String: Any]
  ) {
    let limitField = limit.map { #","limit":\#($0)"# } ?? ""
    let reply = try request(#"{"op":"history","stream":"\#(stream)"\#(limitField)}"#)
    return (takeDeliveries(), reply)
  }

  /// Reads values until `count` have arrived (replies in between are skipped).
  func readValues(_ count: Int) throws -> [[String: Any]] {
    var values = takeDeliveries()
    while values.count < count {
      let line = try readJSON()
      if line["ok"] == nil { values.append(line) }
    }
    return values
  }
}

/// The error code of a reply, if it is an error.
func errorCode(_ reply: [String: Any]) -> String? {
  (reply["error"] as? [String: Any])?["code"] as? String
}
