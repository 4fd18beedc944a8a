/// Replies that wait behind one the cluster has not given yet, so that a connection's replies
/// keep the order of its requests.
///
/// A clustered retained publish or clear is answered once JetStream answers, up to seconds
/// later; the replies to the requests after it are held here until then. Values are not
/// held: only replies are ordered.
package struct ReplyQueue {
  /// Bytes of held replies past which the client is closed: one that keeps pipelining requests
  /// behind an unanswered one cannot make the server hold unbounded memory.
  static let limit = 1 << 20

  /// Each slot is a reply, or `nil` while the cluster has not answered it.
  private var slots: [[UInt8]?] = []
  /// The ticket of `slots[0]`.
  private var firstTicket = 0
  /// Bytes held in `slots`.
  private(set) var heldBytes = 0

  /// How many replies the cluster may owe one connection: each holds a value until JetStream
  /// answers, so a client cannot make the server hold more than this many.
  static let owedLimit = 256

  /// Whether replies go straight out.
  var isEmpty: Bool { slots.isEmpty }

  /// Replies the cluster owes.
  private(set) var owed = 0

  /// Reserves the place of a reply that comes later; returns its ticket.
  mutating func reserve() -> Int {
    slots.append(nil)
    owed += 1
    return firstTicket + slots.count - 1
  }

  /// Holds `reply` behind the reserved ones; only when not empty. Returns its ticket.
  @discardableResult
  mutating func hold(_ reply: [UInt8]) -> Int {
    slots.append(reply)
    heldBytes += reply.count
    return firstTicket + slots.count - 1
  }

  /// The ticket of the last reply reserved or held, while the queue is not empty.
  var lastTicket: Int { firstTicket + slots.count - 1 }

  /// Whether the reply of `ticket` has gone out.
  func hasSent(_ ticket: Int) -> Bool { ticket < firstTicket }

  /// Fills the reply of `ticket` and returns the replies now free to go, in order.
  mutating func fill(_ ticket: Int, with reply: [UInt8]) -> [UInt8] {
    place(ticket, reply)
    return takeReady()
  }

  /// Fills the reply of each ticket of `replies` and returns the replies now free to go, in
  /// order: the replies of a group of stored writes, which are filled together.
  ///
  /// One pass over the slots for the lot, where filling them one by one took the replies
  /// free so far off the front of the slots after each.
  mutating func fill(_ replies: [(ticket: Int, reply: [UInt8])]) -> [UInt8] {
    for (ticket, reply) in replies { place(ticket, reply) }
    return takeReady()
  }

  /// Puts `reply` in the slot of `ticket`, unless it was filled already or is gone.
  private mutating func place(_ ticket: Int, _ reply: [UInt8]) {
    let index = ticket - firstTicket
    guard slots.indices.contains(index), slots[index] == nil else { return }
    slots[index] = reply
    owed -= 1
    heldBytes += reply.count
  }

  /// Takes the filled replies at the front, in order, concatenated.
  private mutating func takeReady() -> [UInt8] {
    var ready: [UInt8] = []
    var taken = 0
    while taken < slots.count, let first = slots[taken] {
      ready.append(contentsOf: first)
      heldBytes -= first.count
      taken += 1
    }
    slots.removeFirst(taken)
    firstTicket += taken
    return ready
  }
}
