/// Produces random valid JSON documents and corrupted variants of them from a fixed seed.
///
/// Mutating valid documents lands inputs close to the accept/reject boundary, which is where
/// disagreements between two parsers hide; purely random bytes would almost always be rejected
/// at the first byte by both.
struct JSONDocumentGenerator {
  private var random: SplitMix64

  /// Bytes worth planting: grammar characters, whitespace allowed and not allowed, and bytes that
  /// start, continue or break UTF-8 sequences.
  private static let interestingBytes: [UInt8] =
    Array("{}[],:\"\\/-+.eE0123456789tfnulrsaxu' \t\n\r".utf8)
    + [
      0x00, 0x01, 0x0C, 0x1F, 0x7F, 0x80, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4,
      0xF5, 0xFF,
    ]

  private static let stringPieces: [String] = [
    "a", "Z", "9", " ", "~", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#,
    #"\u0041"#, #"\u00e9"#, #"\u20AC"#, #"\uffff"#, #"\u0000"#, #"\ud83d\ude00"#, "é", "€", "😀",
    "\u{10FFFF}", "\u{7F}",
  ]

  private static let keyPool = ["op", "stream", "value", "a", "", "é", #"k\n"#]

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  mutating func document() -> [UInt8] {
    var out: [UInt8] = []
    whitespace(into: &out)
    let roll = int(below: 10)
    value(depth: roll < 5 ? -1 : (roll < 8 ? -2 : 4), into: &out)
    whitespace(into: &out)
    return out
  }

  /// Applies one to three random edits to `bytes`.
  mutating func mutated(_ bytes: [UInt8]) -> [UInt8] {
    var result = bytes
    for _ in 0...int(below: 3) {
      let position = int(below: result.count + 1)
      switch int(below: 7) {
      case 0 where position < result.count: result[position] = interestingByte()
      case 1: result.insert(interestingByte(), at: position)
      case 2 where position < result.count: result.remove(at: position)
      case 3: result.removeSubrange(position...)
      case 4 where position < result.count:
        let end = min(result.count, position + 1 + int(below: 6))
        result.insert(contentsOf: result[position..<end], at: position)
      case 5 where position + 1 < result.count: result.swapAt(position, position + 1)
      default: result.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
      }
    }
    return result
  }

  /// A short run of interesting bytes, mostly garbage.
  mutating func garbage() -> [UInt8] {
    (0..<int(below: 8)).map { _ in interestingByte() }
  }

  /// Appends a value. `depth` -1 forces an object and -2 an array at the root; 0 forces a scalar.
  private mutating func value(depth: Int, into out: inout [UInt8]) {
    let choice = depth == -1 ? 0 : depth == -2 ? 1 : depth == 0 ? 2 + int(below: 4) : int(below: 6)
    let childDepth = depth < 0 ? 3 : depth - 1
    switch choice {
    case 0:
      out.append(UInt8(ascii: "{"))
      for index in 0..<int(below: 5) {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        whitespace(into: &out)
        if int(below: 3) == 0 {
          out += Array("\"\(Self.keyPool[int(below: Self.keyPool.count)])\"".utf8)
        } else {
          string(into: &out)
        }
        whitespace(into: &out)
        out.append(UInt8(ascii: ":"))
        whitespace(into: &out)
        value(depth: childDepth, into: &out)
        whitespace(into: &out)
      }
      out.append(UInt8(ascii: "}"))
    case 1:
      out.append(UInt8(ascii: "["))
      for index in 0..<int(below: 5) {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        whitespace(into: &out)
        value(depth: childDepth, into: &out)
        whitespace(into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case 2: string(into: &out)
    case 3: number(into: &out)
    default: out += Array(["true", "false", "null"][int(below: 3)].utf8)
    }
  }

  private mutating func string(into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for _ in 0..<int(below: 12) {
      out += Array(Self.stringPieces[int(below: Self.stringPieces.count)].utf8)
    }
    out.append(UInt8(ascii: "\""))
  }

  private mutating func number(into out: inout [UInt8]) {
    var text = int(below: 3) == 0 ? "-" : ""
    text += int(below: 4) == 0 ? "0" : String(1 + int(below: 9)) + digits(maximum: 6)
    if int(below: 3) == 0 { text += "." + String(int(below: 10)) + digits(maximum: 3) }
    if int(below: 3) == 0 {
      text += ["e", "E", "e+", "e-", "E-"][int(below: 5)] + String(int(below: 10))
      text += digits(maximum: 1)
    }
    out += Array(text.utf8)
  }

  private mutating func digits(maximum: Int) -> String {
    String((0..<int(below: maximum + 1)).map { _ in Character(String(int(below: 10))) })
  }

  private mutating func whitespace(into out: inout [UInt8]) {
    guard int(below: 4) == 0 else { return }
    for _ in 0...int(below: 2) { out.append(Array(" \t\n\r".utf8)[int(below: 4)]) }
  }

  private mutating func interestingByte() -> UInt8 {
    Self.interestingBytes[int(below: Self.interestingBytes.count)]
  }

  private mutating func int(below bound: Int) -> Int {
    Int(random.next() % UInt64(bound))
  }
}
