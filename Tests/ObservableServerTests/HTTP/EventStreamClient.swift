import TestSupport

/// A raw `GET /sse` over a socket, for tests that look at the bytes of the event stream.
final class EventStreamClient {
  /// Connects to `server`'s HTTP port and asks for `/sse` with `query` and `headers`.
  init(_ server: TestServer, query: String, headers: String = "") throws {
    client = try LineClient(port: server.httpPort, readGreeting: false)
    try client.sendRaw(
      Array("GET /sse?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n".utf8))
  }

  /// The client's socket, for options a test sets on it.
  var fd: Int32 { client.fd }

  /// Everything read so far.
  private(set) var text = ""

  /// Reads until `text` contains `expected` (counted `times`), up to `timeout`; returns
  /// whether it did.
  @discardableResult
  func read(until expected: String, times: Int = 1, timeout: Duration = .seconds(5)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while occurrences(of: expected) < times {
      guard ContinuousClock.now < deadline,
        let bytes = try? client.readAvailable(timeout: deadline - .now), !bytes.isEmpty
      else { return false }
      text += String(decoding: bytes, as: UTF8.self)
    }
    return true
  }

  /// How often `needle` occurs in ``text``.
  func occurrences(of needle: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  /// Whether the server closed the stream within `timeout`.
  func waitForClose(timeout: Duration = .seconds(5)) -> Bool {
    let closed = client.waitForClose(timeout: timeout)
    text += client.unreadText
    return closed
  }

  /// Closes the client's side.
  func close() { client.close() }

  private let client: LineClient
}
