import Foundation
import Glibc
import TestSupport
import Testing

@testable import Deflate
@testable import ObservableServer

/// Memory freed by connections that held a lot goes back to the system: with no client left,
/// the server shrinks to about what it started with, instead of keeping its peak for ever.
@Suite("Freed memory is returned", .serialized, .timeLimit(.minutes(3)))
struct MemoryReturnTests {
  /// How far above its start the server may stay once every client has gone.
  static let margin = 64 << 20

  @Test func slowReadersResetWithDataPendingGiveTheirMemoryBack() throws {
    let (server, port) = try Self.startServer()
    let start = try #require(server.residentBytes)
    // Twice: freeing the first round's large buffers raises glibc's mmap threshold, so the
    // second round's come from the heap, which keeps them after they are freed.
    for _ in 0..<2 {
      // Each reader a stream of its own: the server shares one value's bytes among the
      // readers of one stream, and this test needs memory held for each.
      let readers = try (0..<50).map { try SlowReader(port: port, stream: "slow.\($0)") }
      // 1,500 values of 4,000 bytes for each reader: the kernel takes about 2 MB of them, the
      // server holds the rest, 200 MB in all.
      let publisher = try LineClient(port: port)
      let value = String(repeating: "y", count: 4000)
      for index in readers.indices {
        try publisher.sendRaw(
          Array(String(repeating: "publish slow.\(index) \"\(value)\"\n", count: 1500).utf8))
        for _ in 0..<1500 { _ = try publisher.readReply(timeout: .seconds(30)) }
      }
      let held = try #require(server.residentBytes)
      try #require(held - start > 2 * Self.margin, "RSS \(start) → \(held) bytes while pending")
      for reader in readers { reader.reset() }
      publisher.close()
      // The server has dropped every reader before the next round.
      try #require(
        eventually(timeout: .seconds(10)) {
          (try? LineClient(port: port).request("list slow.*")["streams"] as? [Any])?.isEmpty == true
        })
    }
    try Self.expectReturned(server, start: start)
  }

  @Test func compressedConnectionsThatCloseGiveTheirMemoryBack() throws {
    let (server, port) = try Self.startServer()
    let start = try #require(server.residentBytes)
    var clients: [LineClient] = []
    for index in 0..<1000 {
      clients.append(try Self.compressedSubscriber(port: port, index: index))
    }
    let held = try #require(server.residentBytes)
    try #require(held - start > Self.margin, "RSS \(start) → \(held) bytes while open")
    for (index, client) in clients.enumerated() {
      if index.isMultiple(of: 2) { client.close() } else { client.reset() }
    }
    try Self.expectReturned(server, start: start)
  }

  /// Expects RSS back within ``margin`` of `start` soon after the last client went: the
  /// requirement is five seconds, and a loaded machine is given twice that.
  private static func expectReturned(_ server: ServerProcess, start: Int) throws {
    let returned = eventually(timeout: .seconds(10)) {
      (server.residentBytes ?? .max) - start < margin
    }
    let now = server.residentBytes ?? 0
    #expect(returned, "RSS \(start) at start, \(now) bytes 10 s after the last client closed")
  }

  private static func startServer() throws -> (ServerProcess, UInt16) {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--log-level", "error",
    ])
    try #require(eventually { (try? LineClient(port: port)) != nil })
    return (server, port)
  }

  /// A client that switched to deflate and subscribed to a topic and a pattern through it.
  private static func compressedSubscriber(port: UInt16, index: Int) throws -> LineClient {
    let client = try LineClient(port: port)
    try client.request("compress deflate")
    let compressor = try DeflateCompressor()
    var bytes: [UInt8] = []
    Array("subscribe memory.\(index % 50)\nsubscribe memory.*\n".utf8).withUnsafeBytes {
      compressor.compress($0, appendingTo: &bytes)
    }
    try client.sendRaw(bytes)
    _ = try client.readAvailable()
    return client
  }
}
