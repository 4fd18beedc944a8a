import CLinux
import Glibc
import ObservablePOSIX

/// Tells the event loop when an exec process has ended, and reaps it.
///
/// A pidfd registered with epoll turns the exit into one more readiness event. Where the kernel
/// refuses `pidfd_open` (before Linux 5.3, or under a seccomp profile that denies it), a loop
/// timer asks `waitpid` every 10 ms instead, which costs a little but still needs no thread.
final class ExecExitWatch: ReadinessHandler {
  /// How the exit is noticed.
  enum Mode {
    /// Through a pidfd, falling back to polling when the kernel refuses one.
    case pidfd
    /// By polling `waitpid` on a loop timer.
    case polling
  }

  /// Watches `process` on `loop`; `onExit` gets how it ended, once, on the loop thread.
  init(process: ExecProcess, loop: EventLoop, onExit: @escaping (String) -> Void) {
    self.process = process
    self.loop = loop
    self.onExit = onExit
  }

  deinit {
    if pidfd >= 0 { close(pidfd) }
  }

  /// Starts watching, in `mode`; returns the mode in effect, which is polling when a pidfd
  /// could not be had. Loop thread only.
  @discardableResult
  func start(_ mode: Mode) -> Mode {
    // Any failure falls back, not only ENOSYS and EPERM: polling works wherever waitpid does,
    // and a process nobody watched would be left running.
    if mode == .pidfd, let descriptor = try? process.openExitDescriptor() {
      do {
        try loop.register(descriptor, events: EPOLLIN.rawValue, handler: self)
        pidfd = descriptor
        return .pidfd
      } catch {
        close(descriptor)
      }
    }
    schedulePoll()
    return .polling
  }

  /// Stops watching without reaping; the process is then someone else's to reap. Loop thread
  /// only.
  func cancel() {
    if pidfd >= 0 {
      loop.deregister(pidfd)
      close(pidfd)
      pidfd = -1
    }
    if let poll {
      loop.cancel(poll)
      self.poll = nil
    }
  }

  /// Called by the loop when the descriptor is readable or has hung up.
  func descriptorReady(_ events: UInt32) {
    check()
  }

  private func schedulePoll() {
    poll = loop.schedule(in: .milliseconds(10)) { [self] in
      poll = nil
      if !check() { schedulePoll() }
    }
  }

  /// Reaps the process if it has exited and reports it; returns whether it had.
  @discardableResult
  private func check() -> Bool {
    guard let ending = process.reap() else { return false }
    cancel()
    onExit(ending)
    return true
  }

  private let process: ExecProcess
  private let loop: EventLoop
  private let onExit: (String) -> Void
  private var pidfd: Int32 = -1
  private var poll: LoopTimer?
}
