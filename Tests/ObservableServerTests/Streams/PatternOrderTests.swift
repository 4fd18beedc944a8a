import Glibc
import IndefiniteObservable
import TestSupport
import Testing

@testable import ObservableCounters
@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// The registry's guarantees with patterns while threads race: one order for every subscriber
/// of a topic, direct or through a pattern, as the topic comes and goes; retained value first,
/// then every live value, none lost or repeated; one disconnect per subscription.
@Suite(.timeLimit(.minutes(1)))
struct PatternOrderTests {
  static let topic = "order.t"

  @Test("pattern subscribers see one order while direct subscribers make and drop the topic")
  func oneOrder() throws {
    let counters = ServerCounters()
    let registry = StreamRegistry(sources: [], counters: counters)
    let steady = [LineCollector(), LineCollector(), LineCollector()]
    let steadySubscriptions = try zip(steady, ["order.*", "order.>", ">"]).map {
      try registry.subscribe($0, to: $1)
    }
    let churned = LockedValue([LineCollector]())
    let failures = LockedValue([String]())
    let publishers: [@Sendable () -> Void] = (0..<3).map { publisher in
      {
        for sequence in 0..<3_000 {
          do throws(ProtocolError) {
            try registry.publish("\(publisher * 1_000_000 + sequence)", to: Self.topic)
          } catch {
            failures.withLock { $0.append("publish: \(error.code)") }
          }
        }
      }
    }
    // Each direct subscribe makes the topic, each last unsubscribe drops it, so publishes go
    // now through the topic, now through the index.
    let churner: @Sendable () -> Void = {
      var mine: [LineCollector] = []
      for _ in 0..<400 {
        let direct = LineCollector()
        mine.append(direct)
        do throws(ProtocolError) {
          try registry.subscribe(direct, to: Self.topic).unsubscribe()
        } catch {
          failures.withLock { $0.append("subscribe: \(error.code)") }
        }
      }
      churned.withLock { $0 += mine }
    }
    #expect(StartBarrier.run(publishers + [churner, churner]))
    #expect(failures.value.isEmpty)

    let sequences = steady.map { $0.texts.map(Self.value) }
    #expect(sequences[0].count == 9_000)
    #expect(sequences[0] == sequences[1])
    #expect(sequences[0] == sequences[2])
    #expect(Self.inPublisherOrder(sequences[0]))
    for collector in churned.value {
      // A direct subscriber sees a stretch of the same order: each value at most once, in order.
      let values = collector.texts.map(Self.value)
      #expect(Self.isSubsequence(values, of: sequences[0]))
    }
    let received = (steady + churned.value).reduce(0) { $0 + $1.lines.count }
    #expect(counters.snapshot.deliveredTotal == received)
    for subscription in steadySubscriptions { subscription.unsubscribe() }
    #expect(registry.list().isEmpty)
    #expect(registry.patternCount == 0)
  }

  @Test("a pattern subscriber arriving mid-stream gets the retained value, then every value")
  func retainedThenLive() throws {
    let registry = StreamRegistry(sources: [], counters: ServerCounters())
    let lates = LockedValue([(LineCollector, Subscription)]())
    let progress = LockedValue(0)
    let last = 2_000
    let count = 40
    let publisher: @Sendable () -> Void = {
      for sequence in 0...last {
        _ = try? registry.publish("\(sequence)", to: Self.topic, retain: true)
        progress.withLock { $0 = sequence }
      }
    }
    // Spread over the stream, so that each arrives while values are being published.
    let subscriber: @Sendable () -> Void = {
      for index in 0..<count {
        while progress.value < index * last / count { sched_yield() }
        let late = LineCollector()
        guard
          let subscription = try? registry.subscribe(
            late, to: index.isMultiple(of: 2) ? "order.*" : "*.t")
        else { return }
        lates.withLock { $0.append((late, subscription)) }
      }
    }
    #expect(StartBarrier.run([publisher, subscriber]))
    let all = lates.value
    #expect(all.count == count)
    for (late, subscription) in all {
      let values = late.texts.map(Self.value)
      // Contiguous from whatever was retained at subscribe time up to the last value.
      #expect(values.last == last)
      #expect(values == Array((values.first ?? 0)...last))
      subscription.unsubscribe()
    }
  }

  @Test("racing unsubscribes of a pattern subscription disconnect it once")
  func disconnectOnce() throws {
    let counters = ServerCounters()
    let registry = StreamRegistry(sources: [], counters: counters)
    let direct = try registry.subscribe(LineCollector(), to: Self.topic)
    let subscription = try registry.subscribe(LineCollector(), to: "order.*")
    #expect(try registry.publish("1", to: Self.topic) == 2)
    let unsubscribe: @Sendable () -> Void = { subscription.unsubscribe() }
    #expect(StartBarrier.run(Array(repeating: unsubscribe, count: 8)))
    #expect(counters.snapshot.disconnectsTotal == 1)
    #expect(try registry.publish("2", to: Self.topic) == 1)
    #expect(registry.patternCount == 0)
    direct.unsubscribe()
  }

  /// The value of a delivery line of ``topic``, with or without `sub`; -1 when it is not one.
  private static func value(_ text: String) -> Int {
    let start = #"{"stream":"\#(topic)","#
    guard text.hasPrefix(start), text.hasSuffix("}\n"),
      let range = text.range(of: #""value":"#)
    else { return -1 }
    return Int(text[range.upperBound...].dropLast(2)) ?? -1
  }

  private static func inPublisherOrder(_ values: [Int]) -> Bool {
    var next = [0, 0, 0]
    for value in values {
      let publisher = value / 1_000_000
      guard value >= 0, publisher < next.count, value % 1_000_000 == next[publisher] else {
        return false
      }
      next[publisher] += 1
    }
    return next == [3_000, 3_000, 3_000]
  }

  private static func isSubsequence(_ part: [Int], of whole: [Int]) -> Bool {
    var iterator = whole.makeIterator()
    return part.allSatisfy { value in
      while let next = iterator.next() { if next == value { return true } }
      return false
    }
  }
}
