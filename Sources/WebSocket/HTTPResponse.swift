/// A small, complete HTTP/1.1 response: status line, headers, `Content-Length` and body.
///
/// Enough for the pages, metrics, health checks and errors the server answers; there is no
/// streaming and no chunked coding.
public struct HTTPResponse: Sendable, Hashable {
  /// The status.
  public var status: HTTPStatus
  /// Header fields besides `Content-Length` and `Connection`, which are written from `body`
  /// and `closesConnection`.
  public var headers: [HTTPHeaderField]
  /// The body; ignored for 1xx and 204 responses, which have none.
  public var body: [UInt8]
  /// Whether to send `Connection: close` (the caller then closes after writing).
  public var closesConnection: Bool

  /// A response; `headers` are (name, value) pairs in the order to send them.
  public init(
    status: HTTPStatus, headers: [(String, String)] = [], body: [UInt8] = [],
    closesConnection: Bool = false
  ) {
    self.status = status
    self.headers = headers.map { HTTPHeaderField(name: $0.0, value: $0.1) }
    self.body = body
    self.closesConnection = closesConnection
  }

  /// A plain-text response, for errors: `text` and a newline, and `Connection: close` unless
  /// told otherwise.
  public static func text(
    _ status: HTTPStatus, _ text: String, headers: [(String, String)] = [],
    closesConnection: Bool = true
  ) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
      body: Array((text + "\n").utf8), closesConnection: closesConnection)
  }

  /// The answer to a refused head: its status and reason, then close.
  public static func refusing(_ error: HTTPRequestHeadError) -> HTTPResponse {
    .text(error.status, error.reason)
  }

  /// Whether the status forbids a body and so a `Content-Length` (RFC 9110 section 8.6).
  private var hasNoContent: Bool { status.code < 200 || status.code == 204 }

  /// Appends the response's bytes to `output`; with `includingBody: false` (an answer to
  /// `HEAD`) the length is still that of the body.
  public func write(to output: inout [UInt8], includingBody: Bool = true) {
    append("HTTP/1.1 \(status.code) \(Self.clean(status.reason))\r\n", to: &output)
    for field in headers {
      append("\(Self.clean(field.name)): \(Self.clean(field.value))\r\n", to: &output)
    }
    if !hasNoContent { append("Content-Length: \(body.count)\r\n", to: &output) }
    if closesConnection { append("Connection: close\r\n", to: &output) }
    append("\r\n", to: &output)
    if includingBody && !hasNoContent { output.append(contentsOf: body) }
  }

  /// The response's bytes.
  public func bytes(includingBody: Bool = true) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(128 + body.count)
    write(to: &output, includingBody: includingBody)
    return output
  }

  private func append(_ text: String, to output: inout [UInt8]) {
    output.append(contentsOf: text.utf8)
  }

  /// Replaces CR and LF, so no value can end the head early or inject a field.
  private static func clean(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else { return text }
    return String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
  }
}
