import Glibc
import TestSupport
import Testing

@testable import Deflate
@testable import ObservablePOSIX
@testable import ObservableServer

/// A closed connection must leave nothing behind: not its buffers, not its compressor, not
/// the connection itself, however it ended.
@Suite("Closed connections are freed", .timeLimit(.minutes(2)))
struct ConnectionReleaseTests {
  /// How a test ends a client's connection.
  enum Ending: String, CaseIterable, CustomTestStringConvertible {
    case clientClose, clientReset, halfClose, serverShutdown

    var testDescription: String { rawValue }
  }

  /// What a client does before its connection ends.
  enum Activity: String, CaseIterable, CustomTestStringConvertible {
    case nothing, subscribed, patternSubscribed, compressed, publisher

    var testDescription: String { rawValue }
  }

  @Test(arguments: Activity.allCases, Ending.allCases)
  func closedConnectionIsDeallocated(activity: Activity, ending: Ending) throws {
    let server = try TestServer()
    let clients = try (0..<3).map { _ in try server.connect() }
    for client in clients { try Self.perform(activity, on: client) }
    let released = WeakSet(server.server.openConnections)
    #expect(released.count == clients.count)
    switch ending {
    case .clientClose: for client in clients { client.close() }
    case .clientReset: for client in clients { client.reset() }
    case .halfClose:
      for client in clients {
        shutdown(client.fd, Int32(SHUT_WR))
        #expect(client.waitForClose())
      }
    case .serverShutdown: server.stop()
    }
    #expect(eventually { server.server.connectionCount == 0 })
    #expect(eventually { released.liveCount == 0 }, "\(released.liveCount) connections still live")
  }

  @Test func slowConsumerClosedByTheServerIsDeallocated() throws {
    let server = try TestServer { $0.maxQueuedBytes = 64 * 1024 }
    let slow = try server.connect()
    var small: Int32 = 4096
    setsockopt(slow.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    try slow.request("subscribe firehose")
    let released = WeakSet(server.server.openConnections)
    let publisher = try server.connect()
    try server.publishUntilSlowConsumer(publisher)
    #expect(eventually { server.server.counters.snapshot.slowConsumersTotal == 1 })
    #expect(eventually { released.liveCount == 0 }, "the slow consumer is still live")
  }

  private static func perform(_ activity: Activity, on client: LineClient) throws {
    switch activity {
    case .nothing: break
    case .subscribed:
      try client.request("subscribe room.1")
      try client.request("subscribe clock")
    case .patternSubscribed: try client.request("subscribe room.*")
    case .publisher:
      try client.request("subscribe room.2")
      try client.request("publish room.2 21.5")
    case .compressed:
      try client.request("compress deflate")
      let compressor = try DeflateCompressor()
      var compressed: [UInt8] = []
      Array("subscribe room.1\n".utf8).withUnsafeBytes {
        compressor.compress($0, appendingTo: &compressed)
      }
      try client.sendRaw(compressed)
      // The reply arrives compressed; waiting for any bytes shows the request was handled.
      #expect(try !client.readAvailable().isEmpty)
    }
  }
}

/// Weak references to objects, to see whether anything still keeps them.
final class WeakSet {
  private struct Entry {
    weak var object: AnyObject?
  }

  private let entries: [Entry]

  init(_ objects: [AnyObject]) {
    entries = objects.map { Entry(object: $0) }
  }

  var count: Int { entries.count }

  var liveCount: Int { entries.count { $0.object != nil } }
}
