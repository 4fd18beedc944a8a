/// Forgetting values past `--history-ttl` on a timer.
extension StreamHistory {
  /// Starts forgetting expired values on `scheduler` every ``expiryInterval``, with
  /// `--history-ttl`: otherwise only a publish, a resume or a read would, and a topic gone
  /// quiet would hold its values, up to `--max-history-bytes`, until the next one.
  package func start(on scheduler: any StreamScheduler) {
    guard configuration.timeToLive != nil else { return }
    expiryScheduler.withLock { $0 = scheduler }
    scheduler.execute { [self] in scheduleExpiry(on: scheduler) }
  }

  /// Stops forgetting expired values on a timer.
  package func shutdown() {
    let scheduler = expiryScheduler.withLock { $0.take() }
    scheduler?.execute { [self] in
      expiryTimer?.cancel()
      expiryTimer = nil
    }
  }

  /// How often expired values are looked for: half the time to live, within 1 to 60 seconds;
  /// a value outlives `--history-ttl` by at most this.
  var expiryInterval: Duration {
    min(max((configuration.timeToLive ?? .zero) / 2, .seconds(1)), .seconds(60))
  }

  /// On the scheduler's thread.
  private func scheduleExpiry(on scheduler: any StreamScheduler) {
    guard expiryScheduler.withLock({ $0 != nil }) else { return }
    expiryTimer = scheduler.scheduleTimer(in: expiryInterval) { [self] in
      expiryTimer = nil
      let now = HistoryClock.now(for: configuration.timeToLive)
      state.withLock { state in
        state.log.evictExpired(now: now)
        report(&state, delivered: 0)
      }
      scheduleExpiry(on: scheduler)
    }
  }
}
