/// RESP commands: an array of bulk strings, as redis-cli sends them.
public enum RESPCommand {
  /// `arguments` as one command.
  public static func encode(_ arguments: [String]) -> [UInt8] {
    var bytes = Array("*\(arguments.count)\r\n".utf8)
    for argument in arguments {
      bytes += Array("$\(argument.utf8.count)\r\n\(argument)\r\n".utf8)
    }
    return bytes
  }

  /// A command of `arguments` and then one more argument of `lastArgumentBytes`, up to where
  /// that argument's bytes begin; they follow, then `\r\n`.
  public static func prefix(_ arguments: [String], lastArgumentBytes: Int) -> [UInt8] {
    var bytes = Array("*\(arguments.count + 1)\r\n".utf8)
    for argument in arguments {
      bytes += Array("$\(argument.utf8.count)\r\n\(argument)\r\n".utf8)
    }
    return bytes + Array("$\(lastArgumentBytes)\r\n".utf8)
  }
}
