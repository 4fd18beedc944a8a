import IndefiniteObservable

extension ObservableClient {
  /// The subscriptions that resumed without every value they missed, one event each time.
  ///
  /// After a reconnect, each subscription asks the server for the values after the last one
  /// it delivered. When the server's history no longer holds them all (its bounds evicted
  /// some, or the server restarted), or the server keeps no history, the values in between
  /// are lost: this reports it, on the connection thread, before the values the server still
  /// held for that subscription are delivered. A subscription that resumes completely reports
  /// nothing. The client also logs each gap as a warning.
  ///
  /// ```swift
  /// let watch = client.gaps.subscribe { gap in
  ///   print("missed values of \(gap.subscription) after \(gap.since)")
  /// }
  /// ```
  public var gaps: ValueObservable<ResumeGap> {
    let core = self.core
    return ValueObservable { observer in
      let id = core.addGapObserver(observer)
      return { core.removeGapObserver(id) }
    }
  }

  /// The last values the server's history holds for a stream, oldest first, each with its
  /// ``Delivery/position``.
  ///
  /// - Parameters:
  ///   - nameOrPattern: A stream name, or a pattern for the values of every topic it matches,
  ///     merged in position order.
  ///   - limit: How many values at most; `nil` for all that are held.
  /// - Throws: ``ClientError/server(code:message:)`` with `unsupported` when the server keeps
  ///   no history, ``ClientError/notConnected`` while reconnecting, or
  ///   ``ClientError/connectionLost``.
  public func history(
    _ nameOrPattern: String, limit: Int? = nil
  ) async throws(ClientError) -> [Delivery] {
    try await core.readHistory(nameOrPattern, limit: limit).get()
  }
}
