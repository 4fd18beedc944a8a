/// The line the server sends as soon as a client connects.
package enum Greeting {
  /// The protocol version this server speaks.
  static let protocolVersion = 1

  /// What this server adds to protocol 1 that a client may rely on, backward compatible:
  /// `sub`, the pattern on deliveries through a pattern subscription (protocol 1.1).
  static let features = ["sub"]

  /// `{"hello":"observable-server","version":…,"protocol":1,"features":[…],…}\n`; `history`
  /// joins the features when the server keeps topic history (`--history N`).
  package static func line(version: String, authRequired: Bool, history: Bool = false) -> [UInt8] {
    let features = history ? Self.features + ["history"] : Self.features
    var line: [UInt8] = []
    line.append(literal: #"{"hello":"observable-server","version":"#)
    JSONStringEncoding.append(version, to: &line)
    line.append(contentsOf: #","protocol":\#(protocolVersion)"#.utf8)
    line.append(literal: #","features":["#)
    for (index, feature) in features.enumerated() {
      if index > 0 { line.append(UInt8(ascii: ",")) }
      JSONStringEncoding.append(feature, to: &line)
    }
    line.append(UInt8(ascii: "]"))
    if authRequired { line.append(literal: #","auth":"required""#) }
    line.append(literal: #","help":"type help, or send {\"op\":\"help\"}"}"#)
    line.append(0x0A)
    return line
  }
}
