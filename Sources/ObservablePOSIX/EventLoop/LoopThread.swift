import CLinux
import Glibc

/// A joinable POSIX thread that runs one closure: the body of an event loop, or of a client's
/// connection.
///
/// Plain pthreads rather than Foundation's `Thread`, which cannot be joined and would bring
/// Foundation into the server (and into the `observable` command) for this alone.
package struct LoopThread: Sendable {
  // pthread_t is an integer handle on Linux; joining it from another thread is what it is for.
  private let handle: pthread_t

  /// Starts a thread named `name` (at most 15 bytes are kept) that runs `body`, on a stack of
  /// `stackBytes` (the system's default, usually 8 MiB, when `nil`).
  package static func start(
    name: String, stackBytes: Int? = 1 << 20, _ body: @escaping @Sendable () -> Void
  ) throws(SystemError) -> LoopThread {
    let box = Unmanaged.passRetained(
      ThreadBody {
        observable_name_current_thread(name)
        body()
      }
    ).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
    var handle = pthread_t()
    let status = pthread_create(
      &handle, &attributes,
      { argument in
        guard let argument else { return nil }
        Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().run()
        return nil
      }, box)
    guard status == 0 else {
      Unmanaged<ThreadBody>.fromOpaque(box).release()
      throw SystemError(call: "pthread_create", code: status)
    }
    return LoopThread(handle: handle)
  }

  /// Waits for the thread to end.
  package func join() {
    _ = pthread_join(handle, nil)
  }

  /// Whether the caller is this thread, which must not join itself.
  package var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }

  /// Lets the thread end on its own, for a short-lived one nobody waits for.
  package func detach() {
    _ = pthread_detach(handle)
  }
}

/// The closure a new thread runs, boxed to cross `pthread_create`'s raw pointer.
private final class ThreadBody: Sendable {
  let run: @Sendable () -> Void

  init(_ run: @escaping @Sendable () -> Void) {
    self.run = run
  }
}
