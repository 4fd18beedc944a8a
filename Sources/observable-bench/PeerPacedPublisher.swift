import Foundation
import Glibc
import PeerWire
import Synchronization

/// The latency comparison's publisher: a thread of its own that publishes to a compared server
/// at a fixed rate in the server's protocol, each payload stamped with the moment it is written.
///
/// The same pacing as ``PacedPublisher`` (an absolute CLOCK_MONOTONIC sleep, messages that fall
/// due together written at once), but through ``PeerConnection``, so that observable-server,
/// Redis and NATS are paced by the same code.
final class PeerPacedPublisher: Sendable {
  /// Where and what to publish, and how fast.
  struct Plan: Sendable {
    var port: UInt16
    var dialect: PeerDialect
    var stream: String
    var payload: Payload
    var rate: Int
    var messages: Int
    /// The client id of the publisher's connection (MQTT wants each distinct).
    var clientID: Int
  }

  /// Messages written to the socket so far.
  let published = Atomic<Int>(0)

  /// Starts the thread; it connects, completes its opening, then publishes.
  init(plan: Plan, deadline: Deadline) {
    Thread.detachNewThread { [self] in
      var outcome = PacedPublisher.Report()
      do {
        try publish(plan: plan, deadline: deadline, report: &outcome)
      } catch {
        outcome.failure = "publisher: \(error)"
      }
      self.outcome.withLock { $0 = outcome }
    }
  }

  /// The report, once the thread has finished.
  var report: PacedPublisher.Report? { outcome.withLock { $0 } }

  private let outcome = Mutex<PacedPublisher.Report?>(nil)

  private func publish(
    plan: Plan, deadline: Deadline, report: inout PacedPublisher.Report
  ) throws(BenchError) {
    let connection = try PeerConnection(
      port: plan.port, dialect: plan.dialect, tls: nil, stream: plan.stream)
    try PeerOpening.run(
      [connection], streams: { _ in plan.stream }, tls: false, firstClientID: plan.clientID,
      deadline: deadline, isPublisher: { _ in true })
    let framing = plan.dialect.publishFraming(topic: plan.stream, payloadBytes: plan.payload.size)
    let template = framing.prefix + plan.payload.template + framing.suffix
    let payloadOffset = framing.prefix.count
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
        // withUnsafeBytes rethrows untyped errors, so the typed one is carried out by hand.
        let failure = template.withUnsafeBytes { line -> BenchError? in
          do throws(BenchError) {
            try connection.queue(byteCount: (due - first) * line.count) { buffer in
              for offset in 0..<(due - first) {
                let destination = buffer + offset * line.count
                destination.copyMemory(from: line.baseAddress!, byteCount: line.count)
                let payload = destination + payloadOffset
                Payload.writeDigits(
                  UInt64(first + offset), count: Payload.sequenceDigits,
                  to: payload + Payload.sequenceOffset)
                Payload.writeDigits(
                  stamp, count: Payload.timeDigits, to: payload + Payload.timeOffset)
              }
            }
            return nil
          } catch {
            return error
          }
        }
        if let failure { throw failure }
        try writeAll(connection, deadline: deadline)
        sent = due
        published.store(sent, ordering: .releasing)
      }
      try readAnswers(connection, report: &report)
      schedule.sleep(untilDue: sent)
    }
  }

  private func writeAll(_ connection: PeerConnection, deadline: Deadline) throws(BenchError) {
    while try !connection.flush() {
      try deadline.check("writing publishes")
      var descriptor = pollfd(fd: connection.descriptor, events: Int16(POLLOUT), revents: 0)
      _ = poll(&descriptor, 1, deadline.pollTimeout())
    }
  }

  /// Reads whatever answers have arrived (acknowledgements, pings), without waiting, so the
  /// server never queues them.
  private func readAnswers(
    _ connection: PeerConnection, report: inout PacedPublisher.Report
  ) throws(BenchError) {
    var refusal: String?
    var acknowledged = 0
    let open = try connection.read { message in
      switch message {
      case .acknowledged: acknowledged += 1
      case .refused(let text): refusal = refusal ?? text
      default: break
      }
    }
    report.acknowledged += acknowledged
    if let refusal {
      report.errors += 1
      if report.firstError == nil { report.firstError = refusal }
    }
    if connection.hasPendingOutput { try connection.flush() }
    guard open else { throw .unexpected("the server closed the publisher's connection") }
  }
}
