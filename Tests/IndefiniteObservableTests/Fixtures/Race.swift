import Dispatch
import Foundation
import Locking

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
  let startLine = StartLine(runners: threadCount)
  let finished = DispatchGroup()
  for index in 0..<threadCount {
    finished.enter()
    Thread {
      startLine.arriveAndWait()
      body(index)
      finished.leave()
    }.start()
  }
  return finished.wait(timeout: .now() + timeout) == .success
}

private final class StartLine: Sendable {
  init(runners: Int) {
    self.runners = runners
  }

  func arriveAndWait() {
    arrived.withLock { $0 += 1 }
    // Spinning rather than blocking keeps every runner awake, so they leave the line together.
    while arrived.withLock({ $0 }) < runners {
      sched_yield()
    }
  }

  private let runners: Int
  private let arrived = Locked(0)
}
