import Testing

@testable import ObservableServer

@Suite("Byte appending", .timeLimit(.minutes(1)))
struct ByteAppendingTests {
  @Test(arguments: [0, 7, 10, 99, 100, 12345, -1, -908, 9_999_999_999_999_999, Int.max, Int.min])
  func decimalMatchesStringFormatting(_ value: Int) {
    var bytes: [UInt8] = [UInt8(ascii: "x")]
    bytes.append(decimal: value)
    #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
  }

  @Test func literalsAndStringsAppendTheirUTF8() {
    var bytes: [UInt8] = []
    bytes.append(literal: #"{"é":"#)
    bytes.append(utf8: "naïve")
    #expect(bytes == Array(#"{"é":naïve"#.utf8))
  }

  /// The replies to a batch of publishes: one line, repeated once per publish, by doubling.
  @Test(arguments: [0, 1, 2, 3, 7, 8, 75, 1000])
  func repeatingMakesThatManyCopies(_ times: Int) {
    let line = Array(#"{"ok":true,"op":"publish","receivers":1}"#.utf8) + [0x0A]
    let repeated = line.withUnsafeBytes { [UInt8](repeating: $0, times: times) }
    #expect(repeated == Array([[UInt8]](repeating: line, count: times).joined()))
  }
}
