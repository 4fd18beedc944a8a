import Glibc

/// The sends a ``SendRing`` has handed to the kernel and not yet seen complete, each under a
/// token of its own.
///
/// The token travels as the submission's `user_data` and comes back in its completion, so a
/// completion is charged to the writer and the staged bytes it belongs to whatever order
/// completions arrive in, and even when it arrives during a later submission than its own. A
/// token is settled once: a completion that repeats one, or names none the ledger issued, is
/// ignored rather than charged to whoever holds that position now. Loop thread only.
struct SendLedger<Writer> {
  /// One send in flight: who sent it and where its bytes lie in the staging area.
  struct Entry {
    /// The writer the send's outcome goes to.
    let writer: Writer
    /// The writer's identity: one writer has one send in flight at most.
    let identity: ObjectIdentifier
    /// The send's bytes in the staging area, which must stay as they are until it completes.
    let staged: Range<Int>
  }

  /// Whether no send is in flight.
  var isEmpty: Bool { entries.isEmpty }

  /// How many sends are in flight.
  var count: Int { entries.count }

  /// Where the staging bytes of the sends in flight end: staging may be reused from there on
  /// (from 0 when nothing is in flight).
  var stagingInUse: Int { entries.values.lazy.map(\.staged.upperBound).max() ?? 0 }

  /// Whether `writer` has a send in flight: it must not send again until that one completes,
  /// or the same bytes would go out twice.
  func isInFlight(_ identity: ObjectIdentifier) -> Bool {
    writersInFlight.contains(identity)
  }

  /// Records a send of `writer`, known as `identity`, about to be prepared and returns its
  /// token.
  mutating func record(_ writer: Writer, as identity: ObjectIdentifier, staged: Range<Int>)
    -> UInt64
  {
    assert(!isInFlight(identity), "a writer sent again before its send completed")
    let token = nextToken
    // Tokens start at 1 and only grow: 2^64 sends never wrap, so none is ever reused.
    nextToken += 1
    entries[token] = Entry(writer: writer, identity: identity, staged: staged)
    writersInFlight.insert(identity)
    return token
  }

  /// Takes the send `token` names out of the ledger; `nil` when it names none in flight (a
  /// repeated or foreign completion), which must then be ignored.
  mutating func settle(_ token: UInt64) -> Entry? {
    guard let entry = entries.removeValue(forKey: token) else { return nil }
    writersInFlight.remove(entry.identity)
    return entry
  }

  /// What a completion's result means for `entry`: bytes sent, `wouldBlock` for a full socket,
  /// or the error, exactly as `send` on a non-blocking socket would say.
  static func outcome(of result: Int32, for entry: Entry) -> Result<IOResult<Int>, SystemError> {
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

  private var entries: [UInt64: Entry] = [:]
  private var writersInFlight: Set<ObjectIdentifier> = []
  private var nextToken: UInt64 = 1
}
