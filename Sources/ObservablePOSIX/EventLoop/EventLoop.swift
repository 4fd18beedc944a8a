import CLinux
import Glibc
import Locking
import Logging

/// One thread that waits on epoll and runs the handlers, tasks and timers given to it.
///
/// State that only the loop thread touches (the handler table, the timers, the buffers) needs
/// no lock; tasks from other threads go through a mutex-guarded queue and an eventfd that wakes
/// the loop. Timers are the loop's own: the earliest deadline bounds `epoll_wait`'s timeout, so
/// a timer costs no thread and no system call of its own.
package final class EventLoop: @unchecked Sendable {
  // Unchecked: members other threads use (`tasks`, `wakeup`, `thread`) are behind locks or
  // immutable; every other member is used on the loop thread only, as each says.

  /// Creates the loop's epoll and wake-up descriptors; call ``start()`` to run it. With a
  /// `sendRing`, connections' sends during a turn go out in batches at its end.
  package init(name: String, logger: Logger, sendRing: SendRing? = nil) throws(SystemError) {
    // The descriptors come first, before any stored property is set: once every property is
    // set, a throw runs deinit, which closes them too, and a second close of a number can
    // close a descriptor another thread has opened meanwhile.
    (epoll, wakeup) = try Self.openDescriptors()
    self.name = name
    self.logger = logger
    self.sendRing = sendRing
    readBuffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: Self.readBufferBytes, alignment: 16)
    sendRing?.loop = self
  }

  deinit {
    close(epoll)
    close(wakeup)
    readBuffer.deallocate()
  }

  package let name: String

  /// Starts the loop's thread.
  package func start() throws(SystemError) {
    let started = try LoopThread.start(name: name) { [self] in run() }
    thread.withLock { $0 = started }
  }

  /// Runs `task` on the loop thread, soon.
  ///
  /// Waking a sleeping loop costs a system call and a context switch, so a loop thread that
  /// queues work for another loop (a publish reaching subscribers elsewhere) wakes it once at
  /// the end of its own turn rather than once per task.
  package func execute(_ task: @escaping @Sendable () -> Void) {
    let wasIdle = tasks.withLock { queue in
      queue.append(task)
      return queue.count == 1
    }
    guard wasIdle else { return }
    guard let current = Self.current else { return wake() }
    // On its own thread the loop checks its queue before it sleeps; no wake-up is needed.
    if current !== self { current.deferredWakeups.append(self) }
  }

  /// The loop whose thread is running the caller, if any.
  package static var current: EventLoop? {
    pthread_getspecific(currentKey).map {
      Unmanaged<EventLoop>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Whether the caller runs on this loop's thread.
  package var inLoop: Bool { Self.current === self }

  /// Stops a debug build when the caller is not on this loop's thread: the check behind every
  /// "loop thread only" type marked `@unchecked Sendable`. `assert` is compiled out of release
  /// builds, so it costs nothing there.
  @inline(__always)
  package func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
    assert(inLoop, "\(name): loop-only code ran on another thread", file: file, line: line)
  }

  private static let currentKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  private func wake() {
    var one: UInt64 = 1
    // EAGAIN means the counter is full, which wakes the loop all the same.
    _ = try? syscall("write(eventfd)") { Glibc.write(wakeup, &one, 8) }
  }

  /// Stops the loop after the tasks already queued have run.
  package func stop() {
    execute { [self] in running = false }
  }

  /// Waits until the loop thread has ended; after ``stop()``, from another thread.
  package func join() {
    let running = thread.withLock { thread in
      defer { thread = nil }
      return thread
    }
    running?.join()
  }

  // MARK: Loop thread only

  /// Starts watching `fd` for `events` on behalf of `handler`. Loop thread only.
  package func register(_ fd: Int32, events: UInt32, handler: ReadinessHandler) throws(SystemError)
  {
    assertInLoop()
    try control(EPOLL_CTL_ADD, fd, events: events, "epoll_ctl(ADD)")
    handlers[fd] = handler
  }

  /// Changes the events watched for `fd`. Loop thread only.
  package func modify(_ fd: Int32, events: UInt32) throws(SystemError) {
    assertInLoop()
    try control(EPOLL_CTL_MOD, fd, events: events, "epoll_ctl(MOD)")
  }

  /// Stops watching `fd`; the caller closes it afterwards. Loop thread only.
  package func deregister(_ fd: Int32) {
    assertInLoop()
    // Fails only for a descriptor that was never added, which leaves nothing to undo.
    try? control(EPOLL_CTL_DEL, fd, events: 0, "epoll_ctl(DEL)")
    handlers[fd] = nil
    heavyDescriptors.remove(fd)
  }

  /// Runs `task` on the loop thread once `delay` has passed, unless cancelled. Loop thread only.
  @discardableResult
  package func schedule(in delay: Duration, _ task: @escaping () -> Void) -> LoopTimer {
    assertInLoop()
    return timers.schedule(at: .now + delay, task)
  }

  /// Cancels a task ``schedule(in:_:)`` returned, if it has not run. Loop thread only.
  package func cancel(_ timer: LoopTimer) {
    assertInLoop()
    timers.cancel(timer)
  }

  /// Gathers the sends of each turn into io_uring batches; `nil` where io_uring is off or
  /// unavailable, and sockets are written with `send`. Loop thread only: it is handed over
  /// before the thread starts.
  package let sendRing: SendRing?

  /// The loop's reusable read buffer, so idle connections hold no buffer of their own.
  package let readBuffer: UnsafeMutableRawBufferPointer

  /// The size of ``readBuffer``: the most one read takes in.
  package static let readBufferBytes = 64 * 1024

  private func control(_ operation: Int32, _ fd: Int32, events: UInt32, _ call: StaticString)
    throws(SystemError)
  {
    var event = epoll_event()
    event.events = events
    event.data.u64 = UInt64(UInt32(bitPattern: fd))
    _ = try blockingSyscall(call) { epoll_ctl(epoll, operation, fd, &event) }
  }

  private func run() {
    pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
    let capacity = 256
    let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
    defer { events.deallocate() }
    while running {
      let count: Int32
      do {
        let outcome = try syscall("epoll_wait") {
          epoll_wait(epoll, events, Int32(capacity), waitMilliseconds())
        }
        guard case .done(let ready) = outcome else { continue }
        count = ready
      } catch {
        // Only a broken epoll descriptor fails here: the loop cannot go on, and the stalled
        // watchdog and health check report it.
        logger.critical("event loop stopped", metadata: ["loop": "\(name)", "error": "\(error)"])
        return
      }
      handleReady(UnsafeBufferPointer(start: events, count: Int(count)))
      for task in timers.takeDue(at: .now) { task() }
      runTasks()
      sendRing?.submitQueued()
      for loop in deferredWakeups { loop.wake() }
      deferredWakeups.removeAll(keepingCapacity: true)
    }
  }

  /// The eventfd other threads write to wake the loop.
  var wakeupDescriptor: Int32 { wakeup }

  /// Reads the eventfd's counter, so that it stops reporting readable.
  func drainWakeup() {
    var value: UInt64 = 0
    _ = try? syscall("read(eventfd)") { Glibc.read(wakeup, &value, 8) }
  }

  /// The handler registered for `fd`, if any. Loop thread only.
  package func handler(for fd: Int32) -> ReadinessHandler? { handlers[fd] }

  /// How long `epoll_wait` may sleep: not at all with tasks queued, else until the next timer.
  private func waitMilliseconds() -> Int32 {
    if tasks.withLock({ !$0.isEmpty }) || sendRing?.hasQueued == true { return 0 }
    guard let deadline = timers.nextDeadline() else { return -1 }
    let remaining = deadline - .now
    guard remaining > .zero else { return 0 }
    let (seconds, attoseconds) = remaining.components
    // Rounded up, so the loop never wakes just before a deadline and sleeps again for nothing.
    let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: milliseconds)
  }

  private func runTasks() {
    // Tasks queued while these run wait for the next turn, so sockets are not starved.
    let batch = tasks.withLock { queue in
      defer { queue.removeAll(keepingCapacity: true) }
      return queue
    }
    for task in batch { task() }
  }

  private let logger: Logger
  private let epoll: Int32
  private let wakeup: Int32
  private let tasks = Locked<[@Sendable () -> Void]>([])
  private let thread = Locked<LoopThread?>(nil)
  private var running = true
  private var handlers: [Int32: ReadinessHandler] = [:]
  private var timers = TimerQueue()
  private var deferredWakeups: [EventLoop] = []
  /// The descriptors left unhandled when turns ran out of time, with how many turns in a row
  /// each was left: the longest waiting are handled first. Loop thread only.
  var turnsWaited: [Int32: Int] = [:]
  /// The descriptors whose last handling took longer than ``lightHandling``: after a turn
  /// that ran out of time, they wait for the light ones. Loop thread only.
  var heavyDescriptors: Set<Int32> = []
  /// How many descriptors this turn found with input to read: they share the turn's read time
  /// (see `ReadBudget`). Loop thread only.
  package internal(set) var readersThisTurn = 0
}
