import CLinux
import Glibc

/// The descriptors a loop waits on, opened before the loop holds them.
extension EventLoop {
  /// An epoll descriptor watching a fresh eventfd for the wake-ups; on failure, whatever was
  /// opened is closed again.
  package static func openDescriptors() throws(SystemError) -> (epoll: Int32, wakeup: Int32) {
    let epoll = try blockingSyscall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    let wakeup: Int32
    do {
      wakeup = try blockingSyscall("eventfd") {
        eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
      }
    } catch {
      close(epoll)
      throw error
    }
    var event = epoll_event()
    event.events = EPOLLIN.rawValue
    event.data.u64 = UInt64(UInt32(bitPattern: wakeup))
    do {
      _ = try blockingSyscall("epoll_ctl") { epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event) }
    } catch {
      close(epoll)
      close(wakeup)
      throw error
    }
    return (epoll, wakeup)
  }
}
