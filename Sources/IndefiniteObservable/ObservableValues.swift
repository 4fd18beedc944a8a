/// The values of a ``ValueObservable`` as an `AsyncSequence`, for `for await` loops.
///
/// Each iterator subscribes once, when it is made (so `for await` subscribes as the loop
/// starts), and unsubscribes when the loop ends: leaving it with `break`, `return` or a thrown
/// error, or cancelling its task. The sequence itself holds no subscription.
///
/// Values that arrive faster than the loop takes them wait in a buffer of at most `limit`
/// values; beyond it the oldest are dropped, so memory stays bounded however fast the source is.
///
/// ```swift
/// for await value in observable.values {
///   if value > 10 { break }   // unsubscribes
/// }
/// ```
public struct ObservableValues<T: Sendable>: AsyncSequence, Sendable {
  /// The type of the values.
  public typealias Element = T
  /// An indefinite observable never fails.
  public typealias Failure = Never

  /// The source, subscribed to once per iterator.
  public let observable: ValueObservable<T>
  /// The most values kept while the loop is busy.
  public let limit: Int

  /// Creates the sequence of `observable`'s values, keeping at most `limit` waiting values.
  public init(_ observable: ValueObservable<T>, limit: Int = ObservableValues.defaultLimit) {
    self.observable = observable
    self.limit = Swift.max(1, limit)
  }

  /// The buffer's size when none is given.
  public static var defaultLimit: Int { 1_024 }

  /// Subscribes to the observable; the iterator's end unsubscribes.
  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncStream<T>.makeStream(
      bufferingPolicy: .bufferingNewest(limit))
    let subscription = observable.subscribe { continuation.yield($0) }
    // AsyncStream calls this once, when the iterator goes away or its task is cancelled.
    continuation.onTermination = { _ in subscription.unsubscribe() }
    return Iterator(base: stream.makeAsyncIterator())
  }

  /// Takes values from the subscription one at a time.
  public struct Iterator: AsyncIteratorProtocol {
    // Its end (the loop's) cancels the stream, which runs `onTermination`.
    var base: AsyncStream<T>.Iterator

    /// The next value; waits for one. Returns `nil` only once the task is cancelled.
    public mutating func next() async -> T? {
      await base.next()
    }

    /// The next value, as `AsyncIteratorProtocol` asks for in an isolation context.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> T? {
      await base.next(isolation: actor)
    }
  }
}

extension ValueObservable where T: Sendable {
  /// This observable's values as an `AsyncSequence`: a `for await` loop over it subscribes as
  /// it starts and unsubscribes as it ends. See ``ObservableValues``.
  public var values: ObservableValues<T> { ObservableValues(self) }
}
