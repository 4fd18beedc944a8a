import CLinux
import Glibc

/// A socket writer whose sends a ``SendRing`` gathers. Loop thread only.
protocol RingWriter: AnyObject {
  /// The socket written to.
  var descriptor: Int32 { get }
  /// Set while the writer waits in the ring's queue, so it is queued once.
  var awaitingRing: Bool { get set }
  /// Readies the next bytes to send; returns `false` when nothing is left to send now.
  func prepareWrite() -> Bool
  /// Calls `body` with the bytes ``prepareWrite()`` readied.
  func withUnsentBytes<Value>(_ body: (UnsafeRawBufferPointer) -> Value) -> Value
  /// Takes one send's outcome; returns whether the writer has more to send.
  func wrote(_ outcome: Result<IOResult<Int>, SystemError>) -> Bool
  /// Writes now, one `send` at a time, without the ring.
  func writeNow()
}

/// Batches the sends of one event loop's turn into io_uring submissions, so that a value
/// published to thousands of connections costs a few `io_uring_enter` calls instead of one
/// `send` per connection.
///
/// Writers queue themselves during the turn; at its end ``submitQueued()`` copies each one's
/// unsent bytes (at most ``largestBatchedSend``) into a staging area, submits them all with
/// `MSG_DONTWAIT`, and hands each writer its result, exactly what `send` would have returned:
/// bytes sent, `EAGAIN` for a full socket, or an error. Writers with more to send queue again.
/// Loop thread only.
final class SendRing {
  /// Sets up a ring, or throws when the kernel forbids or lacks io_uring.
  init(entries: UInt32, counters: ServerCounters) throws(SystemError) {
    guard let ring = observable_send_ring_open(entries) else {
      throw SystemError(call: "io_uring_setup", code: errno)
    }
    self.ring = ring
    self.counters = counters
    capacity = Int(observable_send_ring_capacity(ring))
  }

  deinit {
    observable_send_ring_close(ring)
    staging.deallocate()
  }

  /// Bytes one connection sends through the ring at most; more goes out by `send` directly,
  /// where copying it would cost more than the system call it saves.
  static let largestBatchedSend = 16 * 1024

  /// Whether writers wait to be submitted.
  var hasQueued: Bool { !queued.isEmpty }

  /// Queues `writer` to send at the end of the turn.
  func enqueue(_ writer: any RingWriter) {
    guard !writer.awaitingRing else { return }
    writer.awaitingRing = true
    queued.append(writer)
  }

  /// Submits what the queued writers have to send, in a few rounds; writers still wanting to
  /// send after them wait for the next turn, so one turn stays bounded.
  func submitQueued() {
    for _ in 0..<4 where !queued.isEmpty {
      var round: [any RingWriter] = []
      swap(&round, &queued)
      // One send is as cheap without the ring, and skips the copy.
      if round.count == 1 {
        round[0].awaitingRing = false
        round[0].writeNow()
        continue
      }
      for writer in round {
        writer.awaitingRing = false
        guard writer.prepareWrite() else { continue }
        if !stage(writer) { writer.writeNow() }
      }
      submitStaged()
    }
  }

  /// Copies the writer's next bytes into the staging area and prepares their send; returns
  /// `false` when they are too many to batch.
  private func stage(_ writer: any RingWriter) -> Bool {
    let count = writer.withUnsentBytes { $0.count }
    guard count <= Self.largestBatchedSend else { return false }
    // Submitted before the writer's bytes are borrowed: the results may touch other writers.
    if staged.count == capacity || stagingUsed + count > staging.count { submitStaged() }
    return writer.withUnsentBytes { unsent in
      let target = staging.baseAddress! + stagingUsed
      target.copyMemory(from: unsent.baseAddress!, byteCount: unsent.count)
      let prepared = observable_send_ring_prepare_send(
        ring, writer.descriptor, target, UInt32(unsent.count), UInt64(staged.count))
      guard prepared == 0 else { return false }
      stagingUsed += unsent.count
      staged.append(writer)
      return true
    }
  }

  /// Submits the prepared sends in one system call and gives each writer its result.
  private func submitStaged() {
    guard !staged.isEmpty else { return }
    var batch: [any RingWriter] = []
    swap(&batch, &staged)
    stagingUsed = 0
    let submitted = observable_send_ring_submit_and_wait(ring)
    var answered = [Bool](repeating: false, count: batch.count)
    var tag: UInt64 = 0
    var result: Int32 = 0
    while observable_send_ring_next_completion(ring, &tag, &result) == 1 {
      let index = Int(tag)
      guard index < batch.count, !answered[index] else { continue }
      answered[index] = true
      let outcome: Result<IOResult<Int>, SystemError> =
        result >= 0
        ? .success(.done(Int(result)))
        : result == -EAGAIN || result == -EWOULDBLOCK
          ? .success(.wouldBlock) : .failure(SystemError(call: "send", code: -result))
      if batch[index].wrote(outcome) { enqueue(batch[index]) }
    }
    counters.update {
      $0.sendBatchesTotal += 1
      $0.batchedSendsTotal += max(0, Int(submitted))
    }
    // A submission the kernel refused (it never has here) leaves sends unanswered: they are
    // written the plain way instead.
    for (index, writer) in batch.enumerated() where !answered[index] { writer.writeNow() }
  }

  private let ring: OpaquePointer
  private let counters: ServerCounters
  private let capacity: Int
  private var queued: [any RingWriter] = []
  private var staged: [any RingWriter] = []
  private let staging = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
  private var stagingUsed = 0
}
