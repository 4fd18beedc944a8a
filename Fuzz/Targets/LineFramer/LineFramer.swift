import FuzzSupport

@testable import ObservableFraming

/// Fuzzes the line framer: the same bytes, cut into reads anywhere and with the consumer
/// stopping after any line, give the same lines and over-long reports as one read, and those are
/// what a plain reading of the framing rules gives.
@main
enum LineFramerTarget {
  /// What the framer reported, copied so that runs can be compared.
  private enum Seen: Equatable, CustomStringConvertible {
    case line([UInt8])
    case tooLong

    var description: String {
      switch self {
      case .line(let bytes): "line(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
      case .tooLong: "tooLong"
      }
    }
  }

  /// Starts libFuzzer, which calls ``check(_:)`` with each input.
  static func main() {
    FuzzDriver.run { data, size in
      LineFramerTarget.check(FuzzDriver.bytes(data, size))
      return 0
    }
  }

  private static func check(_ input: UnsafeRawBufferPointer) {
    var choices = FuzzChoices(input)
    let maxLineBytes = choices.next(in: 1...48)
    let expected = rules(input, maxLineBytes: maxLineBytes)
    let whole = frame(input, [0..<input.count], maxLineBytes: maxLineBytes, stopping: nil)
    require(whole == expected, "one read gives \(whole), the rules \(expected)")
    let byteByByte = frame(
      input, choices.pieces(of: input.count, maxPiece: 1), maxLineBytes: maxLineBytes,
      stopping: nil)
    require(byteByByte == expected, "byte by byte gives \(byteByByte), one read \(expected)")
    for _ in 0..<3 {
      let maxPiece = choices.next(in: 1...max(1, input.count))
      let pieces = choices.pieces(of: input.count, maxPiece: maxPiece)
      let split = frame(input, pieces, maxLineBytes: maxLineBytes, stopping: &choices)
      require(split == expected, "reads \(pieces) give \(split), one read \(expected)")
    }
  }

  /// Feeds each piece of `input` in turn; with `stopping`, the consumer stops after some events
  /// and feeds the rest of the piece again, as a connection does when it pauses reading.
  private static func frame(
    _ input: UnsafeRawBufferPointer, _ pieces: [Range<Int>], maxLineBytes: Int,
    stopping: UnsafeMutablePointer<FuzzChoices>?
  ) -> [Seen] {
    let framer = LineFramer(maxLineBytes: maxLineBytes)
    var seen: [Seen] = []
    for piece in pieces {
      var rest = UnsafeRawBufferPointer(rebasing: input[piece])
      while !rest.isEmpty {
        var stopped = false
        let consumed = framer.feed(rest) { event in
          switch event {
          case .line(let bytes): seen.append(.line(Array(bytes)))
          case .tooLong: seen.append(.tooLong)
          }
          stopped = stopping.map { $0.pointee.next() % 3 == 0 } ?? false
          return !stopped
        }
        require(consumed > 0 && consumed <= rest.count, "fed \(rest.count), consumed \(consumed)")
        require(stopped || consumed == rest.count, "consumed \(consumed) of \(rest.count) unasked")
        rest = UnsafeRawBufferPointer(rebasing: rest[consumed...])
      }
    }
    return seen
  }

  /// The framing rules read plainly: `\n` ends a line and one `\r` before it is dropped; empty
  /// lines are skipped; a line over the limit is one `tooLong`; an unfinished line is reported
  /// as too long once it has more bytes than the limit allows for a line and its `\r`.
  private static func rules(_ input: UnsafeRawBufferPointer, maxLineBytes: Int) -> [Seen] {
    var seen: [Seen] = []
    var segments = input.split(separator: 0x0A, omittingEmptySubsequences: false)
    let unfinished = segments.removeLast()
    for segment in segments {
      let line = segment.last == 0x0D ? segment.dropLast() : segment[...]
      if line.count > maxLineBytes {
        seen.append(.tooLong)
      } else if !line.isEmpty {
        seen.append(.line(Array(line)))
      }
    }
    if unfinished.count > maxLineBytes + 1 { seen.append(.tooLong) }
    return seen
  }
}
