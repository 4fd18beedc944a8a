import Dispatch
import Locking

extension EventLoop {
  /// Runs `body` on the loop thread and waits for it, for set-up that must happen there. On
  /// the loop thread itself it runs `body` at once: queueing it and waiting would wait forever,
  /// since the loop cannot run the task while it waits.
  package func submitAndWait(_ body: @escaping @Sendable () throws(SystemError) -> Void)
    throws(SystemError)
  {
    if inLoop { return try body() }
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<SystemError?>(nil)
    execute {
      do throws(SystemError) {
        try body()
      } catch {
        outcome.withLock { $0 = error }
      }
      done.signal()
    }
    done.wait()
    if let error = outcome.withLock({ $0 }) { throw error }
  }
}
