/// How long to wait before the next connection attempt: exponential back-off with jitter,
/// capped, so that nodes which lost the same server do not all retry in step.
public struct NATSReconnectPolicy: Sendable, Equatable {
  /// The wait after the first failed attempt.
  public var initialDelay: Duration
  /// The factor between one wait and the next.
  public var multiplier: Double
  /// The longest wait, jitter included.
  public var maxDelay: Duration
  /// The fraction of each wait that is random: a wait of `d` becomes one in
  /// `d × (1 − jitter) ... d`.
  public var jitter: Double

  /// A policy; the defaults retry quickly after a server dies and reach the cap in 6 steps.
  public init(
    initialDelay: Duration = .milliseconds(100), multiplier: Double = 2,
    maxDelay: Duration = .seconds(5), jitter: Double = 0.3
  ) {
    self.initialDelay = initialDelay
    self.multiplier = max(multiplier, 1)
    self.maxDelay = maxDelay
    self.jitter = min(max(jitter, 0), 1)
  }

  /// The wait after `failures` failed attempts in a row (1 or more).
  public func delay(afterFailures failures: Int, using generator: inout some RandomNumberGenerator)
    -> Duration
  {
    let ceiling = seconds(maxDelay)
    let exponent = Double(max(failures - 1, 0))
    // Stop multiplying once past the cap, so no number of failures overflows.
    let base = min(seconds(initialDelay) * pow(multiplier, min(exponent, 64)), ceiling)
    let jittered = base * (1 - jitter * Double.random(in: 0..<1, using: &generator))
    return .nanoseconds(Int64((jittered * 1e9).rounded()))
  }

  private func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  private func pow(_ base: Double, _ exponent: Double) -> Double {
    var result = 1.0
    for _ in 0..<Int(exponent) { result *= base }
    return result
  }
}
