/// Reads observable-server's line protocol as a subscriber and a publisher of one stream see
/// it: the hello, `{"ok":…}` replies and `{"stream":NAME,"value":"<payload>"}` deliveries.
///
/// Lines are recognised by their fixed prefixes, not parsed as JSON: the benchmark's payloads
/// are `[0-9a-z]` strings, which the server passes through unescaped, and decoding JSON would
/// cost the client more than the server spends on the line.
public struct JSONLineDecoder: Sendable {
  private let deliveryPrefix: [UInt8]

  /// A decoder for deliveries of `stream`.
  public init(stream: String) {
    deliveryPrefix = Array(#"{"stream":"\#(stream)","value":""#.utf8)
  }

  /// Hands every complete line in `bytes` to `handle`, and returns how many bytes they took.
  public func decode(
    _ bytes: UnsafeRawBufferPointer, _ handle: (PeerMessage) -> Void
  ) throws(PeerWireError) -> Int {
    var position = 0
    while position < bytes.count {
      guard let newline = bytes[position...].firstIndex(of: 0x0A) else { break }
      handle(try message(UnsafeRawBufferPointer(rebasing: bytes[position..<newline])))
      position = newline + 1
    }
    return position
  }

  private func message(_ line: UnsafeRawBufferPointer) throws(PeerWireError) -> PeerMessage {
    if line.starts(with: deliveryPrefix) {
      // The payload runs to the closing `"}`.
      guard line.count >= deliveryPrefix.count + 2, line[line.count - 2] == UInt8(ascii: "\""),
        line[line.count - 1] == UInt8(ascii: "}")
      else { throw PeerWireError("delivery not of the benchmark's shape: \(line.text)") }
      return .delivery(
        UnsafeRawBufferPointer(rebasing: line[deliveryPrefix.count..<line.count - 2]))
    }
    if line.starts(with: #"{"ok":true,"op":"subscribe""#.utf8) { return .subscribed }
    if line.starts(with: #"{"ok":true"#.utf8) { return .acknowledged }
    if line.starts(with: #"{"ok":false"#.utf8) { return .refused(line.text) }
    if line.starts(with: #"{"hello""#.utf8) { return .greeting }
    guard line.first == UInt8(ascii: "{") else {
      throw PeerWireError("not a line of the protocol: \(line.text)")
    }
    return .other
  }
}
