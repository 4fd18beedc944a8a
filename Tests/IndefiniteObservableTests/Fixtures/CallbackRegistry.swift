import IndefiniteObservable

/// A callback API of the kind the specification wraps: register a callback for a token, later
/// unregister the token. Nothing is delivered until a test calls `fire`, so a test controls
/// exactly when a source emits.
final class CallbackRegistry<T> {
  struct Token: Hashable {
    let id: Int
  }

  /// Calls to `register` so far; one per connect of an observable built on this registry.
  private(set) var registrations = 0

  /// Calls to `unregister` so far, counting repeats, so a second disconnect would show.
  private(set) var unregistrations = 0

  var registeredCount: Int { callbacks.count }

  func register(_ callback: @escaping (T) -> Void) -> Token {
    let token = Token(id: registrations)
    registrations += 1
    callbacks[token.id] = callback
    return token
  }

  func unregister(_ token: Token) {
    unregistrations += 1
    callbacks[token.id] = nil
  }

  /// Delivers `value` to every registered callback, in registration order.
  func fire(_ value: T) {
    // Looked up again per id, so a callback unregistered by an earlier one is skipped.
    for id in callbacks.keys.sorted() {
      callbacks[id]?(value)
    }
  }

  private var callbacks: [Int: (T) -> Void] = [:]
}

extension CallbackRegistry {
  /// The specification's asynchronous stream: one registration per subscription, unregistered
  /// on disconnect.
  func observable() -> ValueObservable<T> {
    ValueObservable { observer in
      let token = self.register { observer.next($0) }
      return { self.unregister(token) }
    }
  }
}
