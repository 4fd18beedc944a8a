import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// The paths that answer and then close do not lose their answer to a reset: with input the
/// server never read still pending, a bare close sends RST, and the client's kernel drops the
/// reply it had not read yet. Each test sends its last request together with a megabyte more
/// (more than the server reads in one turn), waits until the server hangs up, and only then
/// reads: the answer must be there, followed by an orderly end of stream.
@Suite("Replies before a close", .timeLimit(.minutes(1)))
struct ReplyBeforeCloseTests {
  /// A megabyte of pipelined input, lines the server would answer if it read them as requests.
  private static let pending = Array(String(repeating: "ping\n", count: 200_000).utf8)

  @Test func aWrongTokenIsReadBeforeTheEndOfStream() throws {
    let server = try TestServer { $0.token = "s3cret" }
    let client = try server.connect()
    defer { client.close() }
    let sending = BackgroundSend(Array("auth wrong\n".utf8) + Self.pending, to: client)
    defer { sending.stop() }
    #expect(client.waitForHangUp())
    let ending = client.readToEnd()
    #expect(ending.isOrderly, "error \(String(describing: ending.error))")
    #expect(ending.text.contains(#""code":"unauthorized""#), "\(ending.text.prefix(300))")
    #expect(ending.text.contains("wrong token"))
  }

  @Test func anHTTPRequestOnTheLinePortIsAnsweredBeforeTheEndOfStream() throws {
    let server = try TestServer()
    let client = try server.connect()
    defer { client.close() }
    let head =
      "POST /publish HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(Self.pending.count)\r\n\r\n"
    let sending = BackgroundSend(Array(head.utf8) + Self.pending, to: client)
    defer { sending.stop() }
    #expect(client.waitForHangUp())
    let ending = client.readToEnd()
    #expect(ending.isOrderly, "error \(String(describing: ending.error))")
    // One answer, not one per header line.
    let lines = ending.text.split(separator: "\n")
    #expect(lines.count == 1, "\(ending.text.prefix(600))")
    #expect(ending.text.contains(#""code":"bad_request""#))
    #expect(ending.text.contains("HTTP"))
  }

  @Test func aWebSocketProtocolErrorSendsItsCloseFrameBeforeTheEndOfStream() throws {
    let server = try TestServer.withHTTP()
    let client = try LineClient(port: server.httpPort, readGreeting: false)
    defer { client.close() }
    #expect(try client.upgradeToWebSocket() != nil)
    // An unmasked client frame is a protocol error (1002); the megabyte after it stays unread.
    let unmasked: [UInt8] = [0x81, 0x04] + Array("ping".utf8)
    let sending = BackgroundSend(unmasked + Self.pending, to: client)
    defer { sending.stop() }
    #expect(client.waitForHangUp())
    let ending = client.readToEnd()
    #expect(ending.isOrderly, "error \(String(describing: ending.error))")
    let close = ending.bytes.firstIndex(of: 0x88)
    #expect(close != nil, "no close frame in \(ending.bytes.prefix(64))")
    if let close, close + 3 < ending.bytes.count {
      #expect(ending.bytes[(close + 2)...(close + 3)].elementsEqual([0x03, 0xEA]))
    }
  }
}
