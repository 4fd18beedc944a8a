import Deflate
import Glibc

/// Reads the server's lines from one socket, inflating them once compression is on.
///
/// Belongs to the connection's thread. A line longer than `maximumLineBytes` ends the
/// connection instead of growing the buffer, so memory is bounded whatever the server sends.
final class LineReader {
  /// Why no further line can be read.
  enum End: Error {
    /// The server closed the connection, or the socket failed (the reason says how).
    case closed(String)
    /// The line limit was passed or the compressed stream was not valid.
    case invalid(String)
    /// The client is closing.
    case woken
    /// No line came before the deadline.
    case timedOut
  }

  private let fd: Int32
  private let wake: WakePipe
  private let maximumLineBytes: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0
  // Where the bytes after the last newline read so far begin: the line still being received.
  private var tailStart = 0
  private var inflater: InflateDecompressor?
  private var chunk = [UInt8](repeating: 0, count: 65_536)
  private let tls: TLSSocket?

  /// Reads from `fd`, watching `wake`; through `tls` when it is given.
  init(fd: Int32, wake: WakePipe, maximumLineBytes: Int, tls: TLSSocket? = nil) {
    self.fd = fd
    self.wake = wake
    self.maximumLineBytes = maximumLineBytes
    self.tls = tls
  }

  /// Inflates everything from now on, including bytes already read but not yet taken as lines.
  func startInflating(_ stream: InflateDecompressor) throws(End) {
    let raw = buffer[start...]
    buffer.removeAll(keepingCapacity: true)
    start = 0
    scanned = 0
    tailStart = 0
    inflater = stream
    try append(raw)
  }

  /// The next line without its `\n` (and `\r`), waiting up to `deadline` (`nil`: for ever).
  func nextLine(until deadline: ContinuousClock.Instant? = nil) throws(End) -> ArraySlice<UInt8> {
    while true {
      if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
        // A whole line may arrive in one read, past the check on the unfinished tail.
        guard newline - start <= maximumLineBytes else { throw tooLong }
        var line = buffer[start..<newline]
        if line.last == 0x0D { line = line.dropLast() }
        start = newline + 1
        scanned = start
        return line
      }
      scanned = buffer.count
      if start > 0, start >= buffer.count / 2 {
        buffer.removeFirst(start)
        scanned -= start
        tailStart -= start
        start = 0
      }
      try fill(until: deadline)
    }
  }

  private func fill(until deadline: ContinuousClock.Instant?) throws(End) {
    if let tls {
      let count = try tls.read(into: &chunk, until: deadline)
      return try append(chunk[..<count])
    }
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        try append(chunk[..<count])
        return
      }
      if count == 0 { throw .closed("the server closed the connection") }
      let code = errno
      guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
        throw .closed(String(cString: strerror(code)))
      }
      if code == EINTR { continue }
      switch PollWait.wait(fd: fd, events: Int16(POLLIN), until: deadline, wake: wake) {
      case .ready: continue
      case .timedOut: throw .timedOut
      case .woken: throw .woken
      }
    }
  }

  private func append(_ bytes: ArraySlice<UInt8>) throws(End) {
    guard let inflater else {
      try take(bytes)
      return
    }
    var failure: CompressionError?
    bytes.withUnsafeBytes { raw in
      do throws(CompressionError) {
        try inflater.decompress(raw) { piece throws(End) in try take(piece) }
      } catch {
        failure = error
      }
    }
    switch failure {
    case nil: return
    case .consumerFailed(let end as End): throw end
    default: throw .invalid("the compressed stream from the server is not valid")
    }
  }

  /// Appends plain bytes, checking only them for the newline that starts a new line.
  private func take<Piece: BidirectionalCollection<UInt8>>(_ piece: Piece) throws(End)
  where Piece.Index == Int {
    let offset = buffer.count
    buffer.append(contentsOf: piece)
    if let newline = piece.lastIndex(of: 0x0A) {
      tailStart = offset + (newline - piece.startIndex) + 1
    }
    if buffer.count - tailStart > maximumLineBytes { throw tooLong }
  }

  private var tooLong: End {
    .invalid("a line from the server is longer than \(maximumLineBytes) bytes")
  }
}
