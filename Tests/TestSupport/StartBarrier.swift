import Dispatch
import Foundation
import Synchronization

/// Runs bodies on threads of their own that all wait at a start line until every thread exists,
/// so that the bodies overlap rather than run one after another.
public enum StartBarrier {
  /// Runs every body on its own thread; returns whether all of them finished within `timeout`,
  /// so that a deadlock fails the test instead of hanging the run.
  public static func run(
    _ bodies: [@Sendable () -> Void],
    timeout: DispatchTimeInterval = .seconds(50)
  ) -> Bool {
    let finished = DispatchGroup()
    let line = StartLine(runners: bodies.count)
    for body in bodies {
      finished.enter()
      Thread {
        line.arriveAndWait()
        body()
        finished.leave()
      }.start()
    }
    return finished.wait(timeout: .now() + timeout) == .success
  }
}

/// The start line: each thread arrives, then spins until all have arrived.
private final class StartLine: Sendable {
  init(runners: Int) {
    self.runners = runners
  }

  func arriveAndWait() {
    arrived.add(1, ordering: .acquiringAndReleasing)
    // Spinning rather than blocking keeps the runners awake so that they leave together.
    while arrived.load(ordering: .acquiring) < runners {
      sched_yield()
    }
  }

  private let runners: Int
  private let arrived = Atomic<Int>(0)
}
