/// Something registered with an ``EventLoop`` that it tells when its descriptor is ready.
///
/// Handlers are only ever called on their loop's thread.
package protocol ReadinessHandler: AnyObject {
  /// Called with the epoll event mask (`EPOLLIN`, `EPOLLOUT`, `EPOLLHUP`, `EPOLLERR`).
  func descriptorReady(_ events: UInt32)
}
