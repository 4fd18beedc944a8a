/// Every publish the history holds (``HistoryChunk``), in sequence order, by the sequence of
/// its first value and its topic's slot: what `--max-history-bytes` and `--history-ttl` evict
/// from, the server's oldest first whatever its topic.
///
/// A publish its topic lost to `--history` stays here, stale, until it reaches the front or a
/// sweep drops it: finding it on eviction would take a search, where the sweep, run when stale
/// entries outnumber live ones, costs at most two visits per publish. Entries are plain data in
/// an array with a moving front, so neither appending nor sweeping counts references or
/// allocates once the array is big enough.
struct HistoryOrder {
  /// One held publish: the sequence of its first value and the slot of its topic in
  /// ``HistoryLog``.
  struct Entry {
    let sequence: UInt64
    let slot: Int
  }

  private var storage: [Entry] = []
  private var head = 0

  var count: Int { storage.count - head }
  var first: Entry? { head == storage.count ? nil : storage[head] }

  mutating func append(_ sequence: UInt64, slot: Int) {
    storage.append(Entry(sequence: sequence, slot: slot))
  }

  mutating func removeFirst() {
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }

  /// Keeps only the entries `isLive` accepts, in order, in place.
  mutating func sweep(keeping isLive: (Entry) -> Bool) {
    var kept = 0
    storage.withUnsafeMutableBufferPointer { entries in
      for index in head..<entries.count where isLive(entries[index]) {
        entries[kept] = entries[index]
        kept += 1
      }
    }
    storage.removeLast(storage.count - kept)
    head = 0
    // Storage four times what is kept goes back, so a burst of stale entries is not held for
    // ever.
    if storage.capacity > 4096, storage.capacity > 4 * kept {
      var shrunk: [Entry] = []
      shrunk.reserveCapacity(2 * kept)
      shrunk.append(contentsOf: storage)
      storage = shrunk
    }
  }
}
