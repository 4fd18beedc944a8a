import IndefiniteObservable
import Testing

@Suite("Operators")
struct OperatorTests {
  @Test("map transforms every value")
  func mapTransforms() {
    let registry = CallbackRegistry<Int>()
    var received: [String] = []
    registry.observable().map { "#\($0)" }.subscribe { received.append($0) }

    registry.fire(4)
    registry.fire(9)

    #expect(received == ["#4", "#9"])
  }

  @Test("filter passes only the included values")
  func filterSelects() {
    let registry = CallbackRegistry<Int>()
    var received: [Int] = []
    registry.observable().filter { $0.isMultiple(of: 3) }.subscribe { received.append($0) }

    for value in 1...10 { registry.fire(value) }

    #expect(received == [3, 6, 9])
  }

  @Test("map and filter chain in order")
  func chained() {
    let registry = CallbackRegistry<Int>()
    var received: [Int] = []
    registry.observable()
      .map { $0 * 10 }
      .filter { $0 > 20 }
      .subscribe { received.append($0) }

    for value in 1...4 { registry.fire(value) }

    #expect(received == [30, 40])
  }

  @Test("the transform runs once per value per subscriber, and not before a value")
  func transformRunsPerValue() {
    let registry = CallbackRegistry<Int>()
    let transforms = Counter()
    let mapped = registry.observable().map { value in
      transforms.increment()
      return value
    }
    mapped.subscribe { _ in }
    mapped.subscribe { _ in }
    #expect(transforms.value == 0)

    for value in 1...3 { registry.fire(value) }

    #expect(transforms.value == 6)
  }

  @Test("each downstream subscribe connects upstream once", arguments: Operator.allCases)
  func downstreamSubscribeConnectsUpstreamOnce(kind: Operator) {
    let registry = CallbackRegistry<Int>()
    let downstream = kind.apply(to: registry.observable())
    #expect(registry.registrations == 0)

    downstream.subscribe { _ in }
    downstream.subscribe { _ in }

    #expect(registry.registrations == 2)
  }

  @Test("unsubscribing downstream disconnects upstream exactly once", arguments: Operator.allCases)
  func downstreamUnsubscribeDisconnectsUpstreamOnce(kind: Operator) {
    let registry = CallbackRegistry<Int>()
    var received: [Int] = []
    let subscription = kind.apply(to: registry.observable()).subscribe {
      received.append($0)
    }
    registry.fire(1)

    subscription.unsubscribe()
    subscription.unsubscribe()
    registry.fire(2)

    #expect(registry.unregistrations == 1)
    #expect(registry.registeredCount == 0)
    #expect(received.count == 1)
  }
}
