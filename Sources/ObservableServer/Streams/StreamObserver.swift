import IndefiniteObservable

/// The observer a connection hands to a stream when it subscribes.
///
/// Its value is one encoded line, `{"stream":NAME,"value":V}\n`, which the stream encodes once
/// and hands unchanged to every observer.
public struct StreamObserver: Observer, Sendable {
  /// Receives each encoded line; may be called from any thread.
  public let next: @Sendable ([UInt8]) -> Void

  /// Creates an observer that hands each line to `next`.
  public init(next: @escaping @Sendable ([UInt8]) -> Void) {
    self.next = next
  }
}
