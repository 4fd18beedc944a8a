import Dispatch
import Locking

/// Runs async work to its end from a thread that is not a task's: jwt-kit hands out a key's
/// algorithm only from its `JWTKeyCollection` actor.
///
/// Used once per key, when `--jwt-key` is read at start (the main thread, before any loop
/// runs); a token is then verified with the algorithm's synchronous `verify`, so no event loop
/// ever waits here. Nothing the work awaits runs on the waiting thread, so it cannot deadlock.
enum AsyncWait {
  /// The value `work` returns, or what it throws.
  static func result<Value: Sendable>(
    of work: @escaping @Sendable () async throws -> Value
  ) throws -> Value {
    let outcome = Locked<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let result: Result<Value, any Error>
      do { result = .success(try await work()) } catch { result = .failure(error) }
      outcome.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    return try outcome.withLock { $0 }!.get()
  }
}
