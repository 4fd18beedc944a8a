/// The `help` reply's list of commands, for people at a terminal.
package enum HelpText {
  package static let commands = [
    "subscribe NAME            values of NAME arrive as {\"stream\":NAME,\"value\":V}",
    "subscribe a.*  /  a.>     patterns: * is one token, > is one or more trailing tokens;",
    "                          values arrive as {\"stream\":NAME,\"sub\":PATTERN,\"value\":V}",
    "subscribe NAME SINCE      with --history: what NAME had after position SINCE, then live",
    "history NAME [LIMIT]      with --history: NAME's last values, each with its \"pos\"",
    "unsubscribe NAME",
    "publish NAME VALUE        VALUE is JSON if it parses, else a string",
    "retain NAME VALUE         publish and keep VALUE for later subscribers",
    "clear NAME                forget NAME's retained value",
    "get NAME                  NAME's retained value, if it has one, then the reply",
    "list [NAME [AFTER]]       streams with their kind and subscribers; NAME may be a pattern;",
    "                          1000 a reply, then \"next\": pass it as AFTER for the rest",
    "ping",
    "auth [USER] TOKEN         USER: a user of the server's --auth-file",
    "compress deflate          raw deflate both ways from the next byte on",
    "will NAME VALUE           publish VALUE to NAME once if the connection ends without bye;",
    "                          one will a connection; will NAME null withdraws it",
    "retainwill NAME VALUE     a will whose VALUE is also kept for later subscribers",
    "bye                       withdraw the will, then close",
    "commands are case-insensitive; sub, unsub and pub are short for the long forms",
    "JSON requests: {\"op\":\"subscribe\",\"stream\":\"clock\",\"id\":1}",
  ]

  /// Appends `,"commands":[…]`.
  package static func append(to out: inout [UInt8]) {
    ReplyEncoder.key("commands", to: &out)
    out.append(UInt8(ascii: "["))
    for (index, command) in commands.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      JSONStringEncoding.append(command, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }
}
