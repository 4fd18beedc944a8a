import Foundation
import TLS
import TestSupport
import Testing

@testable import ObservablePOSIX
@testable import ObservableServer

/// A TLS connection leaves nothing behind once closed, however it ended, and sockets handed
/// over under the names `tls` and `https` serve TLS.
@Suite("TLS connections are freed; TLS from socket activation", .timeLimit(.minutes(2)))
struct TLSReleaseTests {
  /// How a test ends its TLS clients' connections.
  enum Ending: String, CaseIterable, CustomTestStringConvertible {
    case clientClose, clientReset, serverShutdown

    var testDescription: String { rawValue }
  }

  @Test(arguments: Ending.allCases)
  func closedTLSConnectionIsDeallocated(_ ending: Ending) throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    let clients = try (0..<3).map { _ in try server.connectTLS(certificates) }
    for (index, client) in clients.enumerated() {
      _ = try client.readLine()
      try client.send("subscribe room.\(index)")
      _ = try client.readLine(containing: #""ok":true"#)
      try client.send("publish room.\(index) \(index)")
      _ = try client.readLine(containing: #""value":\#(index)"#)
    }
    let released = WeakSet(server.server.openConnections)
    #expect(released.count == 3)
    switch ending {
    case .clientClose: for client in clients { client.close() }
    case .clientReset:
      for client in clients {
        client.resetOnClose()
        client.close()
      }
    case .serverShutdown:
      server.stop()
      // A connection that ends in good order says close_notify before its FIN.
      for client in clients {
        #expect(client.waitForEnd())
        #expect(client.session.peerSentCloseNotify)
      }
    }
    #expect(eventually { server.server.connectionCount == 0 })
    #expect(eventually { released.liveCount == 0 }, "\(released.liveCount) connections still live")
    #expect(server.tlsCounters.connections == 0)
    #expect(server.tlsCounters.failures.total == 0)
  }

  @Test func slowConsumerOverTLSIsClosedAndDeallocated() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates) { $0.maxQueuedBytes = 64 * 1024 }
    let slow = try server.stalledTLSSubscriber(certificates, to: "firehose")
    let released = WeakSet(server.server.openConnections)
    let publisher = try server.connect()
    try server.publishUntilSlowConsumer(publisher)
    #expect(eventually { server.server.counters.snapshot.slowConsumersTotal == 1 })
    #expect(eventually { released.liveCount == 0 }, "the slow consumer is still live")
    #expect(try publisher.request("ping")["ok"] as? Bool == true)
    // Connected, unread, until the server has closed it.
    withExtendedLifetime(slow) {}
  }

  @Test func slowWebSocketPeerOverWSSGetsItsCloseFrameAfterWholeRecords() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates, https: true) {
      $0.maxQueuedBytes = 64 * 1024
    }
    let slow = try TLSLineClient(
      port: server.httpsPort, context: TLSLineClient.context(certificates))
    ReceiveBuffer.shrink(slow.fd)
    try slow.sendRaw(LineClient.webSocketUpgrade)
    _ = try slow.readLine(containing: "101")
    // A masked text frame (a zero mask leaves the payload as it is).
    let subscribe = Array(#"{"op":"subscribe","stream":"firehose"}"#.utf8)
    try slow.sendRaw([0x81, 0x80 | UInt8(subscribe.count), 0, 0, 0, 0] + subscribe)
    #expect(eventually { server.server.counters.snapshot.subscriptions == 1 })
    let released = WeakSet(server.server.openConnections)
    let publisher = try server.connect()
    try server.publishUntilSlowConsumer(publisher)
    #expect(eventually { server.server.counters.snapshot.slowConsumersTotal == 1 })
    // Reading now, the peer gets whole records up to a close frame saying why (1008), then
    // close_notify: the records cut after the frame being written were not cut inside.
    ReceiveBuffer.growForDraining(slow.fd)
    #expect(slow.waitForEnd(timeout: .seconds(10)))
    let received = slow.unreadPlaintext
    // The last frame: FIN and close (0x88), a short length, then code 1008 (0x03F0).
    let tail = Array(received.suffix(130))
    let closeAt = tail.indices.last { tail[$0] == 0x88 && $0 + 3 < tail.count }
    #expect(closeAt.map { Array(tail[($0 + 2)...($0 + 3)]) } == [0x03, 0xF0], "\(tail)")
    #expect(slow.session.peerSentCloseNotify)
    #expect(eventually { released.liveCount == 0 }, "the slow peer is still live")
  }

  @Test func socketsNamedTLSAndHTTPSServeTLS() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let tls = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 16)
    let https = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 16)
    let tlsPort = try #require(SocketCalls.boundPort(tls))
    let httpsPort = try #require(SocketCalls.boundPort(https))
    let server = try TestServer.withTLS(certificates) {
      $0.tlsListen = []
      $0.inheritedListeners = [
        InheritedListener(descriptor: tls, name: "tls"),
        InheritedListener(descriptor: https, name: "https"),
      ]
    }
    defer { server.stop() }
    let context = try TLSLineClient.context(certificates)
    let line = try TLSLineClient(port: tlsPort, context: context)
    #expect(try line.readLine().contains(#""hello":"observable-server""#))
    let web = try TLSLineClient(port: httpsPort, context: context)
    try web.send("GET /healthz HTTP/1.1\r\nHost: localhost\r")
    try web.send("\r")
    #expect(try web.readLine().hasPrefix("HTTP/1.1 200"))
  }
}
