/// The MQTT 3.1.1 packets a QoS 0 benchmark client sends (OASIS MQTT 3.1.1, section 3).
public enum MQTTPacket {
  /// CONNECT with a clean session, no will, no user name or password.
  /// `keepAliveSeconds` 0 turns the server's keep-alive check off.
  public static func connect(clientID: String, keepAliveSeconds: UInt16 = 0) -> [UInt8] {
    // Protocol name "MQTT", level 4 (3.1.1), flags: clean session only.
    var body: [UInt8] = [0, 4] + Array("MQTT".utf8) + [4, 0x02]
    body += bigEndian(keepAliveSeconds)
    body += string(clientID)
    return packet(0x10, body)
  }

  /// SUBSCRIBE to one topic filter at QoS 0. The fixed header's flags are 0b0010, as the
  /// standard requires.
  public static func subscribe(packetID: UInt16, topic: String) -> [UInt8] {
    packet(0x82, bigEndian(packetID) + string(topic) + [0])
  }

  /// Everything of a QoS 0 PUBLISH to `topic` that comes before a payload of `payloadBytes`:
  /// the packet is this, then the payload.
  public static func publishHeader(topic: String, payloadBytes: Int) -> [UInt8] {
    let topicField = string(topic)
    return [0x30] + remainingLength(topicField.count + payloadBytes) + topicField
  }

  /// PINGREQ: the server answers PINGRESP once it has read everything before it.
  public static let pingRequest: [UInt8] = [0xC0, 0x00]

  /// DISCONNECT: a clean end of the session.
  public static let disconnect: [UInt8] = [0xE0, 0x00]

  /// `length` as MQTT's variable-length integer: seven bits a byte, least significant first,
  /// the top bit set on every byte but the last. At most 268,435,455.
  public static func remainingLength(_ length: Int) -> [UInt8] {
    precondition(length >= 0 && length < 1 << 28, "MQTT remaining length out of range")
    var bytes: [UInt8] = []
    var rest = length
    repeat {
      let digit = UInt8(rest & 0x7F)
      rest >>= 7
      bytes.append(rest > 0 ? digit | 0x80 : digit)
    } while rest > 0
    return bytes
  }

  private static func packet(_ header: UInt8, _ body: [UInt8]) -> [UInt8] {
    [header] + remainingLength(body.count) + body
  }

  /// A UTF-8 string field: two bytes of length, big-endian, then the bytes.
  private static func string(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    return bigEndian(UInt16(bytes.count)) + bytes
  }

  private static func bigEndian(_ value: UInt16) -> [UInt8] {
    [UInt8(value >> 8), UInt8(value & 0xFF)]
  }
}
