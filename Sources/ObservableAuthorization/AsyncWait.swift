import Dispatch
import Locking

/// Runs async work to its end from a thread that is not a task's: jwt-kit's key collection is
/// an actor, and the server's event loops are plain threads that answer `auth` in place.
///
/// The loop thread waits for as long as the work takes: an HMAC or ECDSA check, tens of
/// microseconds, once per `auth`. Nothing the work awaits runs on the waiting thread, so it
/// cannot deadlock while the server starts no other tasks on the cooperative pool.
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
