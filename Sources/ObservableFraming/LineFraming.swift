import ObservableSession
import ObservableWire

/// The framing of the line protocol over a byte stream: one request per `\n`-terminated line in,
/// lines out unchanged.
final class LineFraming: Framing {
  init(maxLineBytes: Int) {
    framer = LineFramer(maxLineBytes: maxLineBytes)
  }

  var maxLineBytes: Int {
    get { framer.maxLineBytes }
    set { framer.maxLineBytes = newValue }
  }

  func decode(_ input: UnsafeRawBufferPointer, to session: Session?) -> Int {
    guard let session else { return input.count }
    return framer.feed(input) { event in
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
    out.append(bytes: lines)
  }

  var allowsStreamCompression: Bool { true }

  private let framer: LineFramer
}
