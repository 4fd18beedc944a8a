/// A cursor over one buffer that checks RFC 8259 grammar in a single forward pass.
///
/// Containers are tracked with an explicit bit stack (one bit per level: object or array) rather
/// than recursion, so hostile input such as megabytes of `[` fails with "nesting too deep" after at
/// most ``JSONScanner/maximumDepth`` levels instead of exhausting the thread's stack. The stack
/// lives in caller-provided memory so a scan performs no heap allocation unless members are
/// collected.
package struct JSONReader {
  /// Number of 64-bit words needed for one nesting bit per permitted level.
  static let nestingWords = (JSONScanner.maximumDepth + 63) / 64

  /// Start of the scanned buffer; all offsets, including error offsets, are relative to it.
  package let base: UnsafeRawPointer
  /// Length of the buffer: nothing at or past it is ever read.
  package let end: Int
  /// Offset of the next byte to examine.
  package var index = 0

  /// One bit per open container, set for objects; must hold ``nestingWords`` zeroed words.
  private let nesting: UnsafeMutablePointer<UInt64>
  private var depth = 0
  private var inObject = false

  /// Whether top-level members are being recorded; only true when the root value is an object.
  private var collecting = false
  private(set) var members: [JSONMember] = []
  private var memberKey = ""
  private var memberStart = 0
  private var memberKind = JSONValueKind.null

  /// Prepares to scan `count` bytes at `base`, keeping container kinds in `nesting`.
  package init(base: UnsafeRawPointer, count: Int, nesting: UnsafeMutablePointer<UInt64>) {
    self.base = base
    self.end = count
    self.nesting = nesting
  }

  /// Moves the collected members out, so handing them to the caller costs no reference counting.
  mutating func takeMembers() -> [JSONMember] {
    var taken: [JSONMember] = []
    swap(&taken, &members)
    return taken
  }

  /// Reads through the raw pointer rather than a typed one, so the buffer's memory binding does
  /// not matter; callers check `offset < end` first.
  @inline(__always)
  package func byte(at offset: Int) -> UInt8 {
    base.load(fromByteOffset: offset, as: UInt8.self)
  }

  /// Scans exactly one value with optional surrounding whitespace and returns its trimmed range.
  ///
  /// When `collectMembers` is set and the value is an object, its members end up in ``members``;
  /// recording happens during the same pass so that an object line is read only once. With
  /// `collectElements` too, an array's elements are recorded the same way, with empty keys.
  mutating func scanDocument(collectMembers: Bool, collectElements: Bool = false)
    throws(JSONSyntaxError) -> (range: Range<Int>, kind: JSONValueKind)
  {
    skipWhitespace()
    guard index < end else { throw endOfInput() }
    let start = index
    let kind = try kindOfValue(startingWith: byte(at: index))
    switch kind {
    case .object, .array:
      collecting = collectMembers && (kind == .object || collectElements)
      if collecting { members.reserveCapacity(8) }
      try scanContainers()
    case .string: _ = try scanString()
    case .number: try scanNumber()
    case .bool, .null: try scanLiteral()
    }
    let valueEnd = index
    skipWhitespace()
    guard index == end else {
      throw JSONSyntaxError(offset: index, reason: "trailing characters after value")
    }
    return (start..<valueEnd, kind)
  }

  /// Scans the container starting at `index` and everything nested inside it.
  ///
  /// The outer loop is entered whenever a value is expected; the inner loop runs after a value is
  /// complete and either continues with the next element or closes containers.
  private mutating func scanContainers() throws(JSONSyntaxError) {
    nextValue: while true {
      skipWhitespace()
      guard index < end else { throw endOfInput() }
      let first = byte(at: index)
      if collecting && depth == 1 {
        memberStart = index
        memberKind = try kindOfValue(startingWith: first)
      }
      switch first {
      case UInt8(ascii: "{"):
        try push(object: true)
        skipWhitespace()
        guard index < end else { throw endOfInput() }
        if byte(at: index) == UInt8(ascii: "}") {
          index &+= 1
          pop()
        } else {
          try scanKey()
          continue nextValue
        }
      case UInt8(ascii: "["):
        try push(object: false)
        skipWhitespace()
        guard index < end else { throw endOfInput() }
        if byte(at: index) == UInt8(ascii: "]") {
          index &+= 1
          pop()
        } else {
          continue nextValue
        }
      case UInt8(ascii: "\""): _ = try scanString()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): try scanLiteral()
      default: throw JSONSyntaxError.unexpected(first, at: index)
      }

      while depth > 0 {
        if collecting && depth == 1 {
          members.append(
            JSONMember(key: memberKey, value: memberStart..<index, kind: memberKind))
        }
        skipWhitespace()
        guard index < end else { throw endOfInput() }
        let next = byte(at: index)
        if next == UInt8(ascii: ",") {
          index &+= 1
          skipWhitespace()
          if inObject {
            if index < end && byte(at: index) == UInt8(ascii: "}") {
              throw JSONSyntaxError(offset: index, reason: "trailing comma in object")
            }
            try scanKey()
          } else if index < end && byte(at: index) == UInt8(ascii: "]") {
            throw JSONSyntaxError(offset: index, reason: "trailing comma in array")
          }
          continue nextValue
        }
        guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
          let reason = inObject ? "expected ',' or '}' in object" : "expected ',' or ']' in array"
          throw JSONSyntaxError(offset: index, reason: reason)
        }
        index &+= 1
        pop()
      }
      return
    }
  }

  /// Scans `"key"` and the following `:`; `index` must be at the key after whitespace.
  private mutating func scanKey() throws(JSONSyntaxError) {
    guard index < end else { throw endOfInput() }
    guard byte(at: index) == UInt8(ascii: "\"") else {
      throw JSONSyntaxError(offset: index, reason: "expected string as object key")
    }
    let open = index
    let hasEscapes = try scanString()
    if collecting && depth == 1 {
      memberKey = JSONScanner.decodeContent(
        base, from: open &+ 1, to: index &- 1, mayContainEscapes: hasEscapes)
    }
    skipWhitespace()
    guard index < end else { throw endOfInput() }
    guard byte(at: index) == UInt8(ascii: ":") else {
      throw JSONSyntaxError(offset: index, reason: "expected ':' after object key")
    }
    index &+= 1
  }

  /// Opens a container at `index` and steps past its bracket.
  @inline(__always)
  private mutating func push(object: Bool) throws(JSONSyntaxError) {
    guard depth < JSONScanner.maximumDepth else {
      throw JSONSyntaxError(offset: index, reason: "nesting too deep")
    }
    let bit: UInt64 = 1 &<< UInt64(depth & 63)
    let word = nesting + (depth &>> 6)
    word.pointee = object ? word.pointee | bit : word.pointee & ~bit
    depth &+= 1
    inObject = object
    index &+= 1
  }

  @inline(__always)
  private mutating func pop() {
    depth &-= 1
    guard depth > 0 else {
      inObject = false
      return
    }
    let parent = depth &- 1
    inObject = nesting[parent &>> 6] & (1 &<< UInt64(parent & 63)) != 0
  }

  /// Classifies a value by its first byte, rejecting bytes that cannot start any value.
  @inline(__always)
  private func kindOfValue(startingWith first: UInt8) throws(JSONSyntaxError) -> JSONValueKind {
    switch first {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    default: throw JSONSyntaxError.unexpected(first, at: index)
    }
  }

  /// The error for input that stops while a value is still incomplete.
  func endOfInput() -> JSONSyntaxError {
    JSONSyntaxError(offset: end, reason: "unexpected end of input")
  }
}
