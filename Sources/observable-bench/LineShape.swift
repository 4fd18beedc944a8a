/// The protocol lines the benchmark sends and receives, as bytes at known offsets.
///
/// The server's replies and deliveries have fixed shapes, so the load client recognises them
/// by prefix and reads numbers at fixed offsets instead of decoding JSON: decoding would cost
/// more CPU than the server spends producing the line.
enum LineShape {
  static let okTrue = Array(#"{"ok":true"#.utf8)
  static let okFalse = Array(#"{"ok":false"#.utf8)
  /// `{"ok":true,"op":"`, after which comes the op's name.
  static let okOpPrefix = Array(#"{"ok":true,"op":""#.utf8)

  /// A `{"op":"subscribe",…}` request with `"id":1`, which the handshake waits for.
  static func subscribe(_ stream: String) -> String {
    #"{"op":"subscribe","stream":"\#(stream)","id":1}"#
  }
}

/// The value of every measured publish: a sequence number and the CLOCK_MONOTONIC time it was
/// sent, in fixed-width decimal, padded with `x` to the requested size.
///
/// Layout: `q`, 10 digits of sequence, `t`, 20 digits of nanoseconds, then `x`s. Fixed widths let
/// the publisher patch a template in place and a subscriber read both numbers at known offsets;
/// `[0-9a-z]` needs no JSON escaping, so the server passes the bytes through unchanged.
struct Payload: Sendable {
  static let minimumBytes = 32
  static let sequenceOffset = 1
  static let sequenceDigits = 10
  static let timeOffset = 12
  static let timeDigits = 20

  /// Bytes per payload, at least ``minimumBytes``.
  let size: Int

  /// The payload for sequence 0 at time 0, the template the others are patched from.
  var template: [UInt8] {
    var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size)
    bytes[0] = UInt8(ascii: "q")
    bytes[Payload.timeOffset - 1] = UInt8(ascii: "t")
    for index in Payload.sequenceOffset..<Payload.sequenceOffset + Payload.sequenceDigits {
      bytes[index] = UInt8(ascii: "0")
    }
    for index in Payload.timeOffset..<Payload.timeOffset + Payload.timeDigits {
      bytes[index] = UInt8(ascii: "0")
    }
    return bytes
  }

  @inline(__always)
  static func writeDigits(_ value: UInt64, count: Int, to destination: UnsafeMutableRawPointer) {
    var rest = value
    var index = count - 1
    while index >= 0 {
      destination.storeBytes(
        of: UInt8(truncatingIfNeeded: 48 + rest % 10), toByteOffset: index,
        as: UInt8.self)
      rest /= 10
      index -= 1
    }
  }

  @inline(__always)
  static func readDigits(_ source: UnsafeRawPointer, count: Int) -> UInt64? {
    var value: UInt64 = 0
    for index in 0..<count {
      let digit = source.load(fromByteOffset: index, as: UInt8.self) &- 48
      guard digit < 10 else { return nil }
      value = value &* 10 &+ UInt64(digit)
    }
    return value
  }
}

/// `{"op":"publish","stream":NAME,"value":"<payload>"}\n` lines, written in place.
struct PublishLine: Sendable {
  /// Bytes per line, newline included.
  let length: Int

  init(stream: String, payload: Payload) {
    let head = Array(#"{"op":"publish","stream":"\#(stream)","value":""#.utf8)
    payloadOffset = head.count
    bytes = head + payload.template + Array("\"}\n".utf8)
    length = bytes.count
  }

  /// Writes the line for `sequence`, stamped `time`, at `destination`.
  @inline(__always)
  func write(sequence: UInt64, time: UInt64, to destination: UnsafeMutableRawPointer) {
    bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: length) }
    let payload = destination + payloadOffset
    Payload.writeDigits(
      sequence, count: Payload.sequenceDigits, to: payload + Payload.sequenceOffset)
    Payload.writeDigits(time, count: Payload.timeDigits, to: payload + Payload.timeOffset)
  }

  private let bytes: [UInt8]
  private let payloadOffset: Int
}

/// Recognises `{"stream":NAME,"value":"<payload>"}`, the line a subscriber receives for each
/// publish, and reads the payload's numbers.
struct DeliveryLine: Sendable {
  init(stream: String, payload: Payload) {
    prefix = Array(#"{"stream":"\#(stream)","value":""#.utf8)
    length = prefix.count + payload.size + 2
  }

  /// The payload's sequence and send time, or `nil` for a line of any other shape.
  @inline(__always)
  func read(_ line: UnsafeRawBufferPointer) -> (sequence: UInt64, time: UInt64)? {
    guard line.count == length, line.hasPrefix(prefix) else { return nil }
    let payload = line.baseAddress! + prefix.count
    guard
      let sequence = Payload.readDigits(
        payload + Payload.sequenceOffset, count: Payload.sequenceDigits),
      let time = Payload.readDigits(payload + Payload.timeOffset, count: Payload.timeDigits)
    else { return nil }
    return (sequence, time)
  }

  private let prefix: [UInt8]
  private let length: Int
}
