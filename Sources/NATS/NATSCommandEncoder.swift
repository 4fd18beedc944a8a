#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes client-to-server NATS commands into a caller's buffer.
///
/// Every subject is checked, because a blank or line break in one would let the rest be read
/// as another command; every payload is checked against the server's `max_payload`, because
/// the server closes a connection that exceeds it. A refused command appends nothing.
public struct NATSCommandEncoder: Sendable {
  /// The server's `max_payload` from INFO; headers and payload together may not exceed it.
  public var maxPayload: Int

  /// An encoder for a server whose `max_payload` is `maxPayload`.
  public init(maxPayload: Int = 1_048_576) {
    self.maxPayload = maxPayload
  }

  /// `CONNECT {json}`.
  public func connect(_ options: NATSConnectOptions, into output: inout [UInt8]) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding a struct of strings, booleans and integers cannot fail.
    let json = (try? encoder.encode(options)) ?? Data("{}".utf8)
    output.append(contentsOf: "CONNECT ".utf8)
    output.append(contentsOf: json)
    output.append(contentsOf: crlf)
  }

  /// `PUB <subject> [reply] <#bytes>`, then the payload.
  public func publish(
    subject: String, replyTo: String? = nil, payload: [UInt8], into output: inout [UInt8]
  ) throws(NATSCommandError) {
    try encodePublish(subject: subject, replyTo: replyTo, payload: payload, into: &output)
  }

  /// `PUB <subject> [reply] <#bytes>`, then the payload; concrete, for the server's calls
  /// across modules to be specialised.
  public func publish(
    subject: String, replyTo: String? = nil, payload: ArraySlice<UInt8>,
    into output: inout [UInt8]
  ) throws(NATSCommandError) {
    try encodePublish(subject: subject, replyTo: replyTo, payload: payload, into: &output)
  }

  /// `HPUB <subject> [reply] <#header bytes> <#total bytes>`, then headers and payload.
  public func publish(
    subject: String, replyTo: String? = nil, headers: NATSHeaders, payload: [UInt8],
    into output: inout [UInt8]
  ) throws(NATSCommandError) {
    try encodePublish(
      subject: subject, replyTo: replyTo, headers: headers, payload: payload, into: &output)
  }

  /// `HPUB <subject> [reply] <#header bytes> <#total bytes>`, then headers and payload.
  public func publish(
    subject: String, replyTo: String? = nil, headers: NATSHeaders, payload: ArraySlice<UInt8>,
    into output: inout [UInt8]
  ) throws(NATSCommandError) {
    try encodePublish(
      subject: subject, replyTo: replyTo, headers: headers, payload: payload, into: &output)
  }

  /// `PUB`, for any byte collection; the public overloads and the session call it with
  /// concrete types, so it is specialised inside this module.
  func encodePublish(
    subject: String, replyTo: String?, payload: some Collection<UInt8>, into output: inout [UInt8]
  ) throws(NATSCommandError) {
    try checkSubject(subject)
    if let replyTo { try checkSubject(replyTo) }
    let size = payload.count
    guard size <= maxPayload else { throw .payloadTooLarge(size: size, maxPayload: maxPayload) }
    output.append(contentsOf: "PUB ".utf8)
    output.append(contentsOf: subject.utf8)
    if let replyTo {
      output.append(space)
      output.append(contentsOf: replyTo.utf8)
    }
    output.append(space)
    appendDecimal(size, to: &output)
    output.append(contentsOf: crlf)
    output.append(contentsOf: payload)
    output.append(contentsOf: crlf)
  }

  /// `HPUB`, for any byte collection, like the `PUB` one.
  func encodePublish(
    subject: String, replyTo: String?, headers: NATSHeaders, payload: some Collection<UInt8>,
    into output: inout [UInt8]
  ) throws(NATSCommandError) {
    try checkSubject(subject)
    if let replyTo { try checkSubject(replyTo) }
    var block: [UInt8] = []
    try NATSHeaderBlockReader.write(headers, into: &block)
    let total = block.count + payload.count
    guard total <= maxPayload else { throw .payloadTooLarge(size: total, maxPayload: maxPayload) }
    output.append(contentsOf: "HPUB ".utf8)
    output.append(contentsOf: subject.utf8)
    if let replyTo {
      output.append(space)
      output.append(contentsOf: replyTo.utf8)
    }
    output.append(space)
    appendDecimal(block.count, to: &output)
    output.append(space)
    appendDecimal(total, to: &output)
    output.append(contentsOf: crlf)
    output.append(contentsOf: block)
    output.append(contentsOf: payload)
    output.append(contentsOf: crlf)
  }

  /// `SUB <subject> [queue group] <sid>`.
  public func subscribe(
    subject: String, queueGroup: String? = nil, sid: UInt64, into output: inout [UInt8]
  ) throws(NATSCommandError) {
    try checkSubject(subject)
    if let queueGroup { try checkSubject(queueGroup) }
    output.append(contentsOf: "SUB ".utf8)
    output.append(contentsOf: subject.utf8)
    if let queueGroup {
      output.append(space)
      output.append(contentsOf: queueGroup.utf8)
    }
    output.append(space)
    appendDecimal(Int(sid), to: &output)
    output.append(contentsOf: crlf)
  }

  /// `UNSUB <sid> [max]`: with `max`, the server removes the subscription after that many
  /// messages in all.
  public func unsubscribe(sid: UInt64, afterMessages max: Int? = nil, into output: inout [UInt8]) {
    output.append(contentsOf: "UNSUB ".utf8)
    appendDecimal(Int(sid), to: &output)
    if let max {
      output.append(space)
      appendDecimal(max, to: &output)
    }
    output.append(contentsOf: crlf)
  }

  /// `PING`.
  public func ping(into output: inout [UInt8]) {
    output.append(contentsOf: "PING\r\n".utf8)
  }

  /// `PONG`.
  public func pong(into output: inout [UInt8]) {
    output.append(contentsOf: "PONG\r\n".utf8)
  }

  /// Refuses what the server would misread: an empty subject, blanks, control bytes, and
  /// empty tokens (`a..b`).
  private func checkSubject(_ subject: String) throws(NATSCommandError) {
    let bytes = subject.utf8
    guard !bytes.isEmpty, bytes.first != dot, bytes.last != dot else {
      throw .invalidSubject(subject)
    }
    var previous: UInt8 = 0
    for byte in bytes {
      guard byte > 32 && byte != 127 && !(byte == dot && previous == dot) else {
        throw .invalidSubject(subject)
      }
      previous = byte
    }
  }
}

/// Appends the decimal digits of a non-negative `value` without building a String.
func appendDecimal(_ value: Int, to output: inout [UInt8]) {
  guard value >= 10 else {
    output.append(UInt8(ascii: "0") + UInt8(max(value, 0)))
    return
  }
  appendDecimal(value / 10, to: &output)
  output.append(UInt8(ascii: "0") + UInt8(value % 10))
}

private let crlf: [UInt8] = [13, 10]
private let space = UInt8(ascii: " ")
private let dot = UInt8(ascii: ".")
