import ObservableWire

/// The subscriptions whose deliveries carry positions (`"pos":true` or `"since"`), by name and
/// by pattern.
///
/// They are kept apart from the topics' plain observers so that a subscriber that does not ask
/// for positions sees the same bytes as before, and the lines with positions are encoded once
/// per value (once more per pattern), not once per subscriber.
struct PositionedSubscribers {
  private var direct: [String: ObserverSet] = [:]
  private var patterns = PatternIndex()

  /// Whether no subscription asked for positions, so a publish need not look for any.
  var isEmpty: Bool { direct.isEmpty && patterns.isEmpty }

  mutating func insert(_ observer: StreamObserver, key: UInt64, name: String, isPattern: Bool) {
    guard isPattern else { return direct[name, default: ObserverSet()].insert(observer, key: key) }
    patterns.update(name) { subscribers in
      var group = subscribers ?? PatternSubscribers(pattern: name)
      group.observers.insert(observer, key: key)
      subscribers = group
    }
  }

  mutating func remove(key: UInt64, name: String, isPattern: Bool) {
    guard isPattern else {
      direct[name]?.remove(key: key)
      if direct[name]?.isEmpty == true { direct[name] = nil }
      return
    }
    patterns.update(name) { subscribers in
      subscribers?.observers.remove(key: key)
      if subscribers?.observers.isEmpty == true { subscribers = nil }
    }
  }

  /// Hands the `count` values of topic `name`, plain `lines` whose sequences run from `first`,
  /// to the subscriptions with positions; returns how many there were.
  mutating func deliver(
    _ lines: [UInt8], first: UInt64, count: Int, name: String, epoch: UInt32
  ) -> Int {
    let sequences = first..<(first + UInt64(count))
    var receivers = 0
    if let observers = direct[name] {
      observers.deliver(Self.positioned(lines, sequences, epoch))
      receivers += observers.count
    }
    guard !patterns.isEmpty else { return receivers }
    let prefixLength = DeliveryEncoder.prefixLength(stream: name)
    patterns.forEachMatch(of: name) { group in
      let relabelled = DeliveryEncoder.relabel(
        lines, droppingPrefix: prefixLength,
        adding: DeliveryEncoder.prefix(stream: name, sub: group.pattern))
      group.observers.deliver(Self.positioned(relabelled, sequences, epoch))
      receivers += group.observers.count
    }
    return receivers
  }

  /// `lines`, one per sequence in `sequences`, each with its position added.
  static func positioned(
    _ lines: [UInt8], _ sequences: Range<UInt64>, _ epoch: UInt32
  ) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(lines.count + sequences.count * DeliveryEncoder.positionOverhead)
    var sequence = sequences.lowerBound
    lines.withUnsafeBytes { bytes in
      DeliveryLines.forEach(in: bytes) { line in
        DeliveryEncoder.append(
          line: line, position: StreamPosition(epoch: epoch, sequence: sequence), to: &out)
        sequence += 1
      }
    }
    return out
  }
}
