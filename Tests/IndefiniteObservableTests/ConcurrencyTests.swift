import IndefiniteObservable
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
  @Test("sixteen threads racing unsubscribe disconnect exactly once, every round")
  func racingUnsubscribeDisconnectsOnce() {
    let threadCount = 16
    let rounds = 500
    var roundsNotRaced: [Int] = []
    var roundsWithWrongCount: [Int] = []

    for round in 0..<rounds {
      let disconnects = Counter()
      let unsubscribeCalls = Counter()
      let subscription = ValueObservable<Int> { _ in
        { disconnects.increment() }
      }.subscribe { _ in }

      let finished = race(threads: threadCount) { _ in
        subscription.unsubscribe()
        unsubscribeCalls.increment()
      }

      if !finished || unsubscribeCalls.value != threadCount { roundsNotRaced.append(round) }
      if disconnects.value != 1 { roundsWithWrongCount.append(round) }
    }

    #expect(roundsNotRaced.isEmpty)
    #expect(roundsWithWrongCount.isEmpty)
  }

  @Test("threads unsubscribing many subscriptions disconnect each exactly once")
  func racingOverManySubscriptions() {
    let count = 16
    let disconnects = (0..<count).map { _ in Counter() }
    let subscriptions = disconnects.map { counter in
      ValueObservable<Int> { _ in
        { counter.increment() }
      }.subscribe { _ in }
    }

    // Each thread starts at a different subscription so that every one is contended.
    let finished = race(threads: count) { start in
      for offset in 0..<count {
        subscriptions[(start + offset) % count].unsubscribe()
      }
    }

    #expect(finished)
    #expect(disconnects.map(\.value) == Array(repeating: 1, count: count))
  }

  @Test("a disconnect that unsubscribes its own subscription runs once, without deadlock")
  func reentrantUnsubscribe() {
    let disconnects = Counter()

    // On its own thread, so that a deadlock fails the deadline instead of hanging the run.
    let finished = race(threads: 1, timeout: .seconds(10)) { _ in
      var subscription: Subscription?
      let observable = ValueObservable<Int> { _ in
        {
          disconnects.increment()
          subscription?.unsubscribe()
        }
      }
      subscription = observable.subscribe { _ in }
      subscription?.unsubscribe()
      subscription?.unsubscribe()
    }

    #expect(finished)
    #expect(disconnects.value == 1)
  }
}
