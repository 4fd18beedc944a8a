import Foundation
import TestSupport

/// A client on its own thread that publishes retained values `base + i` to topic
/// `k.(i % topics)`, `window` at a time, and counts the replies that came back `ok`, until it
/// has sent `count` or the server goes away.
///
/// Replies come in request order, so `acknowledged` = n means publishes 0..<n were answered.
final class RetainedPublisher: Sendable {
  /// How many publishes were answered `ok`, in order.
  let acknowledged = LockedValue(0)
  /// Set once the thread has ended.
  let finished = LockedValue(false)

  /// Starts publishing to the server at `port`.
  init(port: UInt16, base: Int, count: Int, topics: Int, window: Int = 200) throws {
    let client = try LineClient(port: port)
    let (acknowledged, finished) = (self.acknowledged, self.finished)
    Thread.detachNewThread {
      defer {
        client.close()
        finished.withLock { $0 = true }
      }
      var next = 0
      while next < count {
        let end = min(count, next + window)
        var lines = ""
        for index in next..<end {
          lines +=
            #"{"op":"publish","stream":"k.\#(index % topics)","value":\#(base + index),"retain":true}"#
          lines += "\n"
        }
        guard (try? client.sendRaw(Array(lines.utf8))) != nil else { return }
        for _ in next..<end {
          guard let reply = try? client.readReply(timeout: .seconds(10)),
            reply["ok"] as? Bool == true
          else { return }
          acknowledged.withLock { $0 += 1 }
        }
        next = end
      }
    }
  }

  /// Waits for the thread to end, up to 15 s.
  func join() -> Bool {
    eventually(timeout: .seconds(15)) { finished.value }
  }

  /// Which publish's value topic `k.topic` must hold when the store kept exactly publishes
  /// 0..<kept of a round: the last of them to that topic, or `nil` when none was.
  static func expectedIndex(topic: Int, kept: Int, topics: Int) -> Int? {
    guard kept > topic else { return nil }
    return topic + (kept - 1 - topic) / topics * topics
  }
}
