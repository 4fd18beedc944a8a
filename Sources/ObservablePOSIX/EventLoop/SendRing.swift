import CLinux
import Glibc
import ObservableCounters

/// A socket writer whose sends a ``SendRing`` gathers. Loop thread only.
package protocol RingWriter: AnyObject {
  /// The socket written to.
  var descriptor: Int32 { get }
  /// Set while the writer waits in the ring's queue, so it is queued once.
  var awaitingRing: Bool { get set }
  /// Readies the next bytes to send; returns `false` when nothing is left to send now.
  func prepareWrite() -> Bool
  /// How many of the bytes ``prepareWrite()`` readied are not sent yet.
  var unsentCount: Int { get }
  /// Copies the ``unsentCount`` bytes not sent yet to `target`.
  ///
  /// A copy rather than a borrowed buffer: a closure over the writer's bytes, called through
  /// this protocol from another module, cost a retain and a runtime exclusivity check per send.
  func copyUnsentBytes(to target: UnsafeMutableRawPointer)
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
/// Each send is matched to its completion by a token in a ``SendLedger``, never by its place
/// in the batch, so an error path can neither send bytes twice nor charge a result to another
/// writer. Loop thread only.
package final class SendRing {
  /// The io_uring operations batched sends use, each of which the kernel must support.
  package static let requiredOperations = [observable_send_ring_send_operation()]

  /// Sets up a ring, or throws when the kernel forbids or lacks io_uring, or lacks one of
  /// `operations` (a test names one no kernel has).
  package init(
    entries: UInt32, counters: ServerCounters, requiring operations: [UInt8] = requiredOperations
  ) throws(SendRingUnavailable) {
    guard let ring = observable_send_ring_open(entries) else {
      throw .setup(SystemError(call: "io_uring_setup", code: errno))
    }
    let supported = observable_send_ring_first_unsupported(
      ring, operations, UInt32(operations.count))
    guard supported == operations.count else {
      observable_send_ring_close(ring)
      if supported < 0 {
        throw .probe(SystemError(call: "io_uring_register(PROBE)", code: -supported))
      }
      throw .missingOperation(operations[Int(supported)])
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

  /// The loop the ring belongs to, set by the loop; debug builds check each call runs there.
  package weak var loop: EventLoop?

  /// How many prepared sends one submission hands the kernel at most; the rest are withdrawn
  /// and written directly. Only a test lowers it, to stand in for a kernel that takes fewer.
  var submissionLimit = UInt32.max

  /// Whether a submission hands out its completions before it returns. Only a test clears it,
  /// to stand in for a wait for completions that failed: they are then taken in a later turn.
  var takesCompletionsAtOnce = true

  /// Whether writers wait to be submitted.
  var hasQueued: Bool { !queued.isEmpty }

  /// How many sends were handed to the kernel and have not completed: none, unless waiting for
  /// completions failed.
  package var inFlight: Int { ledger.count }

  /// Queues `writer` to send at the end of the turn.
  package func enqueue(_ writer: any RingWriter) {
    assertOnLoop()
    guard !writer.awaitingRing else { return }
    writer.awaitingRing = true
    queued.append(writer)
  }

  /// Submits what the queued writers have to send, in a few rounds; writers still wanting to
  /// send after them wait for the next turn, so one turn stays bounded.
  func submitQueued() {
    assertOnLoop()
    // Sends of an earlier submission whose wait failed may have completed since.
    if !ledger.isEmpty { takeCompletions() }
    for _ in 0..<4 where !queued.isEmpty {
      var round: [any RingWriter] = []
      swap(&round, &queued)
      for writer in round { writer.awaitingRing = false }
      // A writer with a send in flight queues again when that send completes.
      round.removeAll { ledger.isInFlight(ObjectIdentifier($0)) }
      // One send is as cheap without the ring, and skips the copy.
      if round.count == 1 {
        round[0].writeNow()
        continue
      }
      for writer in round {
        guard writer.prepareWrite() else { continue }
        if !stage(writer) { writer.writeNow() }
      }
      submitStaged()
    }
  }

  /// Copies the writer's next bytes into the staging area and prepares their send; returns
  /// `false` when they are too many to batch or find no room.
  private func stage(_ writer: any RingWriter) -> Bool {
    guard writer.unsentCount <= Self.largestBatchedSend else { return false }
    if staged.count == capacity || stagingUsed + writer.unsentCount > staging.count {
      submitStaged()
    }
    // Counted again: the results just handed out may have touched this writer too.
    let count = writer.unsentCount
    // Sends still in flight may hold the staging area: their bytes are not overwritten.
    guard count > 0, stagingUsed + count <= staging.count else { return false }
    let start = stagingUsed
    let target = staging.baseAddress! + start
    writer.copyUnsentBytes(to: target)
    let token = ledger.record(writer, as: ObjectIdentifier(writer), staged: start..<start + count)
    let prepared = observable_send_ring_prepare_send(
      ring, writer.descriptor, target, UInt32(count), token)
    guard prepared == 0 else {
      _ = ledger.settle(token)
      return false
    }
    stagingUsed += count
    staged.append(token)
    return true
  }

  /// Submits the prepared sends in one system call and gives each writer its result.
  private func submitStaged() {
    guard !staged.isEmpty else { return }
    var submission: [UInt64] = []
    swap(&submission, &staged)
    var taken: UInt32 = 0
    // A failure leaves sends the kernel took in the ledger until they complete, and those it
    // did not take out of `taken`: neither is lost, and neither goes out twice.
    _ = observable_send_ring_submit_and_wait(ring, submissionLimit, &taken)
    counters.update {
      $0.sendBatchesTotal += 1
      $0.batchedSendsTotal += Int(taken)
    }
    if takesCompletionsAtOnce { takeCompletions() }
    // The kernel takes sends in the order they were prepared; the rest never complete, and go
    // out the plain way instead.
    for token in submission[min(Int(taken), submission.count)...] {
      ledger.settle(token)?.writer.writeNow()
    }
    stagingUsed = ledger.stagingInUse
  }

  /// Hands each completion waiting in the ring to the writer its token names.
  private func takeCompletions() {
    var token: UInt64 = 0
    var result: Int32 = 0
    while observable_send_ring_next_completion(ring, &token, &result) == 1 {
      // A token the ledger does not hold was settled already: charging it would be wrong.
      guard let entry = ledger.settle(token) else { continue }
      if entry.writer.wrote(SendLedger.outcome(of: result, for: entry)) { enqueue(entry.writer) }
    }
  }

  /// Stops a debug build when the ring is used off its loop's thread.
  private func assertOnLoop(line: UInt = #line) {
    #if DEBUG
      loop?.assertInLoop(line: line)
    #endif
  }

  private let ring: OpaquePointer
  private let counters: ServerCounters
  private let capacity: Int
  private var queued: [any RingWriter] = []
  private var staged: [UInt64] = []
  private var ledger = SendLedger<any RingWriter>()
  private let staging = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
  private var stagingUsed = 0
}
