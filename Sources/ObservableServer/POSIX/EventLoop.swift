import CLinux
import Foundation
import Glibc
import Locking

/// Something registered with an ``EventLoop`` that it tells when its descriptor is ready.
///
/// Handlers are only ever called on their loop's thread.
protocol ReadinessHandler: AnyObject {
  /// Called with the epoll event mask (`EPOLLIN`, `EPOLLOUT`, `EPOLLHUP`, `EPOLLERR`).
  func descriptorReady(_ events: UInt32)
}

/// One thread that waits on epoll and runs the handlers and tasks given to it.
///
/// State that only the loop thread touches (the handler table) needs no lock; tasks from other
/// threads go through a mutex-guarded queue and an eventfd that wakes the loop.
final class EventLoop: @unchecked Sendable {
  /// Creates the loop's epoll and wake-up descriptors; call ``start()`` to run it.
  init(name: String) throws(SystemError) {
    self.name = name
    epoll = try blockingSyscall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    wakeup = try blockingSyscall("eventfd") {
      eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
    }
    var event = epoll_event()
    event.events = EPOLLIN.rawValue
    event.data.u64 = UInt64(UInt32(bitPattern: wakeup))
    _ = try blockingSyscall("epoll_ctl") { epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event) }
  }

  deinit {
    close(epoll)
    close(wakeup)
  }

  let name: String

  /// Starts the loop's thread.
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.stackSize = 1 << 20
    thread.start()
  }

  /// Runs `task` on the loop thread, soon.
  ///
  /// Waking a sleeping loop costs a system call and a context switch, so a loop thread that
  /// queues work for another loop (a publish reaching subscribers elsewhere) wakes it once at
  /// the end of its own turn rather than once per task.
  func execute(_ task: @escaping @Sendable () -> Void) {
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
  static var current: EventLoop? {
    pthread_getspecific(currentKey).map {
      Unmanaged<EventLoop>.fromOpaque($0).takeUnretainedValue()
    }
  }

  private static let currentKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  private func wake() {
    var one: UInt64 = 1
    _ = Glibc.write(wakeup, &one, 8)
  }

  /// Stops the loop after the tasks already queued have run.
  func stop() {
    execute { [self] in running = false }
  }

  /// Blocks until the loop thread has ended, up to `timeout`.
  func awaitStopped(timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if stopped.withLock({ $0 }) { return true }
      usleep(1000)
    }
    return false
  }

  // MARK: Loop thread only

  /// Starts watching `fd` for `events` on behalf of `handler`. Loop thread only.
  func register(_ fd: Int32, events: UInt32, handler: ReadinessHandler) throws(SystemError) {
    var event = epoll_event()
    event.events = events
    event.data.u64 = UInt64(UInt32(bitPattern: fd))
    _ = try blockingSyscall("epoll_ctl(ADD)") { epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) }
    handlers[fd] = handler
  }

  /// Changes the events watched for `fd`. Loop thread only.
  func modify(_ fd: Int32, events: UInt32) throws(SystemError) {
    var event = epoll_event()
    event.events = events
    event.data.u64 = UInt64(UInt32(bitPattern: fd))
    _ = try blockingSyscall("epoll_ctl(MOD)") { epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) }
  }

  /// Stops watching `fd`; the caller closes it afterwards. Loop thread only.
  func deregister(_ fd: Int32) {
    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
    handlers[fd] = nil
  }

  /// The loop's reusable read buffer, so idle connections hold no buffer of their own.
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

  /// Storage for bytes that a handler builds and hands on before it returns (a read's batched
  /// publishes, then their replies), parked here between handlers so that connections keep no
  /// such buffer of their own. Loop thread only.
  var scratch: [UInt8] = []

  private func run() {
    pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
    let capacity = 256
    let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
    defer {
      events.deallocate()
      stopped.withLock { $0 = true }
    }
    while running {
      let hasTasks = tasks.withLock { !$0.isEmpty }
      let count = epoll_wait(epoll, events, Int32(capacity), hasTasks ? 0 : -1)
      if count < 0 { continue }
      for index in 0..<Int(count) {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: events[index].data.u64))
        if fd == wakeup {
          var value: UInt64 = 0
          _ = Glibc.read(wakeup, &value, 8)
        } else {
          handlers[fd]?.descriptorReady(events[index].events)
        }
      }
      runTasks()
      for loop in deferredWakeups { loop.wake() }
      deferredWakeups.removeAll(keepingCapacity: true)
    }
  }

  private func runTasks() {
    // Tasks queued while these run wait for the next turn, so sockets are not starved.
    let batch = tasks.withLock { queue in
      defer { queue.removeAll(keepingCapacity: true) }
      return queue
    }
    for task in batch { task() }
  }

  private let epoll: Int32
  private let wakeup: Int32
  private let tasks = Locked<[@Sendable () -> Void]>([])
  private let stopped = Locked(false)
  private var running = true
  private var handlers: [Int32: ReadinessHandler] = [:]
  private var deferredWakeups: [EventLoop] = []
}

extension EventLoop {
  /// Runs `body` on the loop thread and waits for it, for set-up that must happen there.
  func submitAndWait(_ body: @escaping @Sendable () throws(SystemError) -> Void) throws(SystemError)
  {
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
