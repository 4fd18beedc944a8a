import Glibc

/// The sends a ``SendRing`` has handed to the kernel and not yet seen complete, each under a
/// token of its own.
///
/// The token travels as the submission's `user_data` and comes back in its completion, so a
/// completion is charged to the writer and the staged bytes it belongs to whatever order
/// completions arrive in, and even when it arrives during a later submission than its own. A
/// token is settled once: a completion that repeats one, or names none the ledger issued, is
/// ignored rather than charged to whoever holds that position now. Slots are reused, so the
/// ledger costs a few array operations per send and no allocation once warm; an entry holds
/// its writer, which holds the send's bytes. Loop thread only.
package struct SendLedger<Writer> {
  /// One send in flight: who sent it and how many bytes.
  package struct Entry {
    /// The writer the send's outcome goes to.
    package let writer: Writer
    /// The writer's identity: one writer has one send in flight at most.
    let identity: ObjectIdentifier
    /// The send's bytes, counted from 0: a result past its end cannot be.
    let staged: Range<Int>
  }

  /// Whether no send is in flight.
  package var isEmpty: Bool { count == 0 }

  /// How many sends are in flight.
  private(set) var count = 0

  /// The slot the next ``record(_:as:staged:)`` uses, which its token names.
  var nextSlot: Int { freeSlots.last ?? slots.count }

  /// Whether `identity` has a send in flight: it must not send again until that one completes,
  /// or the same bytes would go out twice. Looks through every send in flight, which is none
  /// at all unless waiting for completions failed.
  func isInFlight(_ identity: ObjectIdentifier) -> Bool {
    count > 0 && slots.contains { $0?.identity == identity }
  }

  /// Records a send of `writer`, known as `identity`, about to be prepared and returns its
  /// token.
  package mutating func record(
    _ writer: Writer, as identity: ObjectIdentifier, staged: Range<Int>
  ) -> UInt64 {
    let slot: Int
    if let reused = freeSlots.popLast() {
      slot = reused
    } else {
      slot = slots.count
      slots.append(nil)
      generations.append(1)
    }
    slots[slot] = Entry(writer: writer, identity: identity, staged: staged)
    count += 1
    // The slot's generation tells a token apart from every earlier one of the same slot, so a
    // stale or repeated completion never settles the slot's next send. Generations start at 1:
    // no token is 0.
    return UInt64(generations[slot]) << 32 | UInt64(slot)
  }

  /// Takes the send `token` names out of the ledger; `nil` when it names none in flight (a
  /// repeated or foreign completion), which must then be ignored.
  package mutating func settle(_ token: UInt64) -> Entry? {
    let slot = Int(token & 0xFFFF_FFFF)
    guard slot < slots.count, UInt64(generations[slot]) == token >> 32,
      let entry = slots[slot]
    else { return nil }
    slots[slot] = nil
    // 2^32 sends through one slot before a generation repeats: a completion that late is not
    // waited for by anything.
    generations[slot] = generations[slot] == UInt32.max ? 1 : generations[slot] + 1
    freeSlots.append(slot)
    count -= 1
    return entry
  }

  /// What a completion's result means for `entry`: bytes sent, `wouldBlock` for a full socket,
  /// or the error, exactly as `send` on a non-blocking socket would say.
  package static func outcome(of result: Int32, for entry: Entry) -> Result<
    IOResult<Int>, SystemError
  > {
    if result >= 0 {
      // More than was given cannot have been sent; taking it would skip unsent bytes.
      guard Int(result) <= entry.staged.count else {
        return .failure(SystemError(call: "send", code: EIO))
      }
      return .success(.done(Int(result)))
    }
    if result == -EAGAIN || result == -EWOULDBLOCK { return .success(.wouldBlock) }
    return .failure(SystemError(call: "send", code: -result))
  }

  /// The sends in flight, by the slot their token names; `nil` for a free slot.
  private var slots: [Entry?] = []
  /// Each slot's generation, which its next token carries.
  private var generations: [UInt32] = []
  private var freeSlots: [Int] = []
}
