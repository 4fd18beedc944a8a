import Testing

@testable import ObservableFraming
@testable import ObservableServer

/// Splitting input into lines: `\n` ends a line, one trailing `\r` is dropped, empty lines are
/// skipped, and a line over the limit is reported once and skipped up to its newline.
@Suite(.timeLimit(.minutes(1)))
struct LineFramerTests {
  enum Seen: Equatable, CustomStringConvertible {
    case line(String)
    case tooLong

    var description: String {
      switch self {
      case .line(let text): "line(\(text.debugDescription))"
      case .tooLong: "tooLong"
      }
    }
  }

  /// Feeds `chunks` one after another to a fresh framer and returns what it reported.
  static func frame(_ chunks: [[UInt8]], maxLineBytes: Int) -> [Seen] {
    let framer = LineFramer(maxLineBytes: maxLineBytes)
    var seen: [Seen] = []
    for chunk in chunks {
      let consumed = chunk.withUnsafeBytes { raw in
        framer.feed(raw) { event in
          switch event {
          case .line(let bytes): seen.append(.line(String(decoding: bytes, as: UTF8.self)))
          case .tooLong: seen.append(.tooLong)
          }
          return true
        }
      }
      #expect(consumed == chunk.count)
    }
    return seen
  }

  static func frame(_ chunks: [String], maxLineBytes: Int = 64) -> [Seen] {
    frame(chunks.map { Array($0.utf8) }, maxLineBytes: maxLineBytes)
  }

  /// Every way of cutting `text` into two pieces, and into three.
  static func splits(of text: String) -> [[[UInt8]]] {
    let bytes = Array(text.utf8)
    var result: [[[UInt8]]] = []
    for first in 0...bytes.count {
      result.append([Array(bytes[..<first]), Array(bytes[first...])])
      for second in first...bytes.count {
        result.append([
          Array(bytes[..<first]), Array(bytes[first..<second]), Array(bytes[second...]),
        ])
      }
    }
    return result
  }

  @Test("several lines in one chunk")
  func oneChunk() {
    #expect(Self.frame(["a\nbc\ndef\n"]) == [.line("a"), .line("bc"), .line("def")])
  }

  @Test("an unfinished line waits for its newline")
  func unfinished() {
    #expect(Self.frame(["abc"]).isEmpty)
    #expect(Self.frame(["abc", "de", "f\ng"]) == [.line("abcdef")])
  }

  @Test("a sample gives the same lines however it is cut into chunks")
  func everySplit() {
    let sample = "one\r\ntwo\n\nthree\r\n\r\nfour\n"
    let expected: [Seen] = [.line("one"), .line("two"), .line("three"), .line("four")]
    for chunks in Self.splits(of: sample) {
      #expect(Self.frame(chunks, maxLineBytes: 64) == expected, "\(chunks)")
    }
    #expect(Self.frame(sample.utf8.map { [$0] }, maxLineBytes: 64) == expected)
  }

  @Test("\\r\\n ends a line; only the one \\r before \\n is dropped")
  func carriageReturns() {
    #expect(Self.frame(["a\r\nb\r\n"]) == [.line("a"), .line("b")])
    #expect(Self.frame(["a\r\r\n"]) == [.line("a\r")])
    #expect(Self.frame(["a\rb\n"]) == [.line("a\rb")])
    #expect(Self.frame(["\ra\n"]) == [.line("\ra")])
    #expect(Self.frame(["a\r", "\n"]) == [.line("a")])
  }

  @Test("empty lines, and lines of only \\r, are skipped")
  func emptyLines() {
    #expect(Self.frame(["\n\n\na\n\n"]) == [.line("a")])
    #expect(Self.frame(["\r\n\r\nb\r\n"]) == [.line("b")])
    #expect(Self.frame(["\n", "\r", "\n", "c\n"]) == [.line("c")])
  }

  @Test("a line of exactly the limit passes, with or without \\r, however it is cut")
  func exactlyAtLimit() {
    for sample in ["12345678\nok\n", "12345678\r\nok\n"] {
      for chunks in Self.splits(of: sample) {
        #expect(
          Self.frame(chunks, maxLineBytes: 8) == [.line("12345678"), .line("ok")], "\(chunks)")
      }
    }
  }

  @Test(
    "one byte over the limit is tooLong once, and the next line still arrives, however it is cut")
  func oneOverLimit() {
    for sample in ["123456789\nok\n", "123456789\r\nok\n", "12345678\r\r\nok\n"] {
      for chunks in Self.splits(of: sample) {
        #expect(Self.frame(chunks, maxLineBytes: 8) == [.tooLong, .line("ok")], "\(chunks)")
      }
    }
  }

  @Test("a line far over the limit is tooLong once, however it is cut")
  func farOverLimit() {
    for sample in ["1234567890abcdef\nok\n", "1234567890abc\r\nok\r\n", "a\n0123456789\nb\n"] {
      let expected: [Seen] =
        sample.hasPrefix("a\n") ? [.line("a"), .tooLong, .line("b")] : [.tooLong, .line("ok")]
      for chunks in Self.splits(of: sample) {
        #expect(Self.frame(chunks, maxLineBytes: 4) == expected, "\(chunks)")
      }
    }
  }

  @Test("a too-long line over many chunks is reported once and framing resumes after its newline")
  func tooLongOverManyChunks() {
    var chunks = Array(repeating: "abcdefghij", count: 50)
    chunks.append("xyz\nnext\n")
    chunks.append("last\n")
    #expect(Self.frame(chunks, maxLineBytes: 16) == [.tooLong, .line("next"), .line("last")])
    // Byte by byte.
    let bytes = Array((String(repeating: "z", count: 100) + "\nafter\n").utf8)
    #expect(Self.frame(bytes.map { [$0] }, maxLineBytes: 16) == [.tooLong, .line("after")])
  }

  @Test("two too-long lines in a row are two reports")
  func twoTooLong() {
    let sample = "0123456789\nabcdefghij\nok\n"
    for chunks in Self.splits(of: sample) {
      #expect(
        Self.frame(chunks, maxLineBytes: 4) == [.tooLong, .tooLong, .line("ok")], "\(chunks)")
    }
  }

  @Test("stopping after a line returns the bytes consumed up to its newline")
  func stopAfterLine() {
    let framer = LineFramer(maxLineBytes: 64)
    var seen: [String] = []
    let input = Array("first\nsecond\nthird\n".utf8)
    let consumed = input.withUnsafeBytes { raw in
      framer.feed(raw) { event in
        guard case .line(let bytes) = event else { return true }
        seen.append(String(decoding: bytes, as: UTF8.self))
        return false
      }
    }
    #expect(seen == ["first"])
    #expect(consumed == "first\n".utf8.count)

    // The rest is the caller's; feeding it later carries on where the framer stopped.
    let rest = Array(input[consumed...])
    let restConsumed = rest.withUnsafeBytes { raw in
      framer.feed(raw) { event in
        if case .line(let bytes) = event { seen.append(String(decoding: bytes, as: UTF8.self)) }
        return true
      }
    }
    #expect(restConsumed == rest.count)
    #expect(seen == ["first", "second", "third"])
  }

  @Test("stopping after a line gathered across chunks counts only this chunk's bytes")
  func stopAfterGatheredLine() {
    let framer = LineFramer(maxLineBytes: 64)
    var seen: [String] = []
    let handler: (LineFramer.Event) -> Bool = { _ in true }
    let head = Array("hea".utf8)
    #expect(head.withUnsafeBytes { framer.feed($0, handler) } == head.count)
    let tail = Array("d\r\nmore\n".utf8)
    let consumed = tail.withUnsafeBytes { raw in
      framer.feed(raw) { event in
        if case .line(let bytes) = event { seen.append(String(decoding: bytes, as: UTF8.self)) }
        return false
      }
    }
    #expect(seen == ["head"])
    #expect(consumed == "d\r\n".utf8.count)
  }

  @Test("stopping on the last line of a chunk consumes it all")
  func stopOnLastLine() {
    let framer = LineFramer(maxLineBytes: 64)
    let input = Array("only\n".utf8)
    #expect(input.withUnsafeBytes { framer.feed($0) { _ in false } } == input.count)
  }

  @Test("an empty chunk consumes nothing and reports nothing")
  func emptyChunk() {
    let framer = LineFramer(maxLineBytes: 8)
    var events = 0
    let consumed = [UInt8]().withUnsafeBytes { raw in
      framer.feed(raw) { _ in
        events += 1
        return true
      }
    }
    #expect(consumed == 0)
    #expect(events == 0)
  }
}
