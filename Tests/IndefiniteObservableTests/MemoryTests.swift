import IndefiniteObservable
import Testing

/// Something a connect or disconnect holds on to, watched through a weak reference.
private final class Resource {}

@Suite("Memory")
struct MemoryTests {
  @Test("an observable with no strong reference left is freed")
  func unreferencedObservableIsFreed() {
    weak var weakObservable: ValueObservable<Int>?
    do {
      let observable = ValueObservable<Int> { _ in noopDisconnect }
      weakObservable = observable
      withExtendedLifetime(observable) { #expect(weakObservable != nil) }
    }
    #expect(weakObservable == nil)
  }

  @Test("a live subscription does not keep its observable alive")
  func subscriptionDoesNotRetainObservable() {
    let registry = CallbackRegistry<Int>()
    weak var weakObservable: ValueObservable<Int>?
    var received: [Int] = []
    let subscription: Subscription
    do {
      let observable = registry.observable()
      weakObservable = observable
      subscription = observable.subscribe { received.append($0) }
    }
    #expect(weakObservable == nil)

    // The connection outlives the observable it came from.
    registry.fire(5)
    #expect(received == [5])
    subscription.unsubscribe()
  }

  @Test("operators' observables are freed, even while subscribed", arguments: Operator.allCases)
  func derivedObservablesAreFreed(kind: Operator) {
    let registry = CallbackRegistry<Int>()
    weak var weakUpstream: ValueObservable<Int>?
    weak var weakDownstream: ValueObservable<Int>?
    let subscription: Subscription
    do {
      let upstream = registry.observable()
      let downstream = kind.apply(to: upstream)
      weakUpstream = upstream
      weakDownstream = downstream
      subscription = downstream.subscribe { _ in }
    }
    #expect(weakUpstream == nil)
    #expect(weakDownstream == nil)
    subscription.unsubscribe()
    #expect(registry.registeredCount == 0)
  }

  @Test("a downstream observable keeps its upstream alive", arguments: Operator.allCases)
  func downstreamRetainsUpstream(kind: Operator) {
    let registry = CallbackRegistry<Int>()
    weak var weakUpstream: ValueObservable<Int>?
    var downstream: ValueObservable<Int>?
    do {
      let upstream = registry.observable()
      weakUpstream = upstream
      downstream = kind.apply(to: upstream)
    }
    #expect(weakUpstream != nil)

    var received: [Int] = []
    downstream?.subscribe { received.append($0) }
    registry.fire(2)
    #expect(received.count == 1)

    downstream = nil
    #expect(weakUpstream == nil)
  }

  @Test("a subscription whose disconnect is noopDisconnect does not keep its observer alive")
  func noopSubscriptionReleasesObserver() {
    let observable = ValueObservable<Int> { observer in
      observer.next(1)
      return noopDisconnect
    }
    weak var weakObserver: ValueObserver<Int>?
    let subscription: Subscription
    do {
      let observer = ValueObserver<Int> { _ in }
      weakObserver = observer
      subscription = observable.subscribe(observer: observer)
    }
    #expect(weakObserver == nil)
    withExtendedLifetime(subscription) {}
  }

  @Test("unsubscribe releases what the disconnect captured")
  func unsubscribeReleasesDisconnectCaptures() {
    weak var weakResource: Resource?
    let subscription: Subscription
    do {
      let resource = Resource()
      weakResource = resource
      subscription = ValueObservable<Int> { _ in
        { withExtendedLifetime(resource) {} }
      }.subscribe { _ in }
    }
    #expect(weakResource != nil)

    subscription.unsubscribe()

    #expect(weakResource == nil)
  }
}
