import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableCounters
@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// Concurrent publishers to one topic while other threads subscribe and unsubscribe.
@Suite(.timeLimit(.minutes(1)))
struct FanOutTests {
  static let topic = "fan.out"
  static let publishers = 4
  static let publishesEach = 2_000
  static let steadyCount = 8
  static let churners = 2
  static let churnCycles = 300

  @Test("every steady observer gets every value once, in each publisher's order")
  func fanOut() throws {
    let counters = ServerCounters()
    let registry = StreamRegistry(sources: [], counters: counters)
    let steady = (0..<Self.steadyCount).map { _ in LineCollector() }
    let steadySubscriptions = try steady.map { try registry.subscribe($0, to: Self.topic) }
    let churned = LockedValue([LineCollector]())
    let fewestReceivers = LockedValue(Int.max)
    let failures = LockedValue([String]())

    let publishers: [@Sendable () -> Void] = (0..<Self.publishers).map { publisher in
      {
        var fewest = Int.max
        for sequence in 0..<Self.publishesEach {
          do throws(ProtocolError) {
            let receivers = try registry.publish(
              String(Self.value(publisher, sequence)), to: Self.topic)
            fewest = min(fewest, receivers)
          } catch {
            failures.withLock { $0.append("publish: \(error.code)") }
          }
        }
        fewestReceivers.withLock { $0 = min($0, fewest) }
      }
    }
    let churners: [@Sendable () -> Void] = (0..<Self.churners).map { _ in
      {
        var mine: [LineCollector] = []
        for cycle in 0..<Self.churnCycles {
          // One collector per subscription, so that each must see values at most once.
          let direct = LineCollector()
          let pattern = LineCollector()
          mine += [direct, pattern]
          do throws(ProtocolError) {
            let directSubscription = try registry.subscribe(direct, to: Self.topic)
            let patternSubscription = try registry.subscribe(
              pattern, to: cycle.isMultiple(of: 2) ? "fan.*" : "fan.>")
            directSubscription.unsubscribe()
            patternSubscription.unsubscribe()
          } catch {
            failures.withLock { $0.append("subscribe: \(error.code)") }
          }
        }
        churned.withLock { $0 += mine }
      }
    }
    #expect(StartBarrier.run(publishers + churners))
    #expect(failures.value.isEmpty)
    #expect(fewestReceivers.value >= Self.steadyCount)

    let total = Self.publishers * Self.publishesEach
    for (index, collector) in steady.enumerated() {
      let values = collector.lines.map(Self.decode)
      #expect(values.count == total, "observer \(index)")
      #expect(Self.inPublisherOrder(values, complete: true), "observer \(index)")
    }
    // Observers that came and went got some values, but none twice and none out of order.
    let churnedCollectors = churned.value
    #expect(churnedCollectors.count == Self.churners * Self.churnCycles * 2)
    for collector in churnedCollectors {
      #expect(Self.inPublisherOrder(collector.lines.map(Self.decode), complete: false))
    }

    let snapshot = counters.snapshot
    #expect(snapshot.subscriptions == Self.steadyCount)
    #expect(snapshot.subscribesTotal == Self.steadyCount + Self.churners * Self.churnCycles * 2)
    #expect(snapshot.disconnectsTotal == snapshot.subscribesTotal - Self.steadyCount)
    #expect(snapshot.publishedTotal == total)
    // Every delivery counted is a line some observer received, and the other way round.
    let received = (steady + churnedCollectors).reduce(0) { $0 + $1.lines.count }
    #expect(snapshot.deliveredTotal == received)
    #expect(registry.list().map(\.name) == [Self.topic])
    #expect(registry.list().map(\.subscribers) == [Self.steadyCount])

    for subscription in steadySubscriptions { subscription.unsubscribe() }
    #expect(counters.snapshot.subscriptions == 0)
    #expect(counters.snapshot.disconnectsTotal == counters.snapshot.subscribesTotal)
    #expect(registry.list().isEmpty)
  }

  /// Publisher `publisher`'s value number `sequence`.
  private static func value(_ publisher: Int, _ sequence: Int) -> Int {
    publisher * 1_000_000 + sequence
  }

  /// The value of one delivery line, or -1 when the line is not the documented shape, plain or
  /// through one of the churners' patterns.
  private static func decode(_ line: [UInt8]) -> Int {
    let text = String(decoding: line, as: UTF8.self)
    let suffix = "}\n"
    for sub in [nil, "fan.*", "fan.>"] {
      let prefix = #"{"stream":"\#(topic)",\#(sub.map { #""sub":"\#($0)","# } ?? "")"value":"#
      guard text.hasPrefix(prefix), text.hasSuffix(suffix) else { continue }
      return Int(text.dropFirst(prefix.count).dropLast(suffix.count)) ?? -1
    }
    return -1
  }

  /// Whether each publisher's values appear in increasing order without repeats (and, when
  /// `complete`, all of them, from 0 on without gaps).
  private static func inPublisherOrder(_ values: [Int], complete: Bool) -> Bool {
    var last = Array(repeating: -1, count: publishers)
    for value in values {
      guard value >= 0 else { return false }
      let publisher = value / 1_000_000
      let sequence = value % 1_000_000
      guard publisher < publishers else { return false }
      if complete ? sequence != last[publisher] + 1 : sequence <= last[publisher] { return false }
      last[publisher] = sequence
    }
    return !complete || last.allSatisfy { $0 == publishesEach - 1 }
  }
}
