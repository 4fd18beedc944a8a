import IndefiniteObservable
import ObservableWire

/// The client's local subscriptions: for each name or pattern, its local observers and whether
/// the server currently has the one network subscription they share.
///
/// Pure bookkeeping, kept inside the client's lock; the client sends `subscribe` when
/// ``add(_:observer:)`` reports the first observer and `unsubscribe` when ``remove(_:id:)``
/// reports the last one left.
struct SubscriptionBook {
  /// One name's observers.
  struct Entry {
    var observers: [Int: ValueObserver<Delivery>] = [:]
    /// Whether `subscribe` was sent on the current connection and not refused.
    var onWire = false
    /// The position of the last value delivered (or the `since` it was first subscribed
    /// with): the next subscribe resumes after it.
    var position: String?
    /// Where the server said the subscription starts, when it had no position then: the next
    /// subscribe resumes after it until a value arrives. Kept apart from `position`, which
    /// decides what is new, since a retained value sent first may be older.
    var start: String?
  }

  private(set) var entries: [String: Entry] = [:]
  private var nextID = 0

  /// Adds an observer of `name`; `isFirst` is whether it is the name's only one. The first
  /// observer's `since` is where the subscription resumes; a later one joins it as it is.
  mutating func add(
    _ name: String, observer: ValueObserver<Delivery>, since: String? = nil
  ) -> (id: Int, isFirst: Bool) {
    nextID += 1
    let isFirst = entries[name] == nil
    entries[name, default: Entry(position: since)].observers[nextID] = observer
    return (nextID, isFirst)
  }

  /// The position `name`'s subscription resumes after, if it has one: that of the last value
  /// delivered, else where the server said it starts.
  func position(of name: String) -> String? {
    entries[name].flatMap { $0.position ?? $0.start }
  }

  /// Records where the server said `name`'s subscription starts (the reply's `pos`).
  mutating func started(_ name: String, after position: String?) {
    guard let position, entries[name]?.position == nil else { return }
    entries[name]?.start = position
  }

  /// Whether a delivery at `position` is new to `name`'s subscription, which then records it.
  ///
  /// The server sends a subscription's values in position order, one sequence for the whole
  /// server, so a value at or before the last one delivered (in the same epoch) was delivered
  /// already: a resume never hands observers a value twice, even one the server sends again
  /// (such as a retained value). Positions are opaque to users; the client is the server's
  /// own and reads them.
  mutating func admit(_ name: String, position: String) -> Bool {
    guard let entry = entries[name] else { return false }
    if let last = entry.position.flatMap(StreamPosition.init(parsing:)),
      let new = StreamPosition(parsing: position), new.epoch == last.epoch,
      new.sequence <= last.sequence
    {
      return false
    }
    entries[name]?.position = position
    return true
  }

  /// Removes observer `id` of `name`. `wasLast` is whether the name has no observer left, and
  /// `wasOnWire` whether the server holds its subscription (so `unsubscribe` must be sent).
  mutating func remove(_ name: String, id: Int) -> (wasLast: Bool, wasOnWire: Bool) {
    guard var entry = entries[name], entry.observers.removeValue(forKey: id) != nil else {
      return (false, false)
    }
    if entry.observers.isEmpty {
      entries[name] = nil
      return (true, entry.onWire)
    }
    entries[name] = entry
    return (false, false)
  }

  /// Records whether the server holds `name`'s subscription.
  mutating func setOnWire(_ name: String, _ onWire: Bool) {
    entries[name]?.onWire = onWire
  }

  /// Forgets every network subscription, as when the connection drops.
  mutating func clearWire() {
    for name in entries.keys { entries[name]?.onWire = false }
  }

  /// The names with local observers, sorted so that resubscribing is in a stable order.
  var names: [String] { entries.keys.sorted() }

  /// The observers a delivery of `stream` goes to, each with the subscription it came through.
  ///
  /// With protocol 1.1 (`serverSendsSub`), a pattern delivery names its pattern in `sub` and
  /// an exact one names none, so each line reaches exactly one subscription. An older server
  /// sends the same line once per matching subscription without saying which, so the line goes
  /// to the exact subscription and to every local pattern that matches: with overlapping
  /// subscriptions, observers then see a value once per matching subscription on the server.
  func targets(stream: String, sub: String?, serverSendsSub: Bool) -> [(
    subscription: String, observers: [ValueObserver<Delivery>]
  )] {
    if serverSendsSub || sub != nil {
      let name = sub ?? stream
      guard let entry = entries[name] else { return [] }
      return [(name, Array(entry.observers.values))]
    }
    return entries.compactMap { name, entry in
      guard name == stream || TopicPatternMatch.matches(name, stream) else { return nil }
      return (name, Array(entry.observers.values))
    }
  }

  /// The observers of `name`, or none.
  func observerCount(_ name: String) -> Int { entries[name]?.observers.count ?? 0 }
}
