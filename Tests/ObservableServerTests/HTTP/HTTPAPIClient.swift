import Foundation
import TestSupport

/// An HTTP/1.1 client on one raw socket, for the HTTP API's tests: requests are written by
/// hand and answers read by their `Content-Length`, so that several requests on one
/// connection (keep-alive, pipelining) are what the test sees, not what a library decides.
final class HTTPAPIClient {
  /// One answer.
  struct Answer {
    /// The status code.
    let status: Int
    /// The header fields, names in lower case.
    let headers: [String: String]
    /// The body as text.
    let body: String

    /// The body as a JSON object (empty when it is none).
    var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    /// The `code` of an error body.
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
  }

  /// A client of `server`'s HTTP port.
  init(_ server: TestServer) throws {
    socket = try LineClient(port: server.httpPort, readGreeting: false)
  }

  /// The request's bytes: `Host`, then `headers`, and for a body its type (unless `headers`
  /// names one) and length.
  static func request(
    _ method: String, _ target: String, body: String? = nil, headers: [String: String] = [:]
  ) -> String {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if let body {
      if headers.keys.allSatisfy({ $0.lowercased() != "content-type" }) {
        text += "Content-Type: application/json\r\n"
      }
      text += "Content-Length: \(body.utf8.count)\r\n"
    }
    return text + "\r\n" + (body ?? "")
  }

  /// Sends one request and reads its answer.
  func exchange(
    _ method: String, _ target: String, body: String? = nil, headers: [String: String] = [:]
  ) throws -> Answer {
    try send(Self.request(method, target, body: body, headers: headers))
    return try read()
  }

  /// Sends `text` as it is.
  func send(_ text: String) throws {
    try socket.sendRaw(Array(text.utf8))
  }

  /// Reads the next answer: its head line by line, then `Content-Length` bytes of body.
  func read(timeout: Duration = .seconds(10)) throws -> Answer {
    let deadline = ContinuousClock.now + timeout
    let statusLine = try line(until: deadline)
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else {
      throw LineClient.Timeout(description: "not a status line: \(statusLine)")
    }
    var headers: [String: String] = [:]
    while true {
      let field = try line(until: deadline)
      if field.isEmpty { break }
      let nameAndValue = field.split(separator: ":", maxSplits: 1)
      headers[nameAndValue[0].lowercased()] =
        nameAndValue.count > 1 ? nameAndValue[1].trimmingCharacters(in: .whitespaces) : ""
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    var body = ""
    while body.utf8.count < length {
      body += try socket.readLine(timeout: deadline - .now) + "\n"
    }
    return Answer(status: status, headers: headers, body: body)
  }

  /// Whether the server closed the connection within `timeout`.
  func closedByServer(within timeout: Duration = .seconds(5)) -> Bool {
    socket.waitForClose(timeout: timeout)
  }

  /// Closes the connection.
  func close() { socket.close() }

  /// The next line of the head, without its CR LF.
  private func line(until deadline: ContinuousClock.Instant) throws -> String {
    let line = try socket.readLine(timeout: deadline - .now)
    return line.hasSuffix("\r") ? String(line.dropLast()) : line
  }

  private let socket: LineClient
}
