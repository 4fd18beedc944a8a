import IndefiniteObservable
import Testing

@Suite("Unsubscribe")
struct UnsubscribeTests {
  @Test("unsubscribe runs the disconnect, not before")
  func unsubscribeRunsTheDisconnect() {
    let disconnects = Counter()
    let observable = ValueObservable<Int> { _ in
      { disconnects.increment() }
    }

    let subscription = observable.subscribe { _ in }
    #expect(disconnects.value == 0)

    subscription.unsubscribe()
    #expect(disconnects.value == 1)
  }

  @Test("repeated unsubscribe disconnects exactly once", arguments: [2, 3, 10])
  func repeatedUnsubscribeDisconnectsOnce(unsubscribeCount: Int) {
    let disconnects = Counter()
    let subscription = ValueObservable<Int> { _ in
      { disconnects.increment() }
    }.subscribe { _ in }

    for _ in 0..<unsubscribeCount {
      subscription.unsubscribe()
    }

    #expect(disconnects.value == 1)
  }

  @Test("an unsubscribed observer stops receiving while the others go on")
  func unsubscribedObserverStops() {
    let registry = CallbackRegistry<Int>()
    let observable = registry.observable()
    var first: [Int] = []
    var second: [Int] = []
    var third: [Int] = []
    observable.subscribe { first.append($0) }
    let secondSubscription = observable.subscribe { second.append($0) }
    observable.subscribe { third.append($0) }

    registry.fire(1)
    secondSubscription.unsubscribe()
    registry.fire(2)

    #expect(first == [1, 2])
    #expect(second == [1])
    #expect(third == [1, 2])
    #expect(registry.unregistrations == 1)
    #expect(registry.registeredCount == 2)
  }

  @Test("a subscription made directly runs its disconnect once")
  func directSubscriptionDisconnectsOnce() {
    let disconnects = Counter()
    let subscription = Subscription { disconnects.increment() }

    subscription.unsubscribe()
    subscription.unsubscribe()

    #expect(disconnects.value == 1)
  }
}
