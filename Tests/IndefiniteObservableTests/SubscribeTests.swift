import IndefiniteObservable
import Testing

@Suite("Subscribe")
struct SubscribeTests {
  @Test("connect does not run before subscribe")
  func connectWaitsForSubscribe() {
    let connects = Counter()
    let observable = ValueObservable<Int> { _ in
      connects.increment()
      return noopDisconnect
    }
    #expect(connects.value == 0)

    observable.subscribe { _ in }

    #expect(connects.value == 1)
  }

  @Test("connect runs once per subscribe call", arguments: [1, 2, 7])
  func connectRunsOncePerSubscribe(subscribeCount: Int) {
    let connects = Counter()
    let observable = ValueObservable<Int> { _ in
      connects.increment()
      return noopDisconnect
    }

    for _ in 0..<subscribeCount {
      observable.subscribe { _ in }
    }

    #expect(connects.value == subscribeCount)
  }

  @Test("connect receives the observer given to subscribe(observer:)")
  func connectReceivesTheObserver() {
    var connected: [ValueObserver<Int>] = []
    let observable = ValueObservable<Int> { observer in
      connected.append(observer)
      return noopDisconnect
    }
    let observer = ValueObserver<Int> { _ in }

    observable.subscribe(observer: observer)

    #expect(connected.count == 1)
    #expect(connected.first === observer)
  }

  @Test("a synchronous source delivers its values before subscribe returns")
  func synchronousValuesArriveDuringSubscribe() {
    let observable = ValueObservable<Int> { observer in
      for value in [3, 1, 4] { observer.next(value) }
      return noopDisconnect
    }
    var received: [Int] = []

    observable.subscribe { received.append($0) }

    #expect(received == [3, 1, 4])
  }

  @Test("values reach the observer only when the source emits")
  func valuesArriveOnlyWhenEmitted() {
    let registry = CallbackRegistry<Int>()
    var received: [Int] = []

    let subscription = registry.observable().subscribe { received.append($0) }
    #expect(received.isEmpty)

    registry.fire(8)
    #expect(received == [8])

    registry.fire(13)
    #expect(received == [8, 13])
    subscription.unsubscribe()
  }

  @Test("each subscription gets its own connection")
  func eachSubscriptionConnectsSeparately() {
    let registry = CallbackRegistry<Int>()
    let observable = registry.observable()
    var first: [Int] = []
    var second: [Int] = []

    observable.subscribe { first.append($0) }
    observable.subscribe { second.append($0) }
    registry.fire(21)

    #expect(registry.registeredCount == 2)
    #expect(first == [21])
    #expect(second == [21])
  }

  @Test("releasing a subscription does not unsubscribe")
  func releasingTheSubscriptionKeepsTheConnection() {
    let registry = CallbackRegistry<Int>()
    var received: [Int] = []
    weak var weakSubscription: Subscription?

    do {
      let subscription = registry.observable().subscribe { received.append($0) }
      weakSubscription = subscription
    }
    registry.fire(34)

    #expect(weakSubscription == nil)
    #expect(registry.unregistrations == 0)
    #expect(received == [34])
  }
}
