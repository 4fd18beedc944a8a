import Foundation
import Glibc
import Locking

/// The bystander of the soak: one well-behaved client on a thread of its own that pings the
/// server 20 times a second and keeps the longest round trip, which is how long the event loop
/// serving it stalled (plus scheduling delay on a busy machine).
final class StallProbe: Sendable {
  /// What the probe saw.
  struct Figures: Sendable {
    var pings = 0
    var longestNanoseconds: UInt64 = 0
    var totalNanoseconds: UInt64 = 0
    /// Why the probe stopped early, if it did.
    var failure: String?
  }

  /// Starts pinging `address`, authenticating with `token` first when there is one.
  init(address: LoopbackAddress, token: String?) {
    Thread.detachNewThread { [self] in
      let failure = probe(address: address, token: token)
      state.withLock {
        $0.figures.failure = failure
        $0.finished = true
      }
    }
  }

  /// Waits up to 10 s for the first ping's reply, so the probe's connection is in a baseline
  /// taken afterwards; `false` when none came.
  func awaitFirstPing() -> Bool {
    let end = MonotonicTime.now() + 10_000_000_000
    while MonotonicTime.now() < end {
      if state.withLock({ $0.figures.pings > 0 || $0.finished }) { break }
      usleep(5000)
    }
    return state.withLock { $0.figures.pings > 0 }
  }

  /// Stops the probe and returns its figures; waits up to 3 s for the ping in flight.
  func stop() -> Figures {
    state.withLock { $0.stopping = true }
    let end = MonotonicTime.now() + 3_000_000_000
    while MonotonicTime.now() < end, !state.withLock({ $0.finished }) { usleep(5000) }
    return state.withLock { state in
      var figures = state.figures
      if !state.finished { figures.failure = figures.failure ?? "a ping went unanswered for 3 s" }
      return figures
    }
  }

  private struct State {
    var figures = Figures()
    var stopping = false
    var finished = false
  }

  private let state = Locked(State())
  private static let interval: UInt64 = 50_000_000

  /// The probe's loop; returns why it failed, or `nil` once asked to stop.
  private func probe(address: LoopbackAddress, token: String?) -> String? {
    do {
      let connection = try ClientConnection(to: address)
      let never = Deadline(secondsFromNow: 1e9)
      try Handshake.run([connection], deadline: never) { _ in
        token.map { #"{"op":"auth","token":"\#($0)"}"# }
      }
      while !state.withLock({ $0.stopping }) {
        let sent = MonotonicTime.now()
        connection.queueLine(#"{"op":"ping"}"#)
        try connection.flush()
        try awaitReply(connection, sent: sent)
        let took = MonotonicTime.now() - sent
        state.withLock {
          $0.figures.pings += 1
          $0.figures.totalNanoseconds += took
          $0.figures.longestNanoseconds = max($0.figures.longestNanoseconds, took)
        }
        MonotonicTime.sleep(until: sent + Self.interval)
      }
      return nil
    } catch {
      return error.description
    }
  }

  /// Waits for the ping's reply, however long it takes: the wait is the measurement. Once a
  /// stop was asked for, 2 s end the wait, so a server that stops answering cannot hold it.
  private func awaitReply(_ connection: ClientConnection, sent: UInt64) throws(BenchError) {
    while true {
      while let line = connection.nextLine() {
        if line.hasPrefix(LineShape.okTrue) { return }
      }
      var descriptor = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, 100)
      if ready == 0, MonotonicTime.now() - sent > 2_000_000_000, state.withLock({ $0.stopping }) {
        throw .timedOut("a ping the server had not answered when the soak ended")
      }
      guard ready > 0 else { continue }
      if case .closed = try connection.read() {
        throw .unexpected("the server closed the bystander's connection")
      }
    }
  }
}
