/// The line the server sends as soon as a client connects.
enum Greeting {
  /// The protocol version this server speaks.
  static let protocolVersion = 1

  /// `{"hello":"observable-server","version":…,"protocol":1,…}\n`
  static func line(version: String, authRequired: Bool) -> [UInt8] {
    var line: [UInt8] = []
    line.append(contentsOf: #"{"hello":"observable-server","version":"#.utf8)
    JSONStringEncoding.append(version, to: &line)
    line.append(contentsOf: #","protocol":\#(protocolVersion)"#.utf8)
    if authRequired { line.append(contentsOf: #","auth":"required""#.utf8) }
    line.append(contentsOf: #","help":"type help, or send {\"op\":\"help\"}"}"#.utf8)
    line.append(0x0A)
    return line
  }
}
