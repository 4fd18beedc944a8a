extension ValueObservable {
  /// Returns an observable that emits only the values for which `isIncluded` returns `true`.
  ///
  /// Subscribing to the result subscribes to this observable once; unsubscribing from the result
  /// unsubscribes from this one. The result keeps this observable alive.
  ///
  /// ```swift
  /// let evens = numbers.filter { $0 % 2 == 0 }
  /// ```
  ///
  /// - Parameter isIncluded: Called once for every upstream value.
  /// - Returns: The filtered observable.
  public func filter(_ isIncluded: @escaping (T) -> Bool) -> ValueObservable<T> {
    ValueObservable<T> { observer in
      self.subscribe { value in
        if isIncluded(value) { observer.next(value) }
      }.unsubscribe
    }
  }
}
