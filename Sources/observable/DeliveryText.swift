import ObservableClient
import ObservableWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How `observable sub` and `observable history` print one delivery.
enum DeliveryText {
  /// The delivery line as received with `json`; otherwise `NAME VALUE`, with the value as
  /// compact JSON, preceded by `POS ` with `positions` (`- ` when the server sent none).
  static func line(_ delivery: Delivery, json: Bool, positions: Bool) -> String {
    if json { return String(decoding: delivery.line, as: UTF8.self) }
    let text =
      "\(delivery.stream) \(String(decoding: JSONText.compact(delivery.value), as: UTF8.self))"
    return positions ? "\(delivery.position ?? "-") \(text)" : text
  }
}
