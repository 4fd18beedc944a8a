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
  /// Points `pieces`, from the first, at the bytes not sent yet, in order, as many pieces as
  /// fit, and returns how many it filled. The writer keeps those bytes where they are, whatever
  /// it does with its buffers meanwhile, until the ring calls ``sendSettled()``.
  ///
  /// Pointers rather than a borrowed buffer: a closure over the writer's bytes, called through
  /// this protocol from another module, cost a retain and a runtime exclusivity check per send.
  func gatherUnsent(into pieces: UnsafeMutableBufferPointer<iovec>) -> Int
  /// The send of the bytes ``gatherUnsent(into:)`` pointed at last has completed, or the ring
  /// withdrew it before the kernel took it: the writer may let them go.
  func sendSettled()
  /// Takes one send's outcome; returns whether the writer has more to send.
  func wrote(_ outcome: Result<IOResult<Int>, SystemError>) -> Bool
  /// Writes now, one `send` at a time, without the ring.
  func writeNow()
}

/// Batches the sends of one event loop's turn into io_uring submissions, so that a value
/// published to thousands of connections costs a few `io_uring_enter` calls instead of one
/// `send` per connection.
///
/// Writers queue themselves during the turn; at its end ``submitQueued()`` prepares one
/// `sendmsg` per writer over its unsent bytes where they lie (the chunks a broadcast shares
/// among its subscribers: no copy), submits them all with `MSG_DONTWAIT`, and hands each
/// writer its result, exactly what `send` would have returned: bytes sent, `EAGAIN` for a
/// full socket, or an error. Writers with more to send queue again. Each send is matched to
/// its completion by a token in a ``SendLedger``, never by its place in the batch, so an error
/// path can neither send bytes twice nor charge a result to another writer; the ledger also
/// holds the writer, which holds the send's bytes until ``RingWriter/sendSettled()``. Loop
/// thread only.
package final class SendRing {
  /// The io_uring operations batched sends use, each of which the kernel must support.
  package static let requiredOperations = [observable_send_ring_sendmsg_operation()]

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
    // A ledger slot per send the ring holds, and one for the send recorded as the ring refuses
    // it: the ledger never uses more.
    messageSlots = capacity + 1
    messages = .allocate(capacity: messageSlots)
    pieces = .allocate(capacity: messageSlots * Self.piecesPerSend)
  }

  deinit {
    observable_send_ring_close(ring)
    messages.deallocate()
    pieces.deallocate()
  }

  /// The most pieces (iovecs) one send gathers: enough for the 128 KiB a socket takes at once
  /// in all but the smallest chunks.
  package static let piecesPerSend = 64

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
      // Writers that queue during the round go into the round's emptied array, so neither
      // array is allocated again once both have grown.
      swap(&round, &queued)
      for writer in round { writer.awaitingRing = false }
      // A writer with a send in flight queues again when that send completes.
      round.removeAll { ledger.isInFlight(ObjectIdentifier($0)) }
      // One send is as cheap without the ring, and skips the copy.
      if round.count == 1 {
        round[0].writeNow()
      } else {
        for writer in round {
          guard writer.prepareWrite() else { continue }
          if !stage(writer) { writer.writeNow() }
        }
        submitStaged()
      }
      round.removeAll(keepingCapacity: true)
    }
  }

  /// Prepares a `sendmsg` of the writer's next bytes, gathered where they lie; returns `false`
  /// when the ring has no room for it.
  private func stage(_ writer: any RingWriter) -> Bool {
    if staged.count == capacity { submitStaged() }
    // Asked again: the results just handed out may have touched this writer too.
    guard writer.unsentCount > 0 else { return false }
    // The message and its pieces live in the ledger slot's own area until the completion.
    let slot = ledger.nextSlot
    guard slot < messageSlots else { return false }
    let area = UnsafeMutableBufferPointer(
      start: pieces + slot * Self.piecesPerSend, count: Self.piecesPerSend)
    let filled = writer.gatherUnsent(into: area)
    var count = 0
    for piece in area[..<filled] { count += piece.iov_len }
    messages[slot] = msghdr()
    messages[slot].msg_iov = area.baseAddress
    messages[slot].msg_iovlen = filled
    let token = ledger.record(writer, as: ObjectIdentifier(writer), staged: 0..<count)
    let prepared = observable_send_ring_prepare_sendmsg(
      ring, writer.descriptor, messages + slot, token)
    guard prepared == 0 else {
      _ = ledger.settle(token)
      writer.sendSettled()
      return false
    }
    staged.append(token)
    return true
  }

  /// Submits the prepared sends in one system call and gives each writer its result.
  private func submitStaged() {
    guard !staged.isEmpty else { return }
    // The emptied array of the last submission takes the next one's tokens.
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
      // The bytes the send held go before the writer writes.
      let writer = ledger.settle(token)?.writer
      writer?.sendSettled()
      writer?.writeNow()
    }
    submission.removeAll(keepingCapacity: true)
  }

  /// Hands each completion waiting in the ring to the writer its token names.
  private func takeCompletions() {
    var token: UInt64 = 0
    var result: Int32 = 0
    while observable_send_ring_next_completion(ring, &token, &result) == 1 {
      // A token the ledger does not hold was settled already: charging it would be wrong. The
      // bytes the send held go before the writer takes its result, so the writer releases or
      // reuses its buffers without a copy.
      guard let entry = ledger.settle(token) else { continue }
      entry.writer.sendSettled()
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
  // Unchecked: touched on the loop's thread only, by the methods above, never while another
  // access to the same one is open; checked, they cost several runtime calls per send.
  @exclusivity(unchecked) private var queued: [any RingWriter] = []
  /// The writers of the round ``submitQueued()`` is sending.
  @exclusivity(unchecked) private var round: [any RingWriter] = []
  @exclusivity(unchecked) private var staged: [UInt64] = []
  /// The tokens of the sends ``submitStaged()`` is handing to the kernel.
  @exclusivity(unchecked) private var submission: [UInt64] = []
  @exclusivity(unchecked) private var ledger = SendLedger<any RingWriter>()
  /// How many ledger slots have a message area.
  private let messageSlots: Int
  /// Each ledger slot's `msghdr`, which the kernel reads until the send completes.
  private let messages: UnsafeMutablePointer<msghdr>
  /// Each ledger slot's ``piecesPerSend`` iovecs.
  private let pieces: UnsafeMutablePointer<iovec>
}
