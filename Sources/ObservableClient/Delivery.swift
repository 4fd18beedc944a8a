#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One value delivered by the server to one of the client's subscriptions.
public struct Delivery: Sendable, Equatable {
  /// The concrete stream the value was published to, such as `room.1`.
  public let stream: String
  /// The name or pattern this value came through, as given to ``ObservableClient/stream(_:)``,
  /// such as `room.*`.
  public let subscription: String
  /// The value as the JSON bytes that arrived (compact, as the server sends it).
  public let value: Data
  /// The whole delivery line as it arrived, without its newline.
  public let line: Data

  /// Creates a delivery; the client makes these as lines arrive.
  public init(stream: String, subscription: String, value: Data, line: Data) {
    self.stream = stream
    self.subscription = subscription
    self.value = value
    self.line = line
  }

  /// The value as text, for printing.
  public var valueText: String { String(decoding: value, as: UTF8.self) }
}
