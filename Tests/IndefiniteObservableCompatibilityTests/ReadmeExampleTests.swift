import IndefiniteObservable
import Testing

// Compiled twice: here in Swift 5 language mode, and through links in
// IndefiniteObservableSwift6CompatibilityTests in Swift 6 mode; the module names the mode.
@Suite("4.0 README example")
struct ReadmeExampleTests {
  @Test("synchronous stream")
  func synchronousStream() {
    var received: [Int] = []
    let observable = ValueObservable<Int> { observer in
      observer.next(5)
      return noopDisconnect
    }

    let subscription = observable.subscribe { value in
      received.append(value)
    }

    #expect(received == [5])
    subscription.unsubscribe()
  }

  @Test("asynchronous stream from a callback API")
  func asynchronousStream() {
    let callbacks = CallbackRegistry<Int>()
    var received: [Int] = []
    let observable = ValueObservable<Int> { observer in
      let someToken = callbacks.register { callbackValue in
        observer.next(callbackValue)
      }
      return {
        callbacks.unregister(someToken)
      }
    }

    let subscription = observable.subscribe { value in
      received.append(value)
    }
    #expect(received.isEmpty)
    callbacks.fire(3)

    #expect(received == [3])
    #expect(callbacks.registeredCount == 1)
    subscription.unsubscribe()
  }

  @Test("unsubscribe disconnects once and stops the values")
  func unsubscribe() {
    let callbacks = CallbackRegistry<Int>()
    var received: [Int] = []
    let observable = ValueObservable<Int> { observer in
      let token = callbacks.register(observer.next)
      return { callbacks.unregister(token) }
    }
    let subscription = observable.subscribe { received.append($0) }
    callbacks.fire(1)

    subscription.unsubscribe()
    subscription.unsubscribe()
    callbacks.fire(2)

    #expect(received == [1])
    #expect(callbacks.unregistrations == 1)
  }

  @Test("noopDisconnect is a Disconnect that holds nothing")
  func noopDisconnectHoldsNothing() {
    let observable = ValueObservable<Int> { observer in
      observer.next(1)
      return noopDisconnect
    }
    var received: [Int] = []
    weak var weakObserver: ValueObserver<Int>?
    let subscription: Subscription
    do {
      let observer = ValueObserver<Int> { received.append($0) }
      weakObserver = observer
      subscription = observable.subscribe(observer: observer)
    }

    #expect(received == [1])
    #expect(weakObserver == nil)
    subscription.unsubscribe()
  }

  @Test("an object's disconnect method is the Disconnect")
  func objectBasedConnection() {
    let pan = PanGesture()
    let dragStream = ValueObservable<DragConnection.Value> { observer in
      return DragConnection(subscribedTo: pan, observer: observer).disconnect
    }
    let start = PanGesture.Point(x: 1, y: 2)
    let end = PanGesture.Point(x: 5, y: 8)
    var locations: [DragConnection.Value] = []

    let subscription = dragStream.subscribe { locations.append($0) }
    #expect(pan.targetCount == 1)
    // Delivery proves the method reference alone keeps the connection alive.
    pan.move(to: start)
    pan.move(to: end)
    subscription.unsubscribe()
    pan.move(to: start)

    #expect(locations == [start, end])
    #expect(pan.targetCount == 0)
  }
}
