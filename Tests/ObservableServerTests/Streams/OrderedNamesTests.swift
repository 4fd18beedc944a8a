import Testing

@testable import ObservableServer
@testable import ObservableStreams

/// ``OrderedNames`` against a sorted array, through enough inserts and removes to split and
/// merge nodes at every level.
@Suite("OrderedNames")
struct OrderedNamesTests {
  @Test func keepsNameOrderThroughInsertsAndRemoves() {
    var tree = OrderedNames<Int>()
    var model: [String: Int] = [:]
    var random = SystemRandomNumberGenerator()
    for step in 0..<60_000 {
      let key = "k.\(Int.random(in: 0..<20_000, using: &random))"
      // Mostly inserts first, then mostly removes, so the tree grows and shrinks.
      if Int.random(in: 0..<100, using: &random) < (step < 30_000 ? 70 : 25) {
        tree.insert(key, step)
        model[key] = step
      } else {
        tree.remove(key)
        model[key] = nil
      }
    }
    let sorted = model.keys.sorted()
    #expect(tree.count == sorted.count)
    var all: [String] = []
    tree.forEach(from: nil, inclusive: true) { key, value in
      #expect(model[key] == value)
      all.append(key)
      return true
    }
    #expect(all == sorted)
    // From any place, inclusive or not, and stopping early.
    for bound in ["k.1", "k.5000", sorted[sorted.count / 2], "k.99999", "a", "z"] {
      for inclusive in [true, false] {
        var page: [String] = []
        tree.forEach(from: bound, inclusive: inclusive) { key, _ in
          page.append(key)
          return page.count < 100
        }
        let expected = sorted.filter { inclusive ? $0 >= bound : $0 > bound }.prefix(100)
        #expect(page == Array(expected), "from \(bound), inclusive: \(inclusive)")
      }
    }
    for key in sorted { tree.remove(key) }
    #expect(tree.count == 0)
    var left = 0
    tree.forEach(from: nil, inclusive: true) { _, _ in
      left += 1
      return true
    }
    #expect(left == 0)
  }
}
