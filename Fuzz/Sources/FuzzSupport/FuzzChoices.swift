/// Decisions a target makes about its input (where to cut it, which limit to use), derived from
/// the input itself so that every mutation libFuzzer makes also changes them.
///
/// The numbers come from SplitMix64 seeded with a hash of the input rather than from bytes
/// reserved at its start, so seed files stay plain examples of what the target parses; the same
/// input always gives the same decisions, so a saved crash reproduces.
public struct FuzzChoices {
  private var state: UInt64

  /// Seeds the decisions with the FNV-1a hash of `input`.
  public init(_ input: UnsafeRawBufferPointer) {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in input { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    state = hash
  }

  /// The next 64 pseudo-random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed &>> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed &>> 31)
  }

  /// A number in `range`, which must not be empty.
  public mutating func next(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// Cuts `0..<count` into consecutive non-empty ranges of random lengths, at most `maxPiece`
  /// each; with `maxPiece` 1, every byte is its own piece.
  public mutating func pieces(of count: Int, maxPiece: Int) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    while start < count {
      let end = min(count, start + next(in: 1...max(1, maxPiece)))
      ranges.append(start..<end)
      start = end
    }
    return ranges
  }
}
