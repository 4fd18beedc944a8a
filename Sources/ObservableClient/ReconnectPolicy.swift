/// How long a client waits before each reconnection attempt: exponential back-off with jitter
/// and a cap.
///
/// The delay before attempt `n` (from 0) is `min(maximumDelay, initialDelay × multiplierⁿ)`,
/// then scaled by a random factor in `1 − jitter … 1 + jitter`, so that many clients cut off at
/// once do not all come back at the same instant.
public struct ReconnectPolicy: Sendable, Equatable {
  /// The delay before the first attempt after a drop.
  public var initialDelay: Duration
  /// How much longer each further delay is.
  public var multiplier: Double
  /// The longest delay, before jitter.
  public var maximumDelay: Duration
  /// The fraction by which a delay may randomly be longer or shorter, from 0 to 1.
  public var jitter: Double

  /// Creates a policy; the defaults start at 100 ms and double up to 5 s, give or take 20 %.
  public init(
    initialDelay: Duration = .milliseconds(100), multiplier: Double = 2,
    maximumDelay: Duration = .seconds(5), jitter: Double = 0.2
  ) {
    self.initialDelay = initialDelay
    self.multiplier = max(1, multiplier)
    self.maximumDelay = maximumDelay
    self.jitter = min(max(jitter, 0), 1)
  }

  /// The delay before attempt `attempt` (0 for the first after a drop), jitter included.
  public func delay(beforeAttempt attempt: Int) -> Duration {
    delay(beforeAttempt: attempt, random: Double.random(in: -1...1))
  }

  /// The delay for `attempt` with the jitter's random draw given, from −1 to 1.
  func delay(beforeAttempt attempt: Int, random: Double) -> Duration {
    let initial = seconds(initialDelay)
    let cap = seconds(maximumDelay)
    // Grown step by step and stopped at the cap, so a long outage never overflows.
    var grown = initial
    for _ in 0..<max(attempt, 0) where grown < cap { grown *= multiplier }
    let base = min(cap, grown)
    let jittered = base * (1 + jitter * min(max(random, -1), 1))
    return .nanoseconds(Int64(max(0, jittered) * 1e9))
  }

  private func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
