import Glibc

/// One non-blocking TCP connection of the load client, with its own input and output buffers.
///
/// Used by one thread at a time. Lines are found with memchr in a raw buffer and handed out as
/// byte ranges, so the hot loops never build a String or decode JSON: the client must stay far
/// cheaper than the server it measures, on the same two cores.
final class ClientConnection {
  /// What one read(2) did.
  enum ReadOutcome {
    case bytes(Int)
    case wouldBlock
    case closed
  }

  let descriptor: Int32

  /// Starts connecting to `address`; the connection completes while the first lines are sent.
  init(to address: LoopbackAddress, readCapacity: Int = 64 * 1024) throws(BenchError) {
    let kind = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    let fd = socket(address.family, kind, 0)
    guard fd >= 0 else { throw .system(call: "socket", code: errno) }
    // Requests are small and a latency sample must not wait for Nagle's algorithm.
    var on: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    let result = address.withSocketAddress { connect(fd, $0, $1) }
    if result != 0, errno != EINPROGRESS {
      let code = errno
      close(fd)
      throw .system(call: "connect to \(address)", code: code)
    }
    descriptor = fd
    capacity = readCapacity
    input = .allocate(byteCount: readCapacity, alignment: 16)
  }

  deinit {
    close(descriptor)
    input.deallocate()
  }

  /// Bytes received so far, framing included.
  private(set) var bytesRead = 0

  /// The poll(2) events this connection waits for now.
  var pollEvents: Int16 {
    Int16(POLLIN) | (hasPendingOutput ? Int16(POLLOUT) : 0)
  }

  // MARK: Input

  /// Reads once, as much as fits; the partial line at the end stays for the next read.
  func read() throws(BenchError) -> ReadOutcome {
    if lineStart > 0 {
      // At most one partial line (or frame) is left over, so this move is short.
      let remaining = rawEnd - lineStart
      if remaining > 0 { memmove(input, input + lineStart, remaining) }
      end -= lineStart
      rawEnd = remaining
      scanFrom -= lineStart
      lineStart = 0
    }
    guard rawEnd < capacity else {
      throw .unexpected("a line longer than this connection's \(capacity)-byte buffer")
    }
    if let inflatingFrames {
      let (outcome, produced) = try inflatingFrames.read(
        from: descriptor, into: input + rawEnd, room: capacity - rawEnd)
      if case .bytes(let count) = outcome { bytesRead += count }
      rawEnd += produced
      end = rawEnd
      return outcome
    }
    if let inflating {
      let (outcome, produced) = try inflating.read(
        from: descriptor, into: input + rawEnd, room: capacity - rawEnd)
      if case .bytes(let count) = outcome { bytesRead += count }
      rawEnd += produced
      end = rawEnd
      return outcome
    }
    while true {
      let count = Glibc.read(descriptor, input + rawEnd, capacity - rawEnd)
      if count > 0 {
        rawEnd += count
        bytesRead += count
        if framesLines {
          (end, rawEnd) = WebSocketDeframing.deframe(input, from: end, to: rawEnd)
        } else {
          end = rawEnd
        }
        return .bytes(count)
      }
      if count == 0 { return .closed }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: throw .system(call: "read", code: code)
      }
    }
  }

  /// The next complete line without its newline, consumed; valid until the next ``read()``.
  /// On an event stream, the next event's data.
  @inline(__always)
  func nextLine() -> UnsafeRawBufferPointer? {
    guard readsEvents else { return nextRawLine() }
    while let line = nextRawLine() {
      guard line.hasPrefix(Self.dataField) else { continue }
      // The standard drops one space after the colon; the server writes none.
      let start = line.count > 5 && line[5] == UInt8(ascii: " ") ? 6 : 5
      return UnsafeRawBufferPointer(rebasing: line[start...])
    }
    return nil
  }

  /// The field of an event that holds its data, the delivery line.
  private static let dataField = Array("data:".utf8)

  @inline(__always)
  private func nextRawLine() -> UnsafeRawBufferPointer? {
    guard scanFrom < end else { return nil }
    guard let newline = memchr(input + scanFrom, 0x0A, end - scanFrom) else {
      scanFrom = end
      return nil
    }
    let newlineOffset = UnsafeRawPointer(input).distance(to: UnsafeRawPointer(newline))
    let line = UnsafeRawBufferPointer(start: input + lineStart, count: newlineOffset - lineStart)
    lineStart = newlineOffset + 1
    scanFrom = lineStart
    return line
  }

  /// Inflates everything after the line last handed out (the `compress` reply) from now on.
  func startInflating() throws(BenchError) {
    guard let inflating = InflatingInput() else { throw .unexpected("zlib cannot start inflate") }
    try inflating.accept(
      UnsafeRawBufferPointer(start: input + lineStart, count: rawEnd - lineStart))
    rawEnd = lineStart
    end = lineStart
    scanFrom = lineStart
    self.inflating = inflating
  }

  /// Whether inflated input is waiting for room: the caller must ``read()`` again.
  var hasPendingInput: Bool { inflating?.hasPending ?? inflatingFrames?.hasPending ?? false }

  /// Bytes received once inflated, or `nil` when the connection is not compressed.
  var plainBytesRead: Int? { inflating?.plainBytes ?? inflatingFrames?.plainBytes }

  // MARK: Output

  var hasPendingOutput: Bool { outputOffset < output.count }

  /// Appends one line of text (a newline is added) to what ``flush()`` writes.
  func queueLine(_ text: String) {
    if framesLines {
      WebSocketDeframing.appendFrame(text.utf8, to: &output)
      return
    }
    output.append(contentsOf: text.utf8)
    output.append(0x0A)
  }

  /// Upgrades to WebSocket on the server's `/ws` at `port` (this connection's HTTP port),
  /// offering the `Sec-WebSocket-Extensions` in `extensions` when not empty; from then on
  /// lines are read from and written as text frames, inflated when the server agreed on
  /// permessage-deflate.
  func upgradeToWebSocket(
    port: UInt16, offering extensions: String = "", deadline: Deadline
  ) throws(BenchError) {
    try request(
      WebSocketDeframing.upgradeRequest(port: port, offering: extensions), status: "101",
      deadline: deadline)
    framesLines = true
    let answer = UnsafeRawBufferPointer(start: input, count: lineStart)
    guard answer.range(of: "permessage-deflate") != nil else {
      (end, rawEnd) = WebSocketDeframing.deframe(input, from: end, to: rawEnd)
      return
    }
    guard let frames = InflatingFrames(capacity: capacity) else {
      throw .unexpected("zlib cannot start inflate")
    }
    try frames.accept(UnsafeRawBufferPointer(start: input + lineStart, count: rawEnd - lineStart))
    rawEnd = lineStart + (try frames.lines(into: input + lineStart, room: capacity - lineStart))
    end = rawEnd
    inflatingFrames = frames
  }

  /// Opens a Server-Sent Events stream of `stream` (`GET /sse`) on this connection to an HTTP
  /// port; from then on ``nextLine()`` hands out each event's data, the delivery line, and
  /// skips the rest of the event (`event:`, `id:`, the blank line) and comments.
  func openEventStream(of stream: String, deadline: Deadline) throws(BenchError) {
    let get = "GET /sse?stream=\(stream) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    try request(Array(get.utf8), status: "200", deadline: deadline)
    readsEvents = true
  }

  /// Sends an HTTP request and waits for its head, which must answer `status`; what follows
  /// the head stays in the input, the first line to hand out.
  private func request(_ bytes: [UInt8], status: String, deadline: Deadline) throws(BenchError) {
    output.append(contentsOf: bytes)
    let terminator = "\r\n\r\n"
    while true {
      try deadline.check("waiting for the answer to an HTTP request")
      var events = pollfd(fd: descriptor, events: pollEvents, revents: 0)
      _ = poll(&events, 1, 100)
      if events.revents & Int16(POLLOUT) != 0 { try flush() }
      if events.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0,
        case .closed = try read()
      {
        throw .unexpected("the server closed the connection before its HTTP answer")
      }
      let head = UnsafeRawBufferPointer(start: input, count: end)
      guard let found = head.range(of: terminator) else { continue }
      guard head.hasPrefix(Array("HTTP/1.1 \(status)".utf8)) else {
        throw .unexpected("HTTP request refused: \(head.text)")
      }
      lineStart = found.upperBound
      scanFrom = lineStart
      end = lineStart
      return
    }
  }

  /// Appends raw bytes to what ``flush()`` writes.
  func queue(_ bytes: [UInt8]) {
    output.append(contentsOf: bytes)
  }

  /// Appends `count` bytes that `fill` writes in place, so that a batch of generated lines is
  /// not built elsewhere and copied.
  func queue(byteCount count: Int, _ fill: (UnsafeMutableRawPointer) -> Void) {
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: count))
    output.withUnsafeMutableBytes { fill($0.baseAddress! + start) }
  }

  /// Writes pending output until it is all written (`true`) or the socket is full (`false`).
  @discardableResult
  func flush() throws(BenchError) -> Bool {
    try SocketOutput.flush(descriptor, &output, offset: &outputOffset)
  }

  private let input: UnsafeMutableRawPointer
  private let capacity: Int
  /// The first byte not yet handed out as part of a line.
  private var lineStart = 0
  /// Where the newline search resumes: bytes before it are known to hold none.
  private var scanFrom = 0
  /// The end of the lines read (in WebSocket mode, of the frames turned into lines).
  private var end = 0
  /// The end of the bytes read: past `end` only by a partial WebSocket frame.
  private var rawEnd = 0
  /// Whether the connection speaks WebSocket: frames in, masked frames out.
  private var framesLines = false
  /// Whether the connection reads Server-Sent Events: only their data are lines.
  private var readsEvents = false
  /// Set once the connection receives deflate.
  private var inflating: InflatingInput?
  /// Set when the WebSocket upgrade agreed on permessage-deflate.
  private var inflatingFrames: InflatingFrames?
  private var output: [UInt8] = []
  private var outputOffset = 0
}
