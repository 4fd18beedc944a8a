import Testing

@testable import ObservableServer
@testable import ObservableWire

@Suite struct JSONScannerNestingTests {
  private func nestedArrays(_ depth: Int) -> [UInt8] {
    [UInt8](repeating: UInt8(ascii: "["), count: depth)
      + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
  }

  private func nestedObjects(_ depth: Int) -> [UInt8] {
    Array(String(repeating: #"{"k":"#, count: depth).utf8) + Array("1".utf8)
      + [UInt8](repeating: UInt8(ascii: "}"), count: depth)
  }

  @Test func acceptsMaximumDepth() throws {
    #expect(JSONScanner.maximumDepth == 512)
    #expect(try scanValue(nestedArrays(512)).range == 0..<1024)
    let objects = nestedObjects(512)
    #expect(try scanValue(objects).range == 0..<objects.count)
    #expect(try scanObject(objects)?.map(\.key) == ["k"])
  }

  @Test func rejectsOneLevelBeyondMaximum() {
    let tooDeep = JSONSyntaxError(offset: 512, reason: "nesting too deep")
    #expect(syntaxError(nestedArrays(513)) == tooDeep)
    #expect(
      syntaxError(nestedObjects(513))
        == JSONSyntaxError(offset: 512 * 5, reason: "nesting too deep"))
    #expect(throws: tooDeep) { try scanObject(nestedArrays(513)) }
  }

  @Test func rejectsHostileDepthPromptlyWithoutRecursion() {
    let tooDeep = JSONSyntaxError(offset: 512, reason: "nesting too deep")
    #expect(syntaxError(nestedArrays(100_000)) == tooDeep)
    #expect(syntaxError([UInt8](repeating: UInt8(ascii: "["), count: 10_000_000)) == tooDeep)
    let objects = Array(String(repeating: #"{"":"#, count: 100_000).utf8)
    #expect(syntaxError(objects) == JSONSyntaxError(offset: 512 * 4, reason: "nesting too deep"))
  }

  /// Depth must fall again when containers close, or siblings would add up.
  @Test func siblingsDoNotAccumulateDepth() throws {
    let inner = nestedArrays(511)
    let bytes = [UInt8(ascii: "[")] + inner + [UInt8(ascii: ",")] + inner + [UInt8(ascii: "]")]
    #expect(try scanValue(bytes).range == 0..<bytes.count)
  }

  /// A pseudo-random mix of objects and arrays, 512 deep, checks that the nesting bits are kept
  /// per level across 64-bit word boundaries: closing with the wrong bracket at any level fails.
  @Test func tracksContainerKindAtEveryLevel() throws {
    var generator = SplitMix64(seed: 512)
    let isObject = (0..<512).map { _ in generator.next() & 1 == 1 }
    var opening: [UInt8] = []
    for object in isObject { opening += Array((object ? #"{"k":"# : "[").utf8) }
    let closers = isObject.reversed().map { UInt8(ascii: $0 ? "}" : "]") }
    let valid = opening + Array("0".utf8) + closers
    #expect(try scanValue(valid).range == 0..<valid.count)

    for level in [0, 1, 62, 63, 64, 65, 127, 128, 300, 447, 448, 510, 511] {
      var broken = valid
      let position = opening.count + 1 + (511 - level)
      broken[position] =
        broken[position] == UInt8(ascii: "}") ? UInt8(ascii: "]") : UInt8(ascii: "}")
      let reason =
        isObject[level] ? "expected ',' or '}' in object" : "expected ',' or ']' in array"
      #expect(
        syntaxError(broken) == JSONSyntaxError(offset: position, reason: reason), "level \(level)")
    }
  }
}
