import Foundation
import TestSupport

/// A subscriber that counts what arrives on the topics of last wills, to tell "published once"
/// from "never" and "twice".
final class WillWatcher {
  private let client: LineClient
  /// Every delivery seen so far, as (stream, value).
  private(set) var seen: [(stream: String, value: Any)] = []

  /// Subscribes a fresh connection to `port` to `pattern` (a name or a pattern).
  init(port: UInt16, pattern: String) throws {
    client = try LineClient(port: port)
    try client.request(#"{"op":"subscribe","stream":"\#(pattern)"}"#)
    seen += client.takeDeliveries().compactMap(Self.delivery)
  }

  /// Subscribes an existing connection (a Unix socket's, say) to `pattern`.
  init(client: LineClient, pattern: String) throws {
    self.client = client
    try client.request(#"{"op":"subscribe","stream":"\#(pattern)"}"#)
    seen += client.takeDeliveries().compactMap(Self.delivery)
  }

  /// Reads deliveries until `count` have arrived, up to `timeout`, then for `settle` more so
  /// that a second publication would be seen too; returns every delivery seen.
  @discardableResult
  func wait(
    forCount count: Int, timeout: Duration = .seconds(10), settle: Duration = .milliseconds(300)
  ) -> [(stream: String, value: Any)] {
    read(until: .now + timeout) { seen.count >= count }
    read(until: .now + settle) { false }
    return seen
  }

  /// The values seen on `stream`.
  func values(on stream: String) -> [Any] {
    seen.filter { $0.stream == stream }.map(\.value)
  }

  private func read(until deadline: ContinuousClock.Instant, done: () -> Bool) {
    while !done(), ContinuousClock.now < deadline {
      guard let line = try? client.readJSON(timeout: deadline - .now) else { return }
      if let delivery = Self.delivery(line) { seen.append(delivery) }
    }
  }

  private static func delivery(_ line: [String: Any]) -> (stream: String, value: Any)? {
    guard line["ok"] == nil, let stream = line["stream"] as? String, let value = line["value"]
    else { return nil }
    return (stream, value)
  }
}

/// The masked frames a WebSocket client sends, for tests over a raw ``LineClient``.
enum ClientFrames {
  /// A text frame holding `text` (shorter than 126 bytes), masked with a zero key.
  static func text(_ text: String) -> [UInt8] {
    let payload = Array(text.utf8)
    precondition(payload.count < 126, "a short frame only")
    return [0x81, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload
  }

  /// A close frame with status 1000 (normal closure), masked with a zero key.
  static let normalClose: [UInt8] = [0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE8]
}
