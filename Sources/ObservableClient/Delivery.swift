#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One value delivered by the server to one of the client's subscriptions.
public struct Delivery: Sendable, Equatable {
  /// The concrete stream the value was published to, such as `room.1`.
  public let stream: String
  /// The name or pattern this value came through, as given to
  /// ``ObservableClient/stream(_:since:)``, such as `room.*`.
  public let subscription: String
  /// The value as the JSON bytes that arrived (compact, as the server sends it).
  public let value: Data
  /// The whole delivery line as it arrived, without its newline.
  public let line: Data
  /// Where the value stands in the server's history (`"pos"`), when the server keeps history
  /// (`--history N`); `nil` otherwise. An opaque string: pass it as `since` to
  /// ``ObservableClient/stream(_:since:)`` to resume after this value.
  public let position: String?

  /// Creates a delivery; the client makes these as lines arrive.
  public init(
    stream: String, subscription: String, value: Data, line: Data, position: String? = nil
  ) {
    self.stream = stream
    self.subscription = subscription
    self.value = value
    self.line = line
    self.position = position
  }

  /// The value as text, for printing.
  public var valueText: String { String(decoding: value, as: UTF8.self) }
}
