extension ValueObservable {
  /// Returns an observable whose values are this observable's values passed through `transform`.
  ///
  /// Subscribing to the result subscribes to this observable once; unsubscribing from the result
  /// unsubscribes from this one. The result keeps this observable alive.
  ///
  /// ```swift
  /// let doubled = numbers.map { $0 * 2 }
  /// ```
  ///
  /// - Parameter transform: Called once for every upstream value.
  /// - Returns: The transformed observable.
  public func map<U>(_ transform: @escaping (T) -> U) -> ValueObservable<U> {
    ValueObservable<U> { observer in
      self.subscribe { observer.next(transform($0)) }.unsubscribe
    }
  }
}
