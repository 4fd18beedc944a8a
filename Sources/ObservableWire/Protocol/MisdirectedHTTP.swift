/// Recognises an HTTP/1 request line, `METHOD TARGET HTTP/1.x`, sent to the line port by a
/// browser, `curl` or a proxy pointed at the wrong port.
///
/// Such a client waits for an HTTP response that never comes, while each header line it sent
/// would get an `unknown_op` error of its own. The session answers the request line once and
/// ends the connection instead.
package enum MisdirectedHTTP {
  /// Whether `line` (without its line ending) is an HTTP/1 request line.
  package static func isRequestLine(_ line: UnsafeRawBufferPointer) -> Bool {
    // The method: an uppercase token, as every registered method is.
    var index = 0
    while index < line.count, index < 16, isUppercase(line[index]) { index += 1 }
    guard index > 0, index < line.count, line[index] == UInt8(ascii: " ") else { return false }
    let version = Array("HTTP/1.".utf8)
    // The target, one word, then the version, with its single digit last.
    guard line.count >= index + 3 + version.count + 1 else { return false }
    let versionStart = line.count - version.count - 1
    guard line[versionStart - 1] == UInt8(ascii: " "),
      line[versionStart...].starts(with: version),
      let last = line.last, last >= UInt8(ascii: "0"), last <= UInt8(ascii: "9")
    else { return false }
    return !line[(index + 1)..<(versionStart - 1)].contains(UInt8(ascii: " "))
  }

  /// The answer: what the port speaks, and where HTTP is served.
  package static let error = ProtocolError(
    .badRequest,
    "this port speaks line-delimited JSON, not HTTP; WebSocket (/ws), /metrics and /healthz are on the --http port"
  )

  private static func isUppercase(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
  }
}
