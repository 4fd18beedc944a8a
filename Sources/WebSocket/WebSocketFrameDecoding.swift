/// The state and rules behind `WebSocketFrameDecoder`, in a struct so that one exclusive
/// access covers a whole `decode` call instead of one per field touched, a quarter of the
/// time spent on small frames.
struct WebSocketFrameDecoding {
  /// The largest message accepted, after decompression.
  var maximumMessageBytes: Int
  /// Whether binary messages are delivered; when false a binary frame fails with 1003 at
  /// its header, since the line protocol is text only.
  let acceptsBinary: Bool
  private let inflater: PerMessageInflater?
  /// The most compressed bytes a message may take: deflate can grow incompressible data
  /// by a few bytes per block, so a little more than the inflated cap.
  private var maximumCompressedBytes: Int { maximumMessageBytes + maximumMessageBytes / 256 + 64 }

  private var headerBytes: [UInt8] = []
  private var header: WebSocketFrameHeader?
  /// Payload bytes of the current frame still to come, and how many came already.
  private var remaining = 0
  private var received = 0

  /// The opcode of the data message in progress (text or binary), across its fragments.
  private var messageOpcode: WebSocketFrameHeader.Opcode?
  private var messageCompressed = false
  private var message: [UInt8] = []
  private var compressedBytes = 0
  private var validator = UTF8Validator()
  private var control: [UInt8] = []
  /// Unmasked compressed input on its way to the inflater.
  private var scratch: [UInt8] = []
  private var failure: WebSocketProtocolError?
  private var closed = false

  /// A decoder; `deflate` is the negotiated permessage-deflate, nil when none was.
  /// A decoder in its initial state; see `WebSocketFrameDecoder.init`.
  init(
    maximumMessageBytes: Int, acceptsBinary: Bool = false,
    deflate: PerMessageDeflateParameters? = nil
  ) throws(ZlibFailure) {
    self.maximumMessageBytes = max(0, maximumMessageBytes)
    self.acceptsBinary = acceptsBinary
    self.inflater = try deflate.map { (parameters) throws(ZlibFailure) in
      try PerMessageInflater(parameters)
    }
    headerBytes.reserveCapacity(14)
    control.reserveCapacity(125)
  }

  /// Decodes `bytes`, calling `onEvent` for each completed message or control frame.
  mutating func decode(
    _ bytes: UnsafeRawBufferPointer, _ onEvent: (WebSocketEvent) -> Void
  ) throws(WebSocketProtocolError) {
    if let failure { throw failure }
    do {
      try consume(bytes, onEvent)
    } catch {
      failure = error
      message = []
      scratch = []
      throw error
    }
  }

  private mutating func consume(
    _ bytes: UnsafeRawBufferPointer, _ onEvent: (WebSocketEvent) -> Void
  ) throws(WebSocketProtocolError) {
    var offset = 0
    while offset < bytes.count && !closed {
      if header == nil {
        offset += try takeHeader(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        guard header != nil else { continue }
      }
      let take = min(remaining, bytes.count - offset)
      if take > 0 {
        try takePayload(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
        offset += take
      }
      if remaining == 0 { try finishFrame(onEvent) }
    }
  }

  /// Collects header bytes; returns how many it used. Sets `header` once complete.
  private mutating func takeHeader(_ bytes: UnsafeRawBufferPointer) throws(WebSocketProtocolError)
    -> Int
  {
    var used = 0
    if headerBytes.count < 2 {
      used = min(2 - headerBytes.count, bytes.count)
      headerBytes.append(contentsOf: bytes[..<used])
      guard headerBytes.count == 2 else { return used }
      try checkStart(try WebSocketFrameHeader.check(first: headerBytes[0], second: headerBytes[1]))
    }
    let needed = WebSocketFrameHeader.length(second: headerBytes[1]) - headerBytes.count
    let more = min(needed, bytes.count - used)
    headerBytes.append(contentsOf: bytes[used..<used + more])
    used += more
    guard more == needed else { return used }
    let parsed = try WebSocketFrameHeader(headerBytes)
    headerBytes.removeAll(keepingCapacity: true)
    try checkSize(parsed)
    header = parsed
    remaining = parsed.payloadLength
    received = 0
    return used
  }

  /// The rules that depend on the message in progress, checked from the first two bytes.
  private mutating func checkStart(_ opcode: WebSocketFrameHeader.Opcode)
    throws(WebSocketProtocolError)
  {
    let rsv1 = headerBytes[0] & 0x40 != 0
    switch opcode {
    case .continuation:
      guard messageOpcode != nil else { throw protocolError("continuation without a message") }
      guard !rsv1 else { throw protocolError("RSV1 on a continuation frame") }
    case .text, .binary:
      guard messageOpcode == nil else { throw protocolError("new message inside a fragmented one") }
      guard !rsv1 || inflater != nil else { throw protocolError("RSV1 without permessage-deflate") }
      guard opcode == .text || acceptsBinary else {
        throw WebSocketProtocolError(.unsupportedData, "binary messages are not accepted")
      }
    case .close, .ping, .pong:
      break
    }
  }

  /// The size cap, checked before any of the payload is buffered.
  private mutating func checkSize(_ frame: WebSocketFrameHeader) throws(WebSocketProtocolError) {
    guard !frame.opcode.isControl else { return }
    let compressed = frame.opcode == .continuation ? messageCompressed : frame.rsv1
    let (sofar, cap) =
      compressed
      ? (compressedBytes, maximumCompressedBytes) : (message.count, maximumMessageBytes)
    guard frame.payloadLength <= cap - sofar else {
      throw WebSocketProtocolError(.messageTooBig, "message over \(maximumMessageBytes) bytes")
    }
    if frame.opcode != .continuation {
      messageOpcode = frame.opcode
      messageCompressed = frame.rsv1
      validator = UTF8Validator()
    }
    if compressed { compressedBytes += frame.payloadLength }
  }

  private mutating func takePayload(_ bytes: UnsafeRawBufferPointer) throws(WebSocketProtocolError)
  {
    guard let header else { return }
    defer {
      received += bytes.count
      remaining -= bytes.count
    }
    if header.opcode.isControl {
      WebSocketMask.append(bytes, key: header.maskKey, offset: received, to: &control)
      return
    }
    let start = message.count
    if messageCompressed, let inflater {
      scratch.removeAll(keepingCapacity: true)
      WebSocketMask.append(bytes, key: header.maskKey, offset: received, to: &scratch)
      var failure: WebSocketProtocolError?
      scratch.withUnsafeBytes { input in
        do throws(WebSocketProtocolError) { try inflate(input, inflater) } catch { failure = error }
      }
      if let failure { throw failure }
    } else {
      if message.isEmpty { message.reserveCapacity(min(header.payloadLength, 64 * 1024)) }
      WebSocketMask.append(bytes, key: header.maskKey, offset: received, to: &message)
    }
    try validateText(from: start)
  }

  /// Inflates a piece of the message, or its end when `input` is nil, into `message`.
  private mutating func inflate(
    _ input: UnsafeRawBufferPointer?, _ inflater: PerMessageInflater
  ) throws(WebSocketProtocolError) {
    do {
      if let input {
        try inflater.inflate(input, appendingTo: &message, limit: maximumMessageBytes)
      } else {
        try inflater.finishMessage(appendingTo: &message, limit: maximumMessageBytes)
      }
    } catch {
      switch error {
      case .tooBig:
        throw WebSocketProtocolError(.messageTooBig, "message inflates past \(maximumMessageBytes)")
      case .corrupt(let zlib):
        throw WebSocketProtocolError(.invalidPayload, "message does not inflate: \(zlib.message)")
      }
    }
  }

  private mutating func validateText(from start: Int) throws(WebSocketProtocolError) {
    guard messageOpcode == .text, start < message.count else { return }
    let valid = message.withUnsafeBytes {
      validator.validate(UnsafeRawBufferPointer(rebasing: $0[start...]))
    }
    guard valid else { throw WebSocketProtocolError(.invalidPayload, "text is not UTF-8") }
  }

  private mutating func finishFrame(_ onEvent: (WebSocketEvent) -> Void)
    throws(WebSocketProtocolError)
  {
    guard let frame = header else { return }
    header = nil
    switch frame.opcode {
    case .ping: onEvent(.ping(control))
    case .pong: onEvent(.pong(control))
    case .close:
      let (code, reason) = try WebSocketCloseCode.parse(closePayload: control)
      closed = true
      onEvent(.close(code: code, reason: reason))
    case .continuation, .text, .binary:
      guard frame.fin else { return }
      if messageCompressed, let inflater {
        let start = message.count
        try inflate(nil, inflater)
        try validateText(from: start)
      }
      let complete = message
      let isText = messageOpcode == .text
      message = []
      messageOpcode = nil
      compressedBytes = 0
      if isText {
        guard validator.isAtBoundary else {
          throw WebSocketProtocolError(.invalidPayload, "text ends inside a code point")
        }
        onEvent(.text(complete))
      } else {
        onEvent(.binary(complete))
      }
    }
    control.removeAll(keepingCapacity: true)
  }

  private func protocolError(_ reason: String) -> WebSocketProtocolError {
    WebSocketFrameHeader.protocolError(reason)
  }
}
