import ObservableWire

/// The retained publishes and clears of one read, handed to the store together once the read
/// is handled (``Session/inputHandled()``), with the replies that wait for them; with replies
/// that wait for the disk, also each time ``handOffCount`` of them are waiting.
///
/// A client pipelining retained publishes sends hundreds per read; one hand-off per read
/// takes the store's queue lock once, makes one transaction and, with `--fsync always`, shares
/// one sync among them, and their replies go back to the loop in one task instead of one each.
struct StoreWriteGroup {
  /// A reply reserved in the session's ``ReplyQueue``, made once the write's outcome is known.
  struct WaitingReply {
    var ticket: Int
    var reply: @Sendable (Result<Void, ProtocolError>) -> [UInt8]
  }

  /// How many replies waiting for the disk a group holds before it is handed to the store
  /// without waiting for the rest of the read (Docs/performance.md, the store's figures).
  static let handOffCount = 64

  /// The changes, in the order they were applied.
  private(set) var writes: [StoreWrite] = []
  /// The replies that wait for the disk, in the order of their tickets.
  private(set) var replies: [WaitingReply] = []

  var isEmpty: Bool { writes.isEmpty }

  /// Adds `write`, whose reply, if it waits for the disk, is `reply`.
  mutating func append(_ write: StoreWrite, reply: WaitingReply?) {
    writes.append(write)
    if let reply { replies.append(reply) }
  }

  /// Everything added, leaving the group empty, with room for as many as it held: a client
  /// pipelining sends about as many a read each time, and arrays grown one doubling at a time
  /// cost the loop 130 instructions a retained publish (300 with `--fsync always`).
  mutating func take() -> StoreWriteGroup {
    let taken = self
    self = StoreWriteGroup()
    writes.reserveCapacity(taken.writes.count)
    replies.reserveCapacity(taken.replies.count)
    return taken
  }
}
