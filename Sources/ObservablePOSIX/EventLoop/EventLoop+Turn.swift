import CLinux
import Glibc

extension EventLoop {
  /// How long one turn may spend on ready descriptors before it leaves the rest to the next.
  ///
  /// Each connection reads within its ``ReadBudget``, but 50 publishers fanning out to 400
  /// subscribers still made turns of half a second: a bystander's ping waited for all of them.
  static let turnBudget: Duration = .milliseconds(20)

  /// How long one handling may take and still count as light: a ping, a subscribe, a reply.
  static let lightHandling: Duration = .microseconds(200)

  /// Runs the handlers of `ready` until the turn has used ``turnBudget``; the others wait for
  /// the next turn. Loop thread only.
  ///
  /// When turns run out of time, descriptors whose last handling was light go first, then the
  /// others, those left waiting longest first; at least one of those runs in every turn.
  /// Level-triggered epoll reports the descriptors still ready in the same order every turn,
  /// so a turn that runs out of time always leaves the same ones last: handling first only
  /// those the turn before postponed let two groups of publishers at the front take turns for
  /// ever, and a bystander behind 50 publishers waited for seconds. Ordered by turns waited,
  /// the busy ones take turns in a round robin; and a client that only pings is answered in
  /// the next turn, not after a round of them all.
  func handleReady(_ ready: UnsafeBufferPointer<epoll_event>) {
    let start = ContinuousClock.now
    readersThisTurn = readers(in: ready)
    var waited: [Int32: Int] = [:]
    swap(&waited, &turnsWaited)
    // The usual turn has left nothing waiting and takes the events as they come.
    guard !waited.isEmpty else { return handle(ready, since: start, waited: waited) }
    let ordered = ready.enumerated().sorted { first, second in
      let firstKey = order(of: first.element, waited: waited)
      let secondKey = order(of: second.element, waited: waited)
      return firstKey != secondKey ? firstKey > secondKey : first.offset < second.offset
    }.map(\.element)
    ordered.withUnsafeBufferPointer { handle($0, since: start, waited: waited) }
  }

  /// Where a descriptor goes in a turn after one that ran out of time: light ones first, then
  /// the others by the turns they have waited.
  private func order(of event: epoll_event, waited: [Int32: Int]) -> Int {
    let fd = Self.descriptor(of: event)
    return heavyDescriptors.contains(fd) ? waited[fd] ?? 0 : Int.max
  }

  /// Runs the handlers of `events` in order until the turn that began at `start` has used
  /// ``turnBudget``, and records how long each one left over has waited.
  private func handle(
    _ events: UnsafeBufferPointer<epoll_event>, since start: ContinuousClock.Instant,
    waited: [Int32: Int]
  ) {
    var now = start
    var heavyHandled = false
    for event in events {
      let fd = Self.descriptor(of: event)
      if fd == wakeupDescriptor {
        drainWakeup()
        continue
      }
      let heavy = !heavyDescriptors.isEmpty && heavyDescriptors.contains(fd)
      // The light ones cannot fill turns for ever: one heavy descriptor runs in each.
      guard now - start <= Self.turnBudget || (heavy && !heavyHandled) else {
        turnsWaited[fd] = (waited[fd] ?? 0) + 1
        continue
      }
      heavyHandled = heavyHandled || heavy
      let before = now
      handler(for: fd)?.descriptorReady(event.events)
      now = ContinuousClock.now
      if now - before > Self.lightHandling {
        heavyDescriptors.insert(fd)
      } else if heavy {
        heavyDescriptors.remove(fd)
      }
    }
  }

  /// How many of `ready` have input (or a hang-up) to read, the loop's own wake-up aside.
  private func readers(in ready: UnsafeBufferPointer<epoll_event>) -> Int {
    let input = UInt32(EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue)
    var count = 0
    for event in ready where event.events & input != 0 {
      if Self.descriptor(of: event) != wakeupDescriptor { count += 1 }
    }
    return count
  }

  private static func descriptor(of event: epoll_event) -> Int32 {
    Int32(bitPattern: UInt32(truncatingIfNeeded: event.data.u64))
  }
}
