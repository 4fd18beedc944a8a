import ObservableWire

/// The framing of the line protocol over a byte stream: one request per `\n`-terminated line in,
/// lines out unchanged.
package final class LineFraming: Framing {
  package init(maxLineBytes: Int) {
    framer = LineFramer(maxLineBytes: maxLineBytes)
  }

  package var maxLineBytes: Int {
    get { framer.maxLineBytes }
    set { framer.maxLineBytes = newValue }
  }

  package func decode(_ input: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Bool) -> Int {
    framer.feed(input) { event in
      switch event {
      case .line(let line): return handle(.line(line))
      case .tooLong: return handle(.lineTooLong)
      }
    }
  }

  package var sendsLinesUnchanged: Bool { true }

  package func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    out.append(bytes: lines)
  }

  package var allowsStreamCompression: Bool { true }

  private let framer: LineFramer
}
