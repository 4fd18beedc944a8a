import IndefiniteObservable
import Testing

/// The specification's examples, with `print` replaced by recording and its callback API
/// played by `CallbackRegistry`.
@Suite("Specification examples")
struct SpecificationExampleTests {
  @Test("synchronous stream")
  func synchronousStream() {
    var printed: [Int] = []

    let observable = ValueObservable<Int> { observer in
      observer.next(5)
      return noopDisconnect
    }
    let subscription = observable.subscribe { value in
      printed.append(value)
    }

    #expect(printed == [5])
    subscription.unsubscribe()
  }

  @Test("asynchronous stream from a callback API")
  func asynchronousStream() {
    let callbacks = CallbackRegistry<Int>()
    var printed: [Int] = []

    let observable = ValueObservable<Int> { observer in
      let someToken = callbacks.register { callbackValue in
        observer.next(callbackValue)
      }
      return {
        callbacks.unregister(someToken)
      }
    }
    #expect(callbacks.registeredCount == 0)

    let subscription = observable.subscribe { value in
      printed.append(value)
    }
    #expect(callbacks.registeredCount == 1)
    #expect(printed.isEmpty)

    callbacks.fire(5)
    callbacks.fire(6)
    #expect(printed == [5, 6])
    subscription.unsubscribe()
  }

  @Test("unsubscribe")
  func unsubscribe() {
    let callbacks = CallbackRegistry<Int>()
    var printed: [Int] = []
    let subscription = callbacks.observable().subscribe { value in
      printed.append(value)
    }
    callbacks.fire(1)

    subscription.unsubscribe()
    callbacks.fire(2)

    #expect(printed == [1])
    #expect(callbacks.registeredCount == 0)
    #expect(callbacks.unregistrations == 1)
  }
}
