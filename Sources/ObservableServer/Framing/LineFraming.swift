/// The framing of the line protocol over a byte stream: one request per `\n`-terminated line in,
/// lines out unchanged.
final class LineFraming: Framing {
  init(maxLineBytes: Int) {
    self.maxLineBytes = maxLineBytes
    framer = LineFramer(maxLineBytes: maxLineBytes)
  }

  func decode(_ input: UnsafeRawBufferPointer, to session: Session) -> Int {
    framer.feed(input) { event in
      switch event {
      case .line(let line): return session.handle(line)
      case .tooLong:
        session.reject(
          op: nil, id: nil,
          ProtocolError(
            .lineTooLong, "line longer than \(maxLineBytes) bytes; the rest of it is skipped"))
        return true
      }
    }
  }

  var sendsLinesUnchanged: Bool { true }

  func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    out.append(contentsOf: lines)
  }

  var allowsStreamCompression: Bool { true }

  private let maxLineBytes: Int
  private var framer: LineFramer
}
