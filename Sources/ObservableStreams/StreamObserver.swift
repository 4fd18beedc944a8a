import IndefiniteObservable

/// The observer a connection hands to a stream when it subscribes.
///
/// Its value is one or more whole encoded lines, `{"stream":NAME,"value":V}\n` each, which the
/// stream encodes once and hands unchanged to every observer. Several lines come together when a
/// publisher's read held several values for the topic.
public struct StreamObserver: Observer, Sendable {
  /// Receives encoded lines; may be called from any thread.
  public let next: @Sendable ([UInt8]) -> Void

  /// Creates an observer that hands each line to `next`.
  public init(next: @escaping @Sendable ([UInt8]) -> Void) {
    self.next = next
  }
}
