import ObservableWire

/// The lines of a chunk of delivery lines, each ending in `\n` (the last may lack it), which
/// is how a publish of several values reaches the history.
enum DeliveryLines {
  /// Calls `body` with each line of `lines`, its `\n` included, in order.
  ///
  /// Found with `memchr`, not byte by byte: this runs per value kept.
  static func forEach(in lines: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    guard let base = lines.baseAddress else { return }
    var start = 0
    while start < lines.count {
      let end =
        ByteSearch.first(0x0A, in: base + start, count: lines.count - start)
        .map { $0 - base + 1 } ?? lines.count
      body(UnsafeRawBufferPointer(rebasing: lines[start..<end]))
      start = end
    }
  }

  /// Each line of `lines` in an array of its own, for the store's recorder.
  static func split(_ lines: [UInt8]) -> [[UInt8]] {
    var split: [[UInt8]] = []
    lines.withUnsafeBytes { bytes in forEach(in: bytes) { split.append(Array($0)) } }
    return split
  }
}
