import Glibc

/// Starts and joins the POSIX thread that runs one client's connection.
///
/// A thread of its own rather than a task: the connection blocks in `poll` and `read`, which
/// would hold one of the cooperative pool's few threads for the client's whole life.
enum ConnectionThread {
  /// The closure a new thread runs, passed through `pthread_create`'s context pointer.
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Starts a thread running `body`; `nil` when the system refuses one.
  static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    guard status == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      return nil
    }
    return thread
  }

  /// Waits for `thread` to end, unless it is the calling thread (a client closed from one of
  /// its own observers), which is then left to end by itself.
  static func finish(_ thread: pthread_t) {
    if pthread_equal(thread, pthread_self()) != 0 {
      pthread_detach(thread)
    } else {
      pthread_join(thread, nil)
    }
  }
}
