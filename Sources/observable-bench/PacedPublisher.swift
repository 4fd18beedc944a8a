import Foundation
import Glibc
import Synchronization

/// The latency scenario's publisher: a thread of its own that publishes at a fixed rate, each
/// message stamped with the moment it is written.
///
/// Pacing needs sleeps far shorter than poll(2)'s millisecond timeout, so the publisher sleeps
/// on an absolute CLOCK_MONOTONIC deadline in its own thread while the subscribers are read on
/// another. Messages that fall due together (a late wake-up) go out in one write.
final class PacedPublisher: Sendable {
  /// What to publish, where and how fast.
  struct Plan: Sendable {
    var address: LoopbackAddress
    var stream: String
    var payload: Payload
    var rate: Int
    var messages: Int
  }

  /// What the thread did, once it has finished.
  struct Report: Sendable {
    var acknowledged = 0
    var errors = 0
    var firstError: String?
    /// The latest a write went out after its first message fell due, in nanoseconds.
    var maxScheduleLag: UInt64 = 0
    /// Why the thread stopped early, if it did.
    var failure: String?
  }

  /// Messages written to the socket so far.
  let published = Atomic<Int>(0)

  /// Starts the thread; it connects, waits for the greeting, then publishes.
  init(plan: Plan, deadline: Deadline) {
    Thread.detachNewThread { [self] in
      var report = Report()
      do {
        try publish(plan: plan, deadline: deadline, report: &report)
      } catch {
        report.failure = "publisher: \(error)"
      }
      self.outcome.withLock { $0 = report }
    }
  }

  /// The report, once the thread has finished.
  var report: Report? { outcome.withLock { $0 } }

  private let outcome = Mutex<Report?>(nil)

  private func publish(plan: Plan, deadline: Deadline, report: inout Report) throws(BenchError) {
    let connection = try ClientConnection(to: plan.address)
    try Handshake.run([connection], deadline: deadline) { _ in nil }
    let line = PublishLine(stream: plan.stream, payload: plan.payload)
    let schedule = PublishSchedule(rate: plan.rate, messages: plan.messages)
    var sent = 0
    while sent < plan.messages {
      try deadline.check("publishing at \(plan.rate)/s")
      let now = MonotonicTime.now()
      let due = schedule.due(at: now)
      if due > sent {
        report.maxScheduleLag = max(report.maxScheduleLag, schedule.lag(of: sent, at: now))
        let first = sent
        let stamp = MonotonicTime.now()
        connection.queue(byteCount: (due - first) * line.length) { buffer in
          for offset in 0..<(due - first) {
            line.write(
              sequence: UInt64(first + offset), time: stamp, to: buffer + offset * line.length)
          }
        }
        try writeAll(connection, deadline: deadline)
        sent = due
        published.store(sent, ordering: .releasing)
      }
      try readAcknowledgements(connection, report: &report)
      schedule.sleep(untilDue: sent)
    }
    // The last answers, so that errors on the final publishes are counted too.
    let end = min(deadline.end, MonotonicTime.now() + 2_000_000_000)
    while report.acknowledged + report.errors < sent, MonotonicTime.now() < end {
      var descriptor = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, 50)
      try readAcknowledgements(connection, report: &report)
    }
  }

  private func writeAll(_ connection: ClientConnection, deadline: Deadline) throws(BenchError) {
    while try !connection.flush() {
      try deadline.check("writing publishes")
      var descriptor = pollfd(fd: connection.descriptor, events: Int16(POLLOUT), revents: 0)
      _ = poll(&descriptor, 1, deadline.pollTimeout())
    }
  }

  /// Reads whatever answers have arrived, without waiting, so the server never queues them.
  private func readAcknowledgements(
    _ connection: ClientConnection, report: inout Report
  ) throws(BenchError) {
    while true {
      switch try connection.read() {
      case .closed: throw .unexpected("the server closed the publisher's connection")
      case .wouldBlock: return
      case .bytes:
        while let line = connection.nextLine() {
          if line.hasPrefix(LineShape.okTrue) {
            report.acknowledged += 1
          } else if line.hasPrefix(LineShape.okFalse) {
            report.errors += 1
            if report.firstError == nil { report.firstError = line.text }
          }
        }
      }
    }
  }
}
