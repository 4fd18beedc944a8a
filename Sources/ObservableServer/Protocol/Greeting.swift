/// The line the server sends as soon as a client connects.
enum Greeting {
  /// The protocol version this server speaks.
  static let protocolVersion = 1

  /// `{"hello":"observable-server","version":…,"protocol":1,…}\n`
  static func line(version: String, authRequired: Bool) -> [UInt8] {
    var line: [UInt8] = []
    line.append(literal: #"{"hello":"observable-server","version":"#)
    JSONStringEncoding.append(version, to: &line)
    line.append(contentsOf: #","protocol":\#(protocolVersion)"#.utf8)
    if authRequired { line.append(literal: #","auth":"required""#) }
    line.append(literal: #","help":"type help, or send {\"op\":\"help\"}"}"#)
    line.append(0x0A)
    return line
  }
}
