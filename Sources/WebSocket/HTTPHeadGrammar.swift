/// The syntax of a request head (RFC 9112 sections 3 and 5) and the framing rules a server
/// that reads no request bodies must enforce.
enum HTTPHeadGrammar {
  /// Parses complete lines, each ending in LF (a CR before it is allowed), without the
  /// terminating empty line.
  static func parse(_ head: ArraySlice<UInt8>) -> Result<HTTPRequestHead, HTTPRequestHeadError> {
    var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
    if lines.last?.isEmpty == true { lines.removeLast() }
    do {
      return .success(try parse(lines: lines))
    } catch {
      return .failure(error)
    }
  }

  private static func parse(
    lines: [ArraySlice<UInt8>]
  ) throws(HTTPRequestHeadError) -> HTTPRequestHead {
    guard let requestLine = lines.first else { throw bad("empty head") }
    let (method, target, version) = try parseRequestLine(requestLine)
    let (path, query) = try split(target: target)
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
      let (name, value) = try parseField(line)
      headers.append(name: name, value: value)
    }
    try checkFraming(headers, version: version)
    return HTTPRequestHead(
      method: method, target: target, path: path, query: query, version: version,
      headers: headers)
  }

  private static func bad(_ reason: String) -> HTTPRequestHeadError {
    HTTPRequestHeadError(.badRequest, reason)
  }

  /// RFC 9110 `tchar`: the characters of methods and field names.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  private static func parseRequestLine(
    _ line: ArraySlice<UInt8>
  ) throws(HTTPRequestHeadError) -> (String, String, HTTPVersion) {
    let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw bad("request line is not method, target, version") }
    let (method, target, version) = (parts[0], parts[1], parts[2])
    guard !method.isEmpty, method.allSatisfy(isTokenCharacter) else { throw bad("bad method") }
    // Visible ASCII only: no controls, spaces or raw UTF-8 in a request target.
    guard !target.isEmpty, target.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw bad("bad request target")
    }
    let digits = Array(version)
    guard digits.count == 8, digits[..<5].elementsEqual("HTTP/".utf8),
      digits[6] == UInt8(ascii: "."),
      let major = digitValue(digits[5]), let minor = digitValue(digits[7])
    else { throw bad("bad protocol version") }
    let parsed = HTTPVersion(major: major, minor: minor)
    guard parsed == .http11 || parsed == .http10 else {
      throw HTTPRequestHeadError(.httpVersionNotSupported, "\(parsed) is not supported")
    }
    return (
      String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), parsed
    )
  }

  private static func digitValue(_ byte: UInt8) -> Int? {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
  }

  /// Path and query of an origin-form, absolute-form or asterisk-form target.
  private static func split(target: String) throws(HTTPRequestHeadError) -> (String, String?) {
    if target == "*" { return ("*", nil) }
    var rest = Substring(target)
    if !rest.hasPrefix("/") {
      // RFC 9112 section 3.2.2: servers must accept the absolute form too.
      let lowered = rest.lowercased()
      let schemeLength = lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
      guard schemeLength > 0 else { throw bad("request target is neither a path nor an http URI") }
      let authorityAndPath = rest.dropFirst(schemeLength)
      guard let slash = authorityAndPath.firstIndex(where: { $0 == "/" || $0 == "?" }) else {
        return ("/", nil)
      }
      rest = authorityAndPath[slash...]
    }
    guard let question = rest.firstIndex(of: "?") else {
      return (rest.isEmpty || rest.first == "?" ? "/" : String(rest), nil)
    }
    let path = rest[..<question]
    return (path.isEmpty ? "/" : String(path), String(rest[rest.index(after: question)...]))
  }

  private static func parseField(
    _ line: ArraySlice<UInt8>
  ) throws(HTTPRequestHeadError) -> (String, String) {
    if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
      throw bad("obsolete line folding")
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      throw bad("field without colon")
    }
    let name = line[..<colon]
    // A space before the colon is a request-smuggling vector: RFC 9112 section 5.1 says 400.
    guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else { throw bad("bad field name") }
    let value = line[(colon + 1)...]
    // Field values: visible characters, spaces, tabs and obs-text; never CR, NUL or controls.
    guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
      throw bad("control character in field value")
    }
    return (
      String(decoding: name, as: UTF8.self),
      String(decoding: value, as: UTF8.self).trimmingOptionalWhitespace()
    )
  }

  /// RFC 9112 sections 3.2 and 6: one `Host` for HTTP/1.1, and a body only with one valid
  /// `Content-Length`: a transfer coding (chunked) is not read.
  private static func checkFraming(
    _ headers: HTTPHeaders, version: HTTPVersion
  ) throws(HTTPRequestHeadError) {
    let hosts = headers.count("Host")
    if hosts > 1 || (hosts == 0 && version == .http11) {
      throw bad("HTTP/1.1 needs exactly one Host field")
    }
    if headers.count("Transfer-Encoding") > 0 {
      throw HTTPRequestHeadError(.notImplemented, "send the body with Content-Length")
    }
    let lengths = headers.values("Content-Length").flatMap { $0.split(separator: ",") }
      .map { $0.trimmingOptionalWhitespace() }
    guard !lengths.isEmpty else { return }
    guard let first = lengths.first, !first.isEmpty,
      first.utf8.allSatisfy({ digitValue($0) != nil }),
      lengths.allSatisfy({ $0 == first })
    else { throw bad("bad Content-Length") }
    // A body with a length is the router's to read or refuse (the HTTP API reads JSON bodies).
  }
}
