/// Reads MQTT 3.1.1 packets as a QoS 0 client sees them: CONNACK, SUBACK, PUBLISH and
/// PINGRESP (OASIS MQTT 3.1.1, sections 2 and 3).
///
/// Every packet is a fixed header (type in the high nibble of the first byte, flags in the
/// low one), a remaining length of one to four bytes, seven bits each, least significant
/// first, then that many bytes.
public enum MQTTDecoder {
  /// Hands every complete packet in `bytes` to `handle`, and returns how many bytes they took.
  public static func decode(
    _ bytes: UnsafeRawBufferPointer, _ handle: (PeerMessage) -> Void
  ) throws(PeerWireError) -> Int {
    var position = 0
    while position < bytes.count {
      guard let (length, headerBytes) = try remainingLength(bytes, at: position + 1) else { break }
      let body = position + 1 + headerBytes
      guard body + length <= bytes.count else { break }
      let packet = UnsafeRawBufferPointer(rebasing: bytes[body..<body + length])
      try handle(message(type: bytes[position] >> 4, flags: bytes[position] & 0x0F, packet))
      position = body + length
    }
    return position
  }

  /// The remaining length at `start` and how many bytes encode it; `nil` when they have not
  /// all arrived.
  public static func remainingLength(
    _ bytes: UnsafeRawBufferPointer, at start: Int
  ) throws(PeerWireError) -> (length: Int, bytes: Int)? {
    var length = 0
    var shift = 0
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      length |= Int(byte & 0x7F) << shift
      index += 1
      if byte & 0x80 == 0 { return (length, index - start) }
      shift += 7
      guard shift < 28 else { throw PeerWireError("MQTT remaining length longer than 4 bytes") }
    }
    return nil
  }

  private static func message(
    type: UInt8, flags: UInt8, _ body: UnsafeRawBufferPointer
  ) throws(PeerWireError) -> PeerMessage {
    switch type {
    case 2:  // CONNACK: session present, return code
      guard body.count == 2 else { throw PeerWireError("MQTT CONNACK of \(body.count) bytes") }
      return body[1] == 0 ? .greeting : .refused("MQTT CONNACK return code \(body[1])")
    case 3:  // PUBLISH: topic, a packet identifier above QoS 0, then the payload
      guard body.count >= 2 else { throw PeerWireError("MQTT PUBLISH without a topic") }
      let topicEnd = 2 + (Int(body[0]) << 8 | Int(body[1]))
      let payloadStart = topicEnd + ((flags >> 1) & 0x03 > 0 ? 2 : 0)
      guard payloadStart <= body.count else {
        throw PeerWireError("MQTT PUBLISH topic longer than the packet")
      }
      return .delivery(UnsafeRawBufferPointer(rebasing: body[payloadStart...]))
    case 9:  // SUBACK: packet identifier, one return code per topic; 0x80 is a failure
      guard body.count >= 3 else { throw PeerWireError("MQTT SUBACK of \(body.count) bytes") }
      return body[2...].contains(0x80) ? .refused("MQTT SUBACK refused the topic") : .subscribed
    case 13:  // PINGRESP
      return .pong
    case 1, 8, 10, 12, 14, 15:
      // Packets only a client sends (or the reserved type): a server never should.
      throw PeerWireError("MQTT packet type \(type) from the server")
    default:
      return .other
    }
  }
}
