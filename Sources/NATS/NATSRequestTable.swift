/// The requests waiting for a reply on the session's inbox, with their deadlines.
///
/// Replies arrive on `<inbox prefix>.<id>`, so the id is read from the subject's last token
/// and no per-request subscription is needed.
struct NATSRequestTable: Sendable {
  private var deadlines: [UInt64: ContinuousClock.Instant] = [:]
  private var nextID: UInt64 = 1
  /// The earliest deadline, kept so that a tick with nothing due does not scan the table.
  private(set) var earliestDeadline: ContinuousClock.Instant?

  /// The number of requests waiting.
  var count: Int { deadlines.count }

  /// Records a new request and returns its id.
  mutating func add(deadline: ContinuousClock.Instant) -> NATSRequestID {
    let id = nextID
    nextID += 1
    deadlines[id] = deadline
    if earliestDeadline.map({ deadline < $0 }) ?? true { earliestDeadline = deadline }
    return NATSRequestID(id)
  }

  /// Removes and returns the request a reply on `subject` answers, if it is still waiting.
  mutating func remove(replySubject subject: String, prefix: String) -> NATSRequestID? {
    let utf8 = subject.utf8
    guard utf8.count > prefix.utf8.count + 1, utf8.starts(with: prefix.utf8) else { return nil }
    guard let id = UInt64(Substring(subject.utf8.dropFirst(prefix.utf8.count + 1))) else {
      return nil
    }
    return remove(NATSRequestID(id)) ? NATSRequestID(id) : nil
  }

  /// Forgets a request; returns whether it was waiting.
  mutating func remove(_ id: NATSRequestID) -> Bool {
    deadlines.removeValue(forKey: id.value) != nil
  }

  /// Removes and returns the requests whose deadline has passed, oldest id first.
  mutating func expire(now: ContinuousClock.Instant) -> [NATSRequestID] {
    guard let earliest = earliestDeadline, earliest <= now else { return [] }
    let expired = deadlines.filter { $0.value <= now }.keys.sorted()
    for id in expired { deadlines.removeValue(forKey: id) }
    earliestDeadline = deadlines.values.min()
    return expired.map(NATSRequestID.init)
  }

  /// Removes and returns every request, for a lost connection.
  mutating func removeAll() -> [NATSRequestID] {
    let all = deadlines.keys.sorted().map(NATSRequestID.init)
    deadlines.removeAll()
    earliestDeadline = nil
    return all
  }
}
