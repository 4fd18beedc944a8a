import Foundation
import Synchronization
import TestSupport

/// A client that pings the server over and over while something else loads it, and keeps the
/// longest wait for a reply: a loop held by one connection's work shows as one long wait,
/// whichever moment the ping landed in.
final class BystanderProbe: Sendable {
  /// Pings through `client` until `done` returns true, then returns the longest round trip.
  /// A ping that gets no reply within `timeout` ends the probe with that timeout as the figure.
  static func longestPing(
    through client: LineClient, timeout: Duration = .seconds(60), until done: () -> Bool
  ) -> Duration {
    var longest = Duration.zero
    repeat {
      let sent = ContinuousClock.now
      guard (try? client.request(#"{"op":"ping"}"#, timeout: timeout)) != nil else {
        return timeout
      }
      longest = max(longest, ContinuousClock.now - sent)
    } while !done()
    return longest
  }

  /// Set once the loading side has finished.
  let finished = Atomic<Bool>(false)

  /// Runs `load` on a thread of its own while `client` pings; returns the longest ping, or
  /// `nil` when the load did not finish within `timeout`.
  static func longestPing(
    through client: LineClient, whileRunning load: @escaping @Sendable () -> Void,
    timeout: Duration = .seconds(120)
  ) -> Duration? {
    let probe = BystanderProbe()
    let ended = DispatchSemaphore(value: 0)
    Thread {
      load()
      probe.finished.store(true, ordering: .releasing)
      ended.signal()
    }.start()
    let longest = longestPing(through: client) {
      probe.finished.load(ordering: .acquiring)
    }
    let seconds = Double(timeout.components.seconds)
    return ended.wait(timeout: .now() + seconds) == .success ? longest : nil
  }
}
