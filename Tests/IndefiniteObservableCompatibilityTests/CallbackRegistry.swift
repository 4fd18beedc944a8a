/// A callback API to wrap; nothing is delivered until a test calls `fire`.
final class CallbackRegistry<T> {
  private(set) var unregistrations = 0

  var registeredCount: Int { callbacks.count }

  func register(_ callback: @escaping (T) -> Void) -> Int {
    let token = nextToken
    nextToken += 1
    callbacks[token] = callback
    return token
  }

  func unregister(_ token: Int) {
    unregistrations += 1
    callbacks[token] = nil
  }

  func fire(_ value: T) {
    for token in callbacks.keys.sorted() {
      callbacks[token]?(value)
    }
  }

  private var nextToken = 0
  private var callbacks: [Int: (T) -> Void] = [:]
}
