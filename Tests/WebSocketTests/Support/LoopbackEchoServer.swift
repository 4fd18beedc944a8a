import Foundation
import WebSocket

/// A blocking, one-connection WebSocket echo server on loopback, built from the codec under
/// test, for driving with an independent client.
///
/// It runs on a thread of its own and reports through an `AsyncStream`, so nothing is
/// shared. Every wait is bounded (accept and reads time out), so it cannot outlive the test.
enum LoopbackEchoServer {
  /// What the server saw.
  struct Report: Sendable {
    /// The agreed compression, if any.
    var deflate: PerMessageDeflateParameters?
    /// Text messages echoed and pings answered.
    var texts = 0
    var pings = 0
    /// The code in the client's close frame.
    var peerClose: WebSocketCloseCode?
    /// The protocol error the decoder reported, which the server closed with.
    var failure: WebSocketProtocolError?
    /// Anything that went wrong outside the protocol (no connection, a timeout).
    var problem: String?
  }

  /// Listens on 127.0.0.1 with an ephemeral port; returns the socket and the port.
  static func listen() throws -> (Int32, UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && Glibc.listen(fd, 1) == 0
          && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw POSIXError(.EADDRNOTAVAIL)
    }
    return (fd, UInt16(bigEndian: address.sin_port))
  }

  /// Serves one connection on `listener` on a new thread, closing `listener` when done.
  static func start(
    listener: Int32, maximumMessageBytes: Int, policy: PerMessageDeflatePolicy
  ) -> AsyncStream<Report> {
    let (reports, continuation) = AsyncStream<Report>.makeStream()
    let thread = Thread {
      let report = serve(listener, maximumMessageBytes, policy)
      close(listener)
      continuation.yield(report)
      continuation.finish()
    }
    thread.start()
    return reports
  }

  private static func serve(
    _ listener: Int32, _ cap: Int, _ policy: PerMessageDeflatePolicy
  ) -> Report {
    var report = Report()
    var pollable = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    guard poll(&pollable, 1, 20_000) == 1 else { return fail(&report, "no connection") }
    let connection = accept(listener, nil, nil)
    guard connection >= 0 else { return fail(&report, "accept failed") }
    defer { close(connection) }
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(
      connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

    var parser = HTTPRequestHeadParser()
    var leftover: [UInt8] = []
    var handshake: WebSocketHandshake?
    while handshake == nil {
      guard let bytes = receive(connection) else { return fail(&report, "no head") }
      switch parser.parse(bytes) {
      case .needMore: continue
      case .failed(let error):
        send(connection, HTTPResponse.refusing(error).bytes())
        return fail(&report, "bad head: \(error)")
      case .complete(let head, let consumed):
        leftover = Array(bytes[consumed...])
        do {
          handshake = try WebSocketHandshake(head, deflate: policy)
        } catch {
          send(connection, error.response.bytes())
          return fail(&report, "refused: \(error.reason)")
        }
      }
    }
    guard let handshake else { return report }
    report.deflate = handshake.deflate
    send(connection, handshake.response().bytes())
    guard
      let decoder = try? WebSocketFrameDecoder(
        maximumMessageBytes: cap, deflate: handshake.deflate),
      let encoder = try? WebSocketFrameEncoder(deflate: handshake.deflate)
    else { return fail(&report, "zlib refused") }

    var input = leftover
    var finished = false
    while !finished {
      var output: [UInt8] = []
      do {
        try decoder.decode(input) { event in
          switch event {
          case .text(let message):
            report.texts += 1
            message.withUnsafeBytes { encoder.appendText($0, to: &output) }
          case .ping(let payload):
            report.pings += 1
            WebSocketFrameEncoder.appendPong(payload, to: &output)
          case .close(let code, _):
            report.peerClose = code
            WebSocketFrameEncoder.appendClose(code ?? .normalClosure, to: &output)
            finished = true
          case .binary, .pong:
            break
          }
        }
      } catch {
        report.failure = error
        WebSocketFrameEncoder.appendClose(error.closeCode, reason: error.reason, to: &output)
        finished = true
      }
      send(connection, output)
      if finished { break }
      guard let bytes = receive(connection) else { return fail(&report, "connection ended") }
      input = bytes
    }
    // Wait for the client to close, so it reads the close frame rather than a reset.
    shutdown(connection, Int32(SHUT_WR))
    while receive(connection) != nil {}
    return report
  }

  private static func fail(_ report: inout Report, _ problem: String) -> Report {
    report.problem = problem
    return report
  }

  /// Up to 64 KiB, or nil at EOF, error or timeout.
  private static func receive(_ fd: Int32) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    return count > 0 ? Array(buffer[..<count]) : nil
  }

  private static func send(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return }
      offset += sent
    }
  }
}
