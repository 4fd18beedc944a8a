import CLinux
import Glibc

extension EventLoop {
  /// How long one turn may spend on ready descriptors before it leaves the rest to the next.
  ///
  /// Each connection reads within its ``ReadBudget``, but 50 publishers fanning out to 400
  /// subscribers still made turns of half a second: a bystander's ping waited for all of them.
  static let turnBudget: Duration = .milliseconds(20)

  /// Runs the handlers of `ready`, those postponed by the last turn first, until the turn has
  /// used ``turnBudget``; the others are postponed. Loop thread only.
  ///
  /// Level-triggered epoll reports a postponed descriptor again, but in the order of its ready
  /// list, where the same ones come last every time: handling the postponed first keeps them
  /// from starving, and one that became ready meanwhile waits about two turns at most.
  func handleReady(_ ready: UnsafeBufferPointer<epoll_event>) {
    let start = ContinuousClock.now
    let earlier = postponedDescriptors
    postponedDescriptors.removeAll(keepingCapacity: true)
    for pass in 0..<(earlier.isEmpty ? 1 : 2) {
      for event in ready {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: event.data.u64))
        // The first pass takes the postponed descriptors, the second the others.
        if !earlier.isEmpty, earlier.contains(fd) != (pass == 0) { continue }
        if fd == wakeupDescriptor {
          drainWakeup()
        } else if postponing {
          postponedDescriptors.insert(fd)
        } else {
          handler(for: fd)?.descriptorReady(event.events)
          if ContinuousClock.now - start > Self.turnBudget { postponing = true }
        }
      }
    }
    postponing = false
  }
}
