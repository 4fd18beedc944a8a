#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads the server-to-client NATS protocol from bytes that arrive in any split.
///
/// Bytes are appended as they are read and operations taken out one at a time. Memory stays
/// bounded: a control line longer than ``maxControlLine`` or a message larger than
/// ``maxMessageBytes`` is an error as soon as it is seen, before its bytes arrive. After an
/// error the connection is dropped and the parser ``reset()``.
public struct NATSProtocolParser: Sendable {
  /// Room for headers a server adds to a message of `max_payload` bytes, such as those of a
  /// JetStream direct get.
  public static let headerAllowance = 64 * 1024

  /// The longest control line accepted, without its CRLF; INFO with many `connect_urls` is
  /// the longest.
  public var maxControlLine: Int
  /// The largest message (headers and payload) accepted.
  public var maxMessageBytes: Int

  /// A parser for a server whose `max_payload` is `maxPayload`.
  public init(maxPayload: Int = 1_048_576, maxControlLine: Int = 64 * 1024) {
    self.maxControlLine = maxControlLine
    self.maxMessageBytes = maxPayload + Self.headerAllowance
  }

  /// Follows the `max_payload` of an INFO.
  public mutating func setMaxPayload(_ maxPayload: Int) {
    maxMessageBytes = maxPayload + Self.headerAllowance
  }

  /// The bytes received and not yet taken; the field readers in `+Fields` look into it.
  private(set) var buffer: [UInt8] = []
  private var position = 0
  /// Where the search for the current control line's LF resumes, so that a line arriving a
  /// byte at a time is scanned once.
  private var scanned = 0
  private var pending: PendingMessage?

  /// A control line read whose payload has not all arrived.
  private struct PendingMessage: Sendable {
    var subject: String
    var sid: UInt64
    var replyTo: String?
    var headerBytes: Int?
    var totalBytes: Int
  }

  /// The bytes held and not yet parsed, to check that memory stays bounded.
  public var bufferedByteCount: Int { buffer.count - position }

  /// Forgets everything, for a new connection.
  public mutating func reset() {
    buffer = []
    position = 0
    scanned = 0
    pending = nil
  }

  /// Adds bytes read from the socket.
  ///
  /// Concrete overloads rather than one generic: a public generic is not specialised across
  /// modules, and the server calls this for every read.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) { appendBytes(bytes) }

  /// Adds bytes read from the socket.
  public mutating func append(_ bytes: [UInt8]) { appendBytes(bytes) }

  /// Adds bytes read from the socket.
  public mutating func append(_ bytes: ArraySlice<UInt8>) { appendBytes(bytes) }

  private mutating func appendBytes(_ bytes: some Collection<UInt8>) {
    if position == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      scanned = 0
      position = 0
    } else if position > 4096 && position >= buffer.count / 2 {
      buffer.removeSubrange(0..<position)
      scanned -= position
      position = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete operation, or `nil` until more bytes arrive.
  public mutating func next() throws(NATSProtocolError) -> NATSServerOperation? {
    if let pending {
      return try completeMessage(pending)
    }
    let searchStart = max(scanned, position)
    guard let lineFeed = buffer[searchStart...].firstIndex(of: lf) else {
      scanned = buffer.count
      // The line and a CR may be held while the LF is awaited; one byte more cannot fit.
      if buffer.count - position > maxControlLine + 1 {
        throw .controlLineTooLong(limit: maxControlLine)
      }
      return nil
    }
    var end = lineFeed
    if end > position && buffer[end - 1] == cr { end -= 1 }
    guard end - position <= maxControlLine else {
      throw .controlLineTooLong(limit: maxControlLine)
    }
    let start = position
    position = lineFeed + 1
    scanned = position
    return try operation(start..<end)
  }

  private mutating func operation(_ line: Range<Int>) throws(NATSProtocolError)
    -> NATSServerOperation?
  {
    var cursor = line.lowerBound
    guard let verb = field(&cursor, line.upperBound) else {
      throw .unknownOperation("")
    }
    if matches(verb, "msg") {
      return try startMessage(verb: "MSG", line: line, cursor: cursor, hasHeaders: false)
    } else if matches(verb, "hmsg") {
      return try startMessage(verb: "HMSG", line: line, cursor: cursor, hasHeaders: true)
    } else if matches(verb, "ping") || matches(verb, "pong") || matches(verb, "+ok") {
      guard field(&cursor, line.upperBound) == nil else {
        throw .malformedArguments(verb: text(verb).uppercased(), line: text(line))
      }
      if matches(verb, "+ok") { return .ok }
      return matches(verb, "ping") ? .ping : .pong
    } else if matches(verb, "-err") {
      var message = text(cursor..<line.upperBound).trimmingBlanks()
      if message.count >= 2 && message.hasPrefix("'") && message.hasSuffix("'") {
        message = String(message.dropFirst().dropLast())
      }
      return .error(message)
    } else if matches(verb, "info") {
      do {
        let json = Data(buffer[cursor..<line.upperBound])
        return .info(try JSONDecoder().decode(NATSServerInfo.self, from: json))
      } catch {
        throw .malformedInfo(String(describing: error))
      }
    }
    throw .unknownOperation(String(text(line).prefix(16)))
  }

  private mutating func startMessage(
    verb: String, line: Range<Int>, cursor start: Int, hasHeaders: Bool
  ) throws(NATSProtocolError) -> NATSServerOperation? {
    var cursor = start
    var fields: (Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?, Range<Int>?)
    fields.0 = field(&cursor, line.upperBound)
    fields.1 = field(&cursor, line.upperBound)
    fields.2 = field(&cursor, line.upperBound)
    fields.3 = field(&cursor, line.upperBound)
    fields.4 = field(&cursor, line.upperBound)
    fields.5 = field(&cursor, line.upperBound)
    // Built only on failure: a String of the line per message would cost more than parsing it.
    var malformed: NATSProtocolError { .malformedArguments(verb: verb, line: text(line)) }
    guard let subject = fields.0, let sidField = fields.1, let third = fields.2, fields.5 == nil,
      let sid = number(sidField)
    else { throw malformed }
    var replyTo: Range<Int>?
    var headerBytes: Int?
    let totalBytes: Int?
    switch (hasHeaders, fields.3, fields.4) {
    case (false, nil, nil):
      totalBytes = number(third).map(Int.init)
    case (false, let size?, nil):
      replyTo = third
      totalBytes = number(size).map(Int.init)
    case (true, let total?, nil):
      headerBytes = number(third).map(Int.init)
      totalBytes = number(total).map(Int.init)
    case (true, let header?, let total?):
      replyTo = third
      headerBytes = number(header).map(Int.init)
      totalBytes = number(total).map(Int.init)
    default:
      throw malformed
    }
    guard let totalBytes else { throw malformed }
    if hasHeaders {
      guard let headerBytes, headerBytes <= totalBytes else { throw malformed }
    }
    guard totalBytes <= maxMessageBytes else {
      throw .payloadTooLarge(size: totalBytes, limit: maxMessageBytes)
    }
    let message = PendingMessage(
      subject: text(subject), sid: sid, replyTo: replyTo.map(text), headerBytes: headerBytes,
      totalBytes: totalBytes)
    return try completeMessage(message)
  }

  private mutating func completeMessage(_ message: PendingMessage) throws(NATSProtocolError)
    -> NATSServerOperation?
  {
    let end = position + message.totalBytes
    guard buffer.count >= end + 2 else {
      pending = message
      return nil
    }
    guard buffer[end] == cr && buffer[end + 1] == lf else { throw .missingPayloadTerminator }
    pending = nil
    var payloadStart = position
    var headers: NATSHeaders?
    if let headerBytes = message.headerBytes {
      headers = try NATSHeaderBlockReader.read(buffer[position..<position + headerBytes])
      payloadStart += headerBytes
    }
    let result = NATSMessage(
      subject: message.subject, sid: message.sid, replyTo: message.replyTo, headers: headers,
      payload: buffer[payloadStart..<end])
    position = end + 2
    scanned = position
    return .message(result)
  }
}

private let cr = UInt8(ascii: "\r")
private let lf = UInt8(ascii: "\n")
