import Dispatch
import TestSupport

/// Runs `body` on `threadCount` new threads, each held at a start line until all of them
/// exist, so that the bodies overlap instead of running one after another.
///
/// - Returns: Whether every body finished within `timeout`. A deadlocked body makes this return
///   `false` rather than hang the test run.
func race(
  threads threadCount: Int,
  timeout: DispatchTimeInterval = .seconds(60),
  _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
  StartBarrier.run((0..<threadCount).map { index in { body(index) } }, timeout: timeout)
}
