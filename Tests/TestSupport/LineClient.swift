import Foundation
import Glibc
import ObservablePOSIX

/// A real blocking socket client that speaks lines, for tests. Every read is bounded by a
/// deadline, so a test that waits for something that never comes fails instead of hanging.
public final class LineClient: @unchecked Sendable {
  // Unchecked: a test hands a client to at most one thread at a time.
  public struct Timeout: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
  }

  /// Connects to `endpoint` and, unless told otherwise, reads the greeting.
  public init(_ endpoint: SocketEndpoint, readGreeting: Bool = true) throws {
    fd = try endpoint.connect()
    if readGreeting { greeting = try readJSON() }
  }

  public convenience init(port: UInt16, host: String = "127.0.0.1", readGreeting: Bool = true)
    throws
  {
    try self.init(.tcp(host: host, port: port), readGreeting: readGreeting)
  }

  deinit { close() }

  public private(set) var greeting: [String: Any] = [:]
  public let fd: Int32
  private var buffer: [UInt8] = []
  private var closed = false
  /// Lines that were not replies, seen while waiting for a reply.
  public private(set) var deliveries: [[String: Any]] = []

  /// Sends `text` and a newline.
  public func send(_ text: String) throws {
    try sendRaw(Array(text.utf8) + [0x0A])
  }

  /// Sends bytes as they are.
  public func sendRaw(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { raw in
      do throws(SystemError) {
        try BlockingWrite.send(raw, to: fd)
      } catch {
        throw TestSupportError(call: "send", code: error.code)
      }
    }
  }

  /// Reads raw bytes that are available, up to `limit`, waiting until `timeout`.
  public func readAvailable(limit: Int = 65536, timeout: Duration = .seconds(5)) throws -> [UInt8] {
    if !buffer.isEmpty {
      defer { buffer.removeAll() }
      return buffer
    }
    try waitReadable(until: .now + timeout)
    var chunk = [UInt8](repeating: 0, count: limit)
    let count = recv(fd, &chunk, limit, 0)
    guard count >= 0 else { throw TestSupportError(call: "recv", code: errno) }
    return Array(chunk[..<count])
  }

  /// Reads one line, without its newline; throws ``Timeout`` or on end of stream.
  public func readLine(timeout: Duration = .seconds(5)) throws -> String {
    let deadline = ContinuousClock.now + timeout
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      try waitReadable(until: deadline)
      let count = recv(fd, &chunk, chunk.count, 0)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        throw Timeout(description: count == 0 ? "end of stream" : "recv failed: errno \(errno)")
      }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  /// Reads one line and parses it as a JSON object.
  public func readJSON(timeout: Duration = .seconds(5)) throws -> [String: Any] {
    let line = try readLine(timeout: timeout)
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else {
      throw Timeout(description: "not a JSON object: \(line)")
    }
    return object
  }

  /// Sends a request line and returns the next reply (a line with `ok`), keeping any values
  /// that arrive first in ``deliveries``.
  @discardableResult
  public func request(_ line: String, timeout: Duration = .seconds(5)) throws -> [String: Any] {
    try send(line)
    return try readReply(timeout: timeout)
  }

  /// Reads lines until a reply arrives.
  public func readReply(timeout: Duration = .seconds(5)) throws -> [String: Any] {
    let deadline = ContinuousClock.now + timeout
    while true {
      let object = try readJSON(timeout: deadline - .now)
      if object["ok"] != nil { return object }
      deliveries.append(object)
    }
  }

  /// Reads lines until one satisfies `predicate`, up to `timeout`.
  public func read(
    until predicate: ([String: Any]) -> Bool,
    timeout: Duration = .seconds(5)
  ) throws -> [String: Any] {
    let deadline = ContinuousClock.now + timeout
    while true {
      let object = try readJSON(timeout: deadline - .now)
      if predicate(object) { return object }
    }
  }

  /// Takes the values received so far while waiting for replies.
  public func takeDeliveries() -> [[String: Any]] {
    defer { deliveries.removeAll() }
    return deliveries
  }

  /// Closes the socket normally (FIN).
  public func close() {
    guard !closed else { return }
    closed = true
    Glibc.close(fd)
  }

  /// Closes the socket with a TCP reset (RST), as a crashed peer would.
  public func reset() {
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    close()
  }

  /// Whether the server has closed its side: reads until end of stream, up to `timeout`.
  public func waitForClose(timeout: Duration = .seconds(5)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    var chunk = [UInt8](repeating: 0, count: 65536)
    while ContinuousClock.now < deadline {
      guard (try? waitReadable(until: deadline)) != nil else { return false }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return true }
      if count > 0 { buffer.append(contentsOf: chunk[..<count]) }
    }
    return false
  }

  /// Everything received but not yet read as lines.
  public var unreadText: String { String(decoding: buffer, as: UTF8.self) }

  private func waitReadable(until deadline: ContinuousClock.Instant) throws {
    while true {
      let remaining = deadline - .now
      guard remaining > .zero else { throw Timeout(description: "no data before the deadline") }
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(min(remaining.components.seconds * 1000 + 1, 60_000))
      let ready = poll(&descriptor, 1, milliseconds)
      if ready > 0 { return }
      if ready < 0, errno != EINTR { throw TestSupportError(call: "poll", code: errno) }
    }
  }
}
