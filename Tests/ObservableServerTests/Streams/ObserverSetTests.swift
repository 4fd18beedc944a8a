import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableStreams

/// The observer array with O(1) removal: a removed observer's slot takes the last observer.
@Suite(.timeLimit(.minutes(1)))
struct ObserverSetTests {
  /// Observers that write their number into a shared log when they receive a line.
  final class Log: Sendable {
    func observer(_ number: Int) -> StreamObserver {
      StreamObserver { [entries] _ in entries.withLock { $0.append(number) } }
    }

    /// The numbers of the observers `set` delivers to, in delivery order.
    func order(of set: ObserverSet) -> [Int] {
      entries.withLock { $0 = [] }
      set.deliver([0x31])
      return entries.value
    }

    private let entries = LockedValue([Int]())
  }

  @Test("removal moves the last observer into the hole")
  func swapRemove() {
    let log = Log()
    var set = ObserverSet()
    for number in 1...4 { set.insert(log.observer(number), key: UInt64(number * 10)) }
    #expect(set.count == 4)
    #expect(log.order(of: set) == [1, 2, 3, 4])

    #expect(set.remove(key: 20) == true)
    #expect(log.order(of: set) == [1, 4, 3])
    // Observer 4 moved; its key must still find it.
    #expect(set.remove(key: 40) == true)
    #expect(log.order(of: set) == [1, 3])
    // Removing the last one moves nothing.
    #expect(set.remove(key: 30) == true)
    #expect(log.order(of: set) == [1])
    #expect(set.count == 1)
  }

  @Test("removing an unknown or already removed key returns false and changes nothing")
  func removeUnknown() {
    let log = Log()
    var set = ObserverSet()
    set.insert(log.observer(1), key: 1)
    set.insert(log.observer(2), key: 2)
    #expect(set.remove(key: 99) == false)
    #expect(set.remove(key: 1) == true)
    #expect(set.remove(key: 1) == false)
    #expect(set.count == 1)
    #expect(log.order(of: set) == [2])
  }

  @Test("a set emptied by removals is empty and can be filled again")
  func emptyAndRefill() {
    let log = Log()
    var set = ObserverSet()
    #expect(set.isEmpty)
    #expect(set.remove(key: 1) == false)
    set.insert(log.observer(1), key: 1)
    set.insert(log.observer(2), key: 2)
    #expect(set.remove(key: 1) == true)
    #expect(set.remove(key: 2) == true)
    #expect(set.isEmpty)
    #expect(set.count == 0)
    #expect(log.order(of: set).isEmpty)
    set.insert(log.observer(3), key: 2)
    #expect(log.order(of: set) == [3])
    #expect(set.remove(key: 2) == true)
    #expect(set.isEmpty)
  }

  @Test(
    "after any sequence of inserts and removals, delivery reaches exactly the remaining observers")
  func againstModel() {
    let log = Log()
    var set = ObserverSet()
    // The model: an array of numbers with the same swap-with-last removal.
    var model: [Int] = []
    var random: UInt64 = 0x9E37_79B9_7F4A_7C15
    var nextNumber = 0
    var mismatches = 0
    for _ in 0..<3_000 {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let roll = Int(random >> 33)
      if model.isEmpty || roll % 5 < 3 {
        nextNumber += 1
        set.insert(log.observer(nextNumber), key: UInt64(nextNumber))
        model.append(nextNumber)
      } else if roll % 5 == 3 {
        let position = (roll / 5) % model.count
        #expect(set.remove(key: UInt64(model[position])) == true)
        model[position] = model[model.count - 1]
        model.removeLast()
      } else {
        // A key never inserted, or one removed before.
        #expect(set.remove(key: UInt64(nextNumber + 1 + roll % 3)) == false)
      }
      if log.order(of: set) != model { mismatches += 1 }
      if set.count != model.count { mismatches += 1 }
    }
    #expect(mismatches == 0)
    #expect(nextNumber > 1_000)
  }
}
