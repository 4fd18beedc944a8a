/// A scheduled task's handle, for cancelling it.
package struct LoopTimer: Hashable, Sendable {
  fileprivate let id: UInt64
}

/// The tasks an event loop runs at given instants, earliest first.
///
/// A binary heap of deadlines with the tasks in a table beside it: cancelling only removes the
/// task from the table, and its heap entry is skipped when it comes due, so both scheduling and
/// cancelling cost O(log n) at most. Loop thread only, like everything the loop owns.
package struct TimerQueue {
  private struct Entry {
    let deadline: ContinuousClock.Instant
    let id: UInt64
  }

  private var heap: [Entry] = []
  private var tasks: [UInt64: () -> Void] = [:]
  private var lastID: UInt64 = 0

  /// How many tasks are waiting.
  package var count: Int { tasks.count }

  /// Adds `task` to run at `deadline`.
  package mutating func schedule(at deadline: ContinuousClock.Instant, _ task: @escaping () -> Void)
    -> LoopTimer
  {
    lastID &+= 1
    tasks[lastID] = task
    heap.append(Entry(deadline: deadline, id: lastID))
    siftUp(heap.count - 1)
    return LoopTimer(id: lastID)
  }

  /// Forgets `timer`'s task if it has not run yet.
  package mutating func cancel(_ timer: LoopTimer) {
    tasks[timer.id] = nil
    // Cancelled entries are dropped when they reach the top; without tasks the heap is garbage.
    if tasks.isEmpty { heap.removeAll(keepingCapacity: true) }
  }

  /// The earliest deadline of a task still waiting, if any.
  mutating func nextDeadline() -> ContinuousClock.Instant? {
    dropCancelled()
    return heap.first?.deadline
  }

  /// Removes and returns the tasks due at `now`, earliest first.
  mutating func takeDue(at now: ContinuousClock.Instant) -> [() -> Void] {
    var due: [() -> Void] = []
    while let first = heap.first, first.deadline <= now {
      removeFirst()
      if let task = tasks.removeValue(forKey: first.id) { due.append(task) }
    }
    return due
  }

  private mutating func dropCancelled() {
    while let first = heap.first, tasks[first.id] == nil { removeFirst() }
  }

  private mutating func removeFirst() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(0)
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].deadline < heap[parent].deadline else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { return }
      var earliest = left
      if left + 1 < heap.count, heap[left + 1].deadline < heap[left].deadline {
        earliest = left + 1
      }
      guard heap[earliest].deadline < heap[parent].deadline else { return }
      heap.swapAt(earliest, parent)
      parent = earliest
    }
  }
}
