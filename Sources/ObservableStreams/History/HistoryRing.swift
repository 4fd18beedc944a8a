/// A first-in, first-out queue: appends at the back, removals from the front, in amortized
/// constant time.
///
/// The front is an index into an array. A removed slot is emptied at once, so the history's
/// value bytes go when the value does (holding them until the next compaction kept up to 64
/// stale values per topic: 22 MB over a limit of 8 MiB with 1,000 topics); the empty slots are
/// reclaimed once they are half of the array, so the storage stays within twice what the queue
/// holds.
struct HistoryRing<Element> {
  private var storage: [Element?] = []
  private var head = 0

  var count: Int { storage.count - head }
  var isEmpty: Bool { head == storage.count }
  var first: Element? { isEmpty ? nil : storage[head] }

  /// The element `offset` places from the front.
  subscript(offset: Int) -> Element { storage[head + offset]! }

  mutating func append(_ element: Element) {
    storage.append(element)
  }

  @discardableResult
  mutating func removeFirst() -> Element {
    let element = storage[head]!
    storage[head] = nil
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: storage.count <= 1024)
      head = 0
    } else if head >= 16, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Keeps only the elements `isIncluded` accepts, in order.
  mutating func keep(where isIncluded: (Element) -> Bool) {
    storage = storage[head...].filter { isIncluded($0!) }
    head = 0
  }
}
