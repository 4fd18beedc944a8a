import ObservableWire

/// Splits a connection's input into lines, each at most a given length.
///
/// Complete lines inside one read are handed out in place, without copying; only a line split
/// across reads is gathered. A line over the limit is reported once and then skipped up to its
/// newline, so the connection stays usable.
///
/// A class, so that a request handled inside ``feed(_:_:)`` can change the limit (a client
/// that authenticates may send longer lines) without overlapping the feed's own access.
package final class LineFramer {
  /// What the framer found in the input.
  package enum Event {
    /// A complete line, without `\n` or a trailing `\r`.
    case line(UnsafeRawBufferPointer)
    /// A line longer than the limit began; its remainder will be skipped.
    case tooLong
  }

  package init(maxLineBytes: Int) {
    self.maxLineBytes = maxLineBytes
  }

  /// Feeds bytes read from the connection and returns how many it consumed: all of them, unless
  /// `handle` returned `false` to stop after a line (the rest is then the caller's).
  package func feed(_ input: UnsafeRawBufferPointer, _ handle: (Event) -> Bool) -> Int {
    guard let base = input.baseAddress else { return 0 }
    var start = 0
    while start < input.count {
      let remaining = input.count - start
      let newline = ByteSearch.first(0x0A, in: base + start, count: remaining)
      guard let newline else {
        accumulate(UnsafeRawBufferPointer(start: base + start, count: remaining), handle)
        return input.count
      }
      let end = newline - UnsafeRawPointer(base)
      let segment = UnsafeRawBufferPointer(start: base + start, count: end - start)
      start = end + 1
      if discarding {
        discarding = false
        continue
      }
      if partial.isEmpty {
        guard segment.count <= maxLineBytes + 1 else {
          if !handle(.tooLong) { return start }
          continue
        }
        if !emit(segment, handle) { return start }
      } else {
        guard partial.count + segment.count <= maxLineBytes + 1 else {
          partial = []
          if !handle(.tooLong) { return start }
          continue
        }
        partial.append(contentsOf: segment)
        let line = partial
        partial = []
        let keepGoing = line.withUnsafeBytes { emit($0, handle) }
        if !keepGoing { return start }
      }
    }
    return input.count
  }

  private func accumulate(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) -> Bool) {
    if discarding { return }
    // One byte of slack so that a line of exactly the limit can still end in `\r`.
    guard partial.count + bytes.count <= maxLineBytes + 1 else {
      partial = []
      discarding = true
      _ = handle(.tooLong)
      return
    }
    partial.append(contentsOf: bytes)
  }

  private func emit(_ segment: UnsafeRawBufferPointer, _ handle: (Event) -> Bool) -> Bool {
    var line = segment
    if let last = line.last, last == 0x0D {
      line = UnsafeRawBufferPointer(rebasing: line.dropLast())
    }
    guard line.count <= maxLineBytes else { return handle(.tooLong) }
    if line.isEmpty { return true }
    return handle(.line(line))
  }

  /// The longest line; a line already being gathered is held to a new value from now on.
  var maxLineBytes: Int
  private var partial: [UInt8] = []
  private var discarding = false
}
