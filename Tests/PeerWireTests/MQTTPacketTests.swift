import PeerWire
import XCTest

final class MQTTPacketTests: XCTestCase {
  func testConnectIsMQTT311WithACleanSession() {
    // OASIS MQTT 3.1.1, 3.1: fixed header 0x10, then "MQTT", level 4, flags 0x02, keep-alive,
    // and the client identifier.
    XCTAssertEqual(
      MQTTPacket.connect(clientID: "ab", keepAliveSeconds: 60),
      [0x10, 14, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 60, 0, 2, 0x61, 0x62])
  }

  func testSubscribeHasTheReservedFlagsAndQoSZero() {
    XCTAssertEqual(
      MQTTPacket.subscribe(packetID: 1, topic: "b"), [0x82, 6, 0, 1, 0, 1, 0x62, 0])
  }

  func testPublishHeaderPingAndDisconnect() {
    XCTAssertEqual(MQTTPacket.publishHeader(topic: "b", payloadBytes: 5), [0x30, 8, 0, 1, 0x62])
    XCTAssertEqual(MQTTPacket.pingRequest, [0xC0, 0])
    XCTAssertEqual(MQTTPacket.disconnect, [0xE0, 0])
  }

  func testRemainingLengthAtEachByteBoundary() throws {
    // The standard's table (2.2.3): 1 to 4 bytes.
    let cases: [(Int, [UInt8])] = [
      (0, [0]), (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]),
      (16_384, [0x80, 0x80, 0x01]), (2_097_151, [0xFF, 0xFF, 0x7F]),
      (2_097_152, [0x80, 0x80, 0x80, 0x01]), (268_435_455, [0xFF, 0xFF, 0xFF, 0x7F]),
    ]
    for (length, bytes) in cases {
      XCTAssertEqual(MQTTPacket.remainingLength(length), bytes, "\(length)")
      let decoded = try bytes.withUnsafeBytes { try MQTTDecoder.remainingLength($0, at: 0) }
      XCTAssertEqual(decoded?.length, length)
      XCTAssertEqual(decoded?.bytes, bytes.count)
    }
    XCTAssertNil(
      try ([0x80, 0x80] as [UInt8]).withUnsafeBytes { try MQTTDecoder.remainingLength($0, at: 0) })
    XCTAssertThrowsError(
      try ([0x80, 0x80, 0x80, 0x80, 0x01] as [UInt8]).withUnsafeBytes {
        try MQTTDecoder.remainingLength($0, at: 0)
      })
  }

  func testConnackSubackPublishAndPingresp() throws {
    let publish = MQTTPacket.publishHeader(topic: "b", payloadBytes: 5) + Array("q0001".utf8)
    // A QoS 1 PUBLISH carries a packet identifier between topic and payload.
    let qos1: [UInt8] = [0x32, 7, 0, 1, 0x62, 0, 9, 0x68, 0x69]
    let bytes: [UInt8] = [0x20, 2, 0, 0, 0x90, 3, 0, 1, 0] + publish + qos1 + [0xD0, 0]
    let (messages, used) = try PeerDialect.mqtt.decodeAll(bytes)
    XCTAssertEqual(messages, [.greeting, .subscribed, .delivery("q0001"), .delivery("hi"), .pong])
    XCTAssertEqual(used, bytes.count)
    XCTAssertEqual(try PeerDialect.mqtt.decodeInPieces(bytes, chunk: 1).count, 5)
  }

  func testRefusalsAndPacketsOnlyAClientSends() throws {
    XCTAssertEqual(
      try PeerDialect.mqtt.decodeAll([0x20, 2, 0, 5]).0, [.refused("MQTT CONNACK return code 5")])
    XCTAssertEqual(
      try PeerDialect.mqtt.decodeAll([0x90, 3, 0, 1, 0x80]).0,
      [.refused("MQTT SUBACK refused the topic")])
    XCTAssertThrowsError(try PeerDialect.mqtt.decodeAll(MQTTPacket.pingRequest))
    XCTAssertThrowsError(try PeerDialect.mqtt.decodeAll([0x30, 3, 0, 9, 0x62]))
  }

  func testALargePublishWaitsForItsLastByte() throws {
    let payload = [UInt8](repeating: 0x78, count: 300)
    let bytes = MQTTPacket.publishHeader(topic: "b", payloadBytes: 300) + payload
    XCTAssertEqual(try PeerDialect.mqtt.decodeAll(Array(bytes.dropLast())).1, 0)
    XCTAssertEqual(
      try PeerDialect.mqtt.decodeAll(bytes).0, [.delivery(String(repeating: "x", count: 300))])
  }
}
