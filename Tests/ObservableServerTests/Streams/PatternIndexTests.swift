import Testing

@testable import ObservableCounters
@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// The pattern index's cache of matches per name: it must answer as the trie would after any
/// sequence of subscriptions, and stay bounded.
@Suite(.timeLimit(.minutes(1)))
struct PatternIndexTests {
  @Test("cached answers follow subscriptions coming and going", arguments: 0..<4)
  func agreesWithNaive(seed: UInt64) {
    var random = SplitMix64(seed: 0x6361_6368 &+ seed)
    var index = PatternIndex()
    // Subscription keys per pattern, as the registry keeps them.
    var subscribed: [String: Set<UInt64>] = [:]
    // Few names, so most lookups are answered from the cache.
    let names = (0..<24).map { _ in TokenTrieTests.name(&random) }
    var mismatches: [String] = []
    for step in 0..<1_500 {
      let pattern = TokenTrieTests.pattern(&random)
      let key = UInt64(step)
      if random.next() % 2 == 0, let (victim, keys) = subscribed.randomElement(using: &random),
        let gone = keys.randomElement(using: &random)
      {
        index.update(victim) { subscribers in
          subscribers?.observers.remove(key: gone)
          if subscribers?.observers.isEmpty == true { subscribers = nil }
        }
        subscribed[victim]?.remove(gone)
        if subscribed[victim]?.isEmpty == true { subscribed[victim] = nil }
      } else {
        index.update(pattern) { subscribers in
          var group = subscribers ?? PatternSubscribers(pattern: pattern)
          group.observers.insert(StreamObserver { _ in }, key: key)
          subscribers = group
        }
        subscribed[pattern, default: []].insert(key)
      }
      for _ in 0..<3 {
        let name = names[Int(random.next() % UInt64(names.count))]
        var found: [String: Int] = [:]
        index.forEachMatch(of: name) { found[$0.pattern] = $0.observers.count }
        let expected = subscribed.filter { TopicPattern($0.key).matches(name) }
          .mapValues(\.count)
        if found != expected { mismatches.append("\(name): \(found) != \(expected)") }
      }
    }
    #expect(index.cachedNames > 0)
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test("the cache holds at most cacheLimit names")
  func bounded() {
    var index = PatternIndex()
    index.update("n.*") { $0 = PatternSubscribers(pattern: "n.*") }
    for number in 0..<(PatternIndex.cacheLimit + 10) {
      index.forEachMatch(of: "n.\(number)") { _ in }
      #expect(index.cachedNames <= PatternIndex.cacheLimit)
    }
    #expect(index.cachedNames > 0)
    index.update("n.*") { $0 = nil }
    #expect(index.cachedNames == 0)
  }

  @Test("a name first published to nobody reaches a pattern subscribed later, through the registry")
  func negativeAnswerInvalidated() throws {
    let registry = StreamRegistry(sources: [], counters: ServerCounters())
    #expect(try registry.publish("1", to: "late.a") == 0)
    let late = LineCollector()
    let subscription = try registry.subscribe(late, to: "late.*")
    #expect(try registry.publish("2", to: "late.a") == 1)
    subscription.unsubscribe()
    #expect(try registry.publish("3", to: "late.a") == 0)
    let again = try registry.subscribe(late, to: "late.>")
    #expect(try registry.publish("4", to: "late.a") == 1)
    #expect(
      late.texts == [
        LineCollector.delivery("late.a", "2", sub: "late.*"),
        LineCollector.delivery("late.a", "4", sub: "late.>"),
      ])
    again.unsubscribe()
  }
}
