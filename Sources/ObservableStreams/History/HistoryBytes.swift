import ObservableWire

/// The lines one topic's history keeps, back to back in a ring of bytes: appended at the back,
/// forgotten from the front.
///
/// A value's bytes are copied in once, into storage the ring reuses, so keeping a value costs no
/// allocation of its own (an array per value cost a `malloc` and a `free`, a third of the
/// history's cost per published value). A line is found by its logical start, the number of
/// bytes appended before it, which stays true when the ring grows or shrinks.
struct HistoryBytes {
  private var storage: [UInt8] = []
  /// Where the oldest byte is in `storage`.
  private var headIndex = 0
  /// The logical start of the oldest byte.
  private var headStart = 0
  /// The bytes held.
  private(set) var count = 0

  /// The bytes the ring can hold before it grows.
  var capacity: Int { storage.count }

  /// Copies `line` in at the back; returns its logical start.
  mutating func append(_ line: UnsafeRawBufferPointer) -> Int {
    let start = headStart + count
    if count + line.count > storage.count {
      resize(to: max(2 * storage.count, count + line.count, 256))
    }
    let capacity = storage.count
    var tail = headIndex + count
    if tail >= capacity { tail -= capacity }
    let first = min(line.count, capacity - tail)
    storage.withUnsafeMutableBytes { ring in
      guard let base = ring.baseAddress, let source = line.baseAddress else { return }
      (base + tail).copyMemory(from: source, byteCount: first)
      // Most lines do not wrap: no second call of memcpy for nothing.
      if first < line.count { base.copyMemory(from: source + first, byteCount: line.count - first) }
    }
    count += line.count
    return start
  }

  /// Forgets the oldest `length` bytes, and gives back storage the ring no longer needs.
  mutating func removeFirst(_ length: Int) {
    count -= length
    headStart += length
    headIndex += length
    if headIndex >= storage.count { headIndex -= storage.count }
    if count == 0 { headIndex = 0 }
    // A quarter full: half the storage goes, so a topic whose values got smaller (or that the
    // byte limit or the time to live thinned) does not keep its largest size for ever.
    if storage.count > 4096, count * 4 < storage.count { resize(to: max(2 * count, 256)) }
  }

  /// Appends the `length` bytes at logical `start` to `out`.
  func copy(start: Int, length: Int, to out: inout [UInt8]) {
    var index = headIndex + (start - headStart)
    if index >= storage.count { index -= storage.count }
    let first = min(length, storage.count - index)
    storage.withUnsafeBytes { ring in
      out.append(bytes: UnsafeRawBufferPointer(rebasing: ring[index..<(index + first)]))
      out.append(bytes: UnsafeRawBufferPointer(rebasing: ring[0..<(length - first)]))
    }
  }

  /// The `length` bytes at logical `start`.
  func line(start: Int, length: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(length)
    copy(start: start, length: length, to: &out)
    return out
  }

  /// Moves the held bytes to the front of new storage of `capacity` bytes.
  private mutating func resize(to capacity: Int) {
    var resized = [UInt8](repeating: 0, count: capacity)
    let first = min(count, storage.count - headIndex)
    resized.withUnsafeMutableBytes { target in
      storage.withUnsafeBytes { ring in
        guard let to = target.baseAddress, let from = ring.baseAddress else { return }
        to.copyMemory(from: from + headIndex, byteCount: first)
        (to + first).copyMemory(from: from, byteCount: count - first)
      }
    }
    storage = resized
    headIndex = 0
  }
}
