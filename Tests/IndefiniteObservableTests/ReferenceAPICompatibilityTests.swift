import IndefiniteObservable
import Testing

/// The 4.0 README's user-declared types, namespaced so they don't clash with the library's
/// `ValueObserver` and `ValueObservable`; proves that code still compiles in Swift 6 mode.
private enum Reference {
  final class ValueObserver<T>: Observer {
    typealias Value = T

    init(_ next: @escaping (T) -> Void) {
      self.next = next
    }

    let next: (T) -> Void
  }

  final class ValueObservable<T>: IndefiniteObservable<ValueObserver<T>> {
    func subscribe(_ next: @escaping (T) -> Void) -> Subscription {
      return super.subscribe(observer: ValueObserver(next))
    }
  }

  /// An object-based connection, as the README's `DragConnection`, over a callback registry.
  final class RegistryConnection {
    init(subscribedTo registry: CallbackRegistry<Int>, observer: ValueObserver<Int>) {
      self.registry = registry
      token = registry.register(observer.next)
    }

    func disconnect() {
      registry.unregister(token)
    }

    private let registry: CallbackRegistry<Int>
    private let token: CallbackRegistry<Int>.Token
  }
}

@Suite("4.0 README example, Swift 6 mode")
struct ReferenceAPICompatibilityTests {
  @Test("synchronous stream")
  func synchronousStream() {
    var received: [Int] = []
    let observable = Reference.ValueObservable<Int> { observer in
      observer.next(5)
      return noopDisconnect
    }

    let subscription = observable.subscribe { value in
      received.append(value)
    }

    #expect(received == [5])
    subscription.unsubscribe()
  }

  @Test("asynchronous stream from a callback API, then unsubscribe")
  func asynchronousStream() {
    let callbacks = CallbackRegistry<Int>()
    var received: [Int] = []
    let observable = Reference.ValueObservable<Int> { observer in
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
    callbacks.fire(3)
    subscription.unsubscribe()
    subscription.unsubscribe()
    callbacks.fire(4)

    #expect(received == [3])
    #expect(callbacks.unregistrations == 1)
  }

  @Test("an object's disconnect method is the Disconnect")
  func objectBasedConnection() {
    let callbacks = CallbackRegistry<Int>()
    let observable = Reference.ValueObservable<Int> { observer in
      return Reference.RegistryConnection(subscribedTo: callbacks, observer: observer).disconnect
    }
    var received: [Int] = []

    let subscription = observable.subscribe { received.append($0) }
    callbacks.fire(6)
    subscription.unsubscribe()
    callbacks.fire(7)

    #expect(received == [6])
    #expect(callbacks.registeredCount == 0)
  }
}
