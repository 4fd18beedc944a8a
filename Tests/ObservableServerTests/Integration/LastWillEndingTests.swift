import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// A last will is published once whichever way its connection ends: closed by the server for
/// a slow reader or for bad input, over TLS, over WebSocket, or at shutdown.
@Suite("Last will, every ending", .timeLimit(.minutes(2)))
struct LastWillEndingTests {
  @Test func aSlowConsumerClosePublishesTheWill() throws {
    let server = try TestServer()
    let watcher = try WillWatcher(port: server.port, pattern: "status.slow")
    let slow = try server.connect()
    // A small receive buffer, so the server's queue fills sooner.
    var size: Int32 = 4096
    setsockopt(slow.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    try slow.request("will status.slow behind")
    try slow.request("subscribe firehose")
    let publisher = try server.connect()
    try server.publishUntilSlowConsumer(publisher)
    #expect(server.server.counters.snapshot.slowConsumersTotal == 1)
    let seen = watcher.wait(forCount: 1)
    #expect(seen.map { $0.value as? String } == ["behind"], "\(seen)")
    _ = slow
  }

  @Test func aCloseForCorruptInputPublishesTheWill() throws {
    let server = try TestServer()
    let watcher = try WillWatcher(port: server.port, pattern: "status.corrupt")
    let client = try server.connect()
    try client.request("will status.corrupt garbled")
    try client.request("compress deflate")
    // A reserved block type: not deflate, so the server closes the connection.
    try client.sendRaw([0xFF, 0xFF, 0xFF, 0xFF])
    #expect(client.waitForClose())
    let seen = watcher.wait(forCount: 1)
    #expect(seen.map { $0.value as? String } == ["garbled"], "\(seen)")
  }

  /// Over TLS, a plain close publishes the will; a `bye` withdraws it.
  @Test(arguments: [false, true]) func aTLSConnectionsEnd(saysBye: Bool) throws {
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    let watcher = try WillWatcher(port: server.port, pattern: "status.tls")
    let client = try server.connectTLS(certificates)
    _ = try client.readLine()
    try client.send("will status.tls sealed")
    _ = try client.readLine(containing: #""op":"will""#)
    guard saysBye else {
      client.close()
      let seen = watcher.wait(forCount: 1)
      #expect(seen.map { $0.value as? String } == ["sealed"], "\(seen)")
      return
    }
    try client.send("bye")
    _ = try client.readLine(containing: #""op":"bye""#)
    #expect(client.waitForEnd())
    #expect(watcher.wait(forCount: 1, timeout: .milliseconds(500)).isEmpty)
  }

  @Test func aWebSocketCloseFramePublishesTheWill() throws {
    let server = try TestServer.withHTTP()
    let watcher = try WillWatcher(port: server.port, pattern: "status.ws")
    let client = try LineClient(port: server.httpPort, readGreeting: false)
    #expect(try client.upgradeToWebSocket() != nil)
    try client.sendRaw(ClientFrames.text("will status.ws framed"))
    #expect(
      eventually { (try? client.readAvailable(timeout: .milliseconds(100)))?.isEmpty == false })
    try client.sendRaw(ClientFrames.normalClose)
    #expect(client.waitForClose())
    // The server closes at the client's end of stream after its own (or after a grace).
    client.close()
    let seen = watcher.wait(forCount: 1)
    #expect(seen.map { $0.value as? String } == ["framed"], "\(seen)")
  }

  @Test func aWebSocketByeGetsANormalCloseAndNoWill() throws {
    let server = try TestServer.withHTTP()
    let watcher = try WillWatcher(port: server.port, pattern: "status.ws")
    let client = try LineClient(port: server.httpPort, readGreeting: false)
    #expect(try client.upgradeToWebSocket() != nil)
    try client.sendRaw(ClientFrames.text("will status.ws framed"))
    try client.sendRaw(ClientFrames.text("bye"))
    #expect(client.waitForHangUp())
    let ending = client.readToEnd()
    #expect(ending.text.contains(#""op":"bye""#), "\(ending.text)")
    // The close frame after the reply says 1000, normal closure.
    let close = ending.bytes.lastIndex(of: 0x88)
    #expect(close != nil, "no close frame in \(ending.bytes)")
    if let close, close + 3 < ending.bytes.count {
      #expect(ending.bytes[(close + 2)...(close + 3)].elementsEqual([0x03, 0xE8]))
    }
    #expect(watcher.wait(forCount: 1, timeout: .milliseconds(500)).isEmpty)
  }

  /// At shutdown the server publishes every will still registered (see Docs/protocol.md for
  /// why), and none that was withdrawn.
  @Test func shutdownPublishesTheWillsStillRegistered() throws {
    let server = try TestServer()
    let kept = try server.connect()
    try kept.request("retainwill status.kept down")
    let withdrawn = try server.connect()
    try withdrawn.request("will status.gone down")
    try withdrawn.request("will status.gone null")
    server.stop()
    #expect(server.server.counters.snapshot.willsPublishedTotal == 1)
    #expect(kept.waitForClose())
    #expect(withdrawn.waitForClose())
  }
}
