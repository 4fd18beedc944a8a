/// How a framing wants deliveries in its outbox when they should not be stored as lines: made
/// once per delivered value, on the publisher's thread, and shared by every subscriber that
/// uses the same encoding (``ServerSentEvents``' events, ``SharedDeflateFrames``' compressed
/// WebSocket frames). The connection asks its framing for one when its session starts; a
/// framing without one (lines, WebSocket keeping its context) leaves deliveries as they are,
/// at no cost.
package protocol DeliveryEncoding: AnyObject, Sendable {
  /// `lines`, whole delivery lines, in the outbox's form.
  func encode(_ lines: [UInt8]) -> [UInt8]

  /// The same, free to use `scratch` as room while it works: the caller's buffer, kept
  /// between calls for its capacity, whose bytes mean nothing before or after.
  func encode(_ lines: [UInt8], scratch: inout [UInt8]) -> [UInt8]
}

extension DeliveryEncoding {
  /// Encodes without the scratch, for an encoding that has no use for it.
  package func encode(_ lines: [UInt8], scratch: inout [UInt8]) -> [UInt8] { encode(lines) }
}
